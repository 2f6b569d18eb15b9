// The AI cores of a simulated device: a pool of worker threads that run streams (Runnables)
// and the blocks of parallel jobs. Jobs come first, so that a kernel's blocks spread over idle
// cores before another stream's task starts.
#pragma once

#include <atomic>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#include "core/cond_var.h"

#include "backend/backend.h"

namespace openacl::sim {

class WorkerPool final : public backend::AiCores {
 public:
  WorkerPool(int device_id, unsigned workers);
  ~WorkerPool() override;  // joins the workers; queued work must be finished by then

  void schedule(backend::Runnable *r);
  bool unschedule(backend::Runnable *r);
  unsigned count() const override { return static_cast<unsigned>(threads_.size()); }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override;
  unsigned busy() const override {
    return static_cast<unsigned>(running_.load(std::memory_order_relaxed) +
                                 helping_.load(std::memory_order_relaxed));
  }
  void host_enter() override;
  void host_leave() override;

 private:
  // A calling thread reuses its previous job once no worker holds it (the shared_ptr's count):
  // n and body are atomics because a worker that last held the job may still be
  // synchronizing its count when the caller writes them.
  struct Job {
    std::atomic<size_t> n{0};
    std::atomic<const std::function<void(size_t)> *> body{nullptr};
    std::atomic<size_t> next{0};
    std::atomic<size_t> done{0};
    // Workers that may still join: one fewer than the cores when a host thread running a
    // stream calls, so that the job runs on as many threads as the device has cores.
    std::atomic<int> seats{0};
    std::mutex mu;
    CondVar cv;
    std::exception_ptr error;
  };

  void worker_main();
  void push_work(const std::function<void()> &push);
  static void run_index(Job &job, size_t i);
  static void help(Job &job);
  bool wait_for_work(std::unique_lock<std::mutex> &lock);

  const int workers_;  // threads_.size(), which the workers must not read while it grows
  std::mutex mu_;
  CondVar cv_;
  std::deque<backend::Runnable *> ready_;
  std::deque<std::shared_ptr<Job>> jobs_;
  std::atomic<int> pending_{0};   // ready_.size() + jobs_.size(), read without the lock
  std::atomic<int> running_{0};   // workers inside a stream's run_slice, host threads running one
  std::atomic<int> helping_{0};   // workers running blocks of another worker's parallel job
  std::atomic<int> spinning_{0};  // idle workers spinning for work
  std::atomic<int64_t> last_job_ns_{0};  // steady-clock time of the latest parallel job
  int sleepers_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace openacl::sim
