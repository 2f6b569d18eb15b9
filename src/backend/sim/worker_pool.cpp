#include "backend/sim/worker_pool.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define OPENACL_CPU_RELAX() _mm_pause()
#else
#define OPENACL_CPU_RELAX() std::this_thread::yield()
#endif

namespace openacl::sim {
namespace {
// Spinning before sleeping keeps the enqueue-to-start latency of a busy device in the
// sub-microsecond range; the bound keeps idle devices from burning a core.
constexpr auto kSpin = std::chrono::microseconds(30);
// While another worker runs a stream that has just split work over the cores (the ops of a
// model), its next parallel job is usually less than a millisecond away: an idle worker that
// slept instead would cost the job a futex wake-up, tens of microseconds on a virtual machine.
// Streams of small serial tasks get no such spinning, which would only take CPU time from the
// host thread that feeds them.
constexpr auto kBusySpin = std::chrono::microseconds(1000);
constexpr int64_t kRecentJobNs = 2'000'000;

// Streams this thread runs as a host thread (Stream::help), of any device.
thread_local int host_runs = 0;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Spins until ready() or the spin time is over; returns ready(). Past kSpin it yields between
// checks, so that a thread woken on this CPU (the host thread a finished task signals) runs
// at once instead of waiting for the scheduler to preempt the spinner.
template <class Ready>
bool spin_until(Ready ready, std::chrono::microseconds spin = kSpin) {
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + spin, polite = start + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      OPENACL_CPU_RELAX();
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= end) return ready();
    if (now >= polite) std::this_thread::yield();
  }
}
}  // namespace

WorkerPool::WorkerPool(int device_id, unsigned workers) : workers_(static_cast<int>(workers)) {
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) {
    threads_.emplace_back([this] { worker_main(); });
    std::string name = "aicore" + std::to_string(device_id) + "." + std::to_string(i);
    pthread_setname_np(threads_.back().native_handle(), name.substr(0, 15).c_str());
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto &t : threads_) t.join();
}

void WorkerPool::host_enter() {
  running_.fetch_add(1, std::memory_order_relaxed);
  ++host_runs;
}

void WorkerPool::host_leave() {
  running_.fetch_sub(1, std::memory_order_relaxed);
  --host_runs;
}

void WorkerPool::push_work(const std::function<void()> &push) {
  std::lock_guard lock(mu_);
  push();
  const int pending = pending_.fetch_add(1, std::memory_order_release) + 1;
  // Each spinning worker takes one piece of work without a wake-up, which would cost the
  // caller a system call (it looks at the queue under this lock before it would sleep); only
  // work beyond what the spinners take needs a sleeper woken.
  if (sleepers_ > 0 && pending > spinning_.load(std::memory_order_relaxed)) cv_.notify_one();
}

void WorkerPool::schedule(backend::Runnable *r) {
  push_work([&] { ready_.push_back(r); });
}

bool WorkerPool::unschedule(backend::Runnable *r) {
  std::lock_guard lock(mu_);
  auto it = std::find(ready_.begin(), ready_.end(), r);
  if (it == ready_.end()) return false;
  ready_.erase(it);
  pending_.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

void WorkerPool::run_index(Job &job, size_t i) {
  try {
    (*job.body.load(std::memory_order_relaxed))(i);
  } catch (...) {
    std::lock_guard lock(job.mu);
    if (!job.error) job.error = std::current_exception();
  }
  if (job.done.fetch_add(1, std::memory_order_acq_rel) + 1 ==
      job.n.load(std::memory_order_relaxed)) {
    std::lock_guard lock(job.mu);
    job.cv.notify_all();
  }
}

void WorkerPool::help(Job &job) {
  for (;;) {
    size_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.n.load(std::memory_order_relaxed)) return;
    run_index(job, i);
  }
}

void WorkerPool::parallel_for(size_t n, const std::function<void(size_t)> &body) {
  if (n == 0) return;
  // A host thread running a stream (ggml synchronizing on its stream runs most of a prompt so)
  // takes a core's place: with every worker joining too, 2 cores ran 3 threads where the host
  // has as many CPUs as the device has cores, and a descheduled one held back the end of each
  // job (bench_aclnn BM_AclnnAttention at load 3-4: 1.05 ms a call, 0.5 ms so; under
  // SCHED_FIFO, as on a quiet machine, the same either way).
  const int seats = host_runs > 0 ? workers_ - 1 : workers_;
  if (n == 1 || seats <= 0 || threads_.size() <= 1) {
    for (size_t i = 0; i < n; ++i) body(i);
    return;
  }
  last_job_ns_.store(now_ns(), std::memory_order_relaxed);
  // A job a call, without an allocation: this thread's previous one when no worker holds it.
  thread_local std::shared_ptr<Job> spare;
  std::shared_ptr<Job> job;
  if (spare && spare.use_count() == 1) {
    job = spare;
    job->done.store(0, std::memory_order_relaxed);
    job->error = nullptr;
  } else {
    job = spare = std::make_shared<Job>();
  }
  job->n.store(n, std::memory_order_relaxed);
  job->body.store(&body, std::memory_order_relaxed);
  // The caller keeps index 0, the next worker to come takes index 1, and so on: consecutive
  // ops split the same way then touch the same bytes on the same core (its cache).
  job->next.store(1, std::memory_order_relaxed);
  job->seats.store(seats, std::memory_order_relaxed);
  push_work([&] { jobs_.push_back(job); });
  // push_work woke one sleeper at most: the others too when more than one may join (a
  // wake-up beyond the seats costs this thread a system call and finds no index).
  if (n > 2 && seats > 1) {
    std::lock_guard lock(mu_);
    cv_.notify_all();
  }
  run_index(*job, 0);
  help(*job);
  // Remove the job so no worker picks it up after it is finished; workers that already hold
  // it find no index left.
  {
    std::lock_guard lock(mu_);
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      if (*it == job) {
        jobs_.erase(it);
        pending_.fetch_sub(1, std::memory_order_relaxed);
        break;
      }
    }
  }
  spin_until([&] { return job->done.load(std::memory_order_acquire) == n; });
  {
    std::unique_lock lock(job->mu);
    job->cv.wait(lock, [&] { return job->done.load(std::memory_order_acquire) == n; });
  }
  if (job->error) std::rethrow_exception(job->error);
}

bool WorkerPool::wait_for_work(std::unique_lock<std::mutex> &lock) {
  if (pending_.load(std::memory_order_acquire) == 0 && !stop_) {
    lock.unlock();
    // Spin only while fewer threads than cores run or spin: a host thread running a stream
    // (a synchronize that helps) takes a core, and one more spinner would take its time.
    const int active = running_.load(std::memory_order_relaxed) +
                       helping_.load(std::memory_order_relaxed) +
                       spinning_.fetch_add(1, std::memory_order_relaxed);
    if (active < workers_) {
      const bool busy = running_.load(std::memory_order_relaxed) > 0 &&
                        now_ns() - last_job_ns_.load(std::memory_order_relaxed) < kRecentJobNs;
      spin_until([&] { return pending_.load(std::memory_order_acquire) != 0; },
                 busy ? kBusySpin : kSpin);
    }
    spinning_.fetch_sub(1, std::memory_order_relaxed);
    lock.lock();
  }
  ++sleepers_;
  cv_.wait(lock, [&] { return stop_ || !ready_.empty() || !jobs_.empty(); });
  --sleepers_;
  return !(stop_ && ready_.empty() && jobs_.empty());
}

void WorkerPool::worker_main() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (!wait_for_work(lock)) return;
    if (!jobs_.empty()) {
      std::shared_ptr<Job> job = jobs_.front();
      if (job->next.load(std::memory_order_relaxed) >= job->n.load(std::memory_order_relaxed) ||
          job->seats.fetch_sub(1, std::memory_order_relaxed) <= 0) {
        jobs_.pop_front();
        pending_.fetch_sub(1, std::memory_order_relaxed);
        continue;
      }
      lock.unlock();
      helping_.fetch_add(1, std::memory_order_relaxed);
      help(*job);
      helping_.fetch_sub(1, std::memory_order_relaxed);
      lock.lock();
      continue;
    }
    backend::Runnable *r = ready_.front();
    ready_.pop_front();
    pending_.fetch_sub(1, std::memory_order_relaxed);
    lock.unlock();
    running_.fetch_add(1, std::memory_order_relaxed);
    r->run_slice();
    running_.fetch_sub(1, std::memory_order_relaxed);
    lock.lock();
  }
}

}  // namespace openacl::sim
