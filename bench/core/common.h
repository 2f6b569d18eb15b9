// Shared pieces of the core benchmarks: error checks, RAII wrappers for the handles they use,
// the benchmark kernels, process memory figures, and the plain baselines measured next to
// openacl in the same run.
//
// Reporting convention (read by bench/compare.py): a benchmark's label holds its goal as
// "goal: <metric><=|>=<number>[unit]", where <metric> is `time` (the real time per
// iteration, or counter `openacl_ns` when set: a median of samples taken within the run) or a
// user counter; the baseline is counter `baseline_ns` (for time) or `baseline_<metric>`;
// counter `ratio`, when set, is the figure compared with the baseline.
#pragma once

#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "acl/acl.h"

namespace bench {

// Exits the program with the runtime's message when ret is not ACL_SUCCESS.
void check(aclError ret, const char *what);
int64_t now_ns();
// The median of samples (a preempted sample on a busy machine does not move it).
double median(std::vector<double> samples);
// Resident set size (from /proc/self/statm) and bytes the heap holds (mallinfo2).
size_t rss_bytes();
size_t heap_bytes();
// Gives free heap pages back to the system so that a following RSS delta is what it grew by.
void trim_heap();

struct Stream {
  Stream();
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  aclrtStream h = nullptr;
};

struct Event {
  Event();
  ~Event();
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  aclrtEvent h = nullptr;
};

enum class Memory { device, pinned, pageable };

// A buffer of n bytes, touched once so that no benchmark pays its page faults.
struct Buffer {
  Buffer(Memory kind, size_t n);
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Memory kind;
  size_t n;
  void *p = nullptr;
};

// The kernels of libbench_core_kernels.so, loaded once with aclrtBinaryLoadFromFile.
struct Kernels {
  aclrtFuncHandle noop = nullptr;
  aclrtFuncHandle gate = nullptr;
};
const Kernels &kernels();
void unload_kernels();

// Holds a stream: launches the gate kernel on it; tasks queued after it wait until open().
// The destructor opens the gate and synchronizes the stream (the kernel reads the flag).
class Gate {
 public:
  explicit Gate(aclrtStream stream);
  ~Gate();
  Gate(const Gate &) = delete;
  Gate &operator=(const Gate &) = delete;
  void open();

 private:
  aclrtStream stream_;
  std::atomic<int> flag_{0};
};

// Two threads bounce an atomic; the median time of one round trip (the floor of any hand-off
// between two threads that spin before they sleep, like the runtime's host waits and workers).
double ping_pong_round_trip_ns(int rounds);

// The floor of a queued-task design: a heap-allocated memset task pushed under a mutex onto an
// intrusive FIFO that one consumer thread drains, running and freeing each task. The consumer
// spins briefly before it sleeps, as the runtime's workers do.
class PlainQueue {
 public:
  PlainQueue();
  ~PlainQueue();
  void push(void *dst, int value, size_t n);
  // Returns once every task pushed before the call has run.
  void drain();
  // While held, the consumer runs nothing (tasks stay queued).
  void hold(bool held);
  static size_t task_bytes();

 private:
  struct Node;
  void consume();

  std::mutex mu_;
  std::condition_variable work_cv_;
  Node *head_ = nullptr;
  Node *tail_ = nullptr;
  std::atomic<uint64_t> pushed_{0};
  std::atomic<uint64_t> done_{0};
  bool held_ = false;
  bool stop_ = false;
  bool sleeping_ = false;
  std::thread consumer_;
};

// Per-task cost of PlainQueue::push with the consumer draining concurrently (median over
// batches of `batch` pushes).
double plain_enqueue_ns(int tasks, int batch);

}  // namespace bench
