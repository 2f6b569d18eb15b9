// Scale: a million tasks queued on one stream before one sync (memory per task, time), and
// ten thousand streams created and destroyed.
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "common.h"

namespace {

using bench::check;

constexpr int kTasks = 1'000'000;
constexpr int kStreams = 10'000;

struct QueueFigures {
  double rss_per_task = 0;
  double heap_per_task = 0;
  double enqueue_ns = 0;  // per task
  double total_ns = 0;    // enqueue all + run all
};

// The stream is held by a gate kernel while the tasks are queued, so all of them are in the
// queue at once when memory is read.
QueueFigures queue_openacl(void *buf) {
  bench::Stream s;
  check(aclrtMemsetAsync(buf, 4, 0, 4, s.h), "aclrtMemsetAsync");
  check(aclrtSynchronizeStream(s.h), "aclrtSynchronizeStream");
  QueueFigures f;
  bench::Gate gate(s.h);
  bench::trim_heap();
  size_t rss0 = bench::rss_bytes(), heap0 = bench::heap_bytes();
  int64_t t0 = bench::now_ns();
  for (int i = 0; i < kTasks; ++i) check(aclrtMemsetAsync(buf, 4, 0, 4, s.h), "aclrtMemsetAsync");
  int64_t t1 = bench::now_ns();
  f.rss_per_task = static_cast<double>(bench::rss_bytes() - rss0) / kTasks;
  f.heap_per_task = static_cast<double>(bench::heap_bytes() - heap0) / kTasks;
  gate.open();
  check(aclrtSynchronizeStream(s.h), "aclrtSynchronizeStream");
  f.total_ns = static_cast<double>(bench::now_ns() - t0);
  f.enqueue_ns = static_cast<double>(t1 - t0) / kTasks;
  return f;
}

QueueFigures queue_plain(void *buf) {
  QueueFigures f;
  bench::PlainQueue q;
  q.hold(true);
  bench::trim_heap();
  size_t rss0 = bench::rss_bytes(), heap0 = bench::heap_bytes();
  int64_t t0 = bench::now_ns();
  for (int i = 0; i < kTasks; ++i) q.push(buf, 0, 4);
  int64_t t1 = bench::now_ns();
  f.rss_per_task = static_cast<double>(bench::rss_bytes() - rss0) / kTasks;
  f.heap_per_task = static_cast<double>(bench::heap_bytes() - heap0) / kTasks;
  q.hold(false);
  q.drain();
  f.total_ns = static_cast<double>(bench::now_ns() - t0);
  f.enqueue_ns = static_cast<double>(t1 - t0) / kTasks;
  return f;
}

// One million 4-byte aclrtMemsetAsync queued behind a gate, then one sync. Reported twice: with
// memory per task as the headline (goal <= 256 B) and with the total time.
void BM_Queue1M(benchmark::State &state, bool memory_headline) {
  bench::Buffer buf(bench::Memory::device, 4);
  QueueFigures acl, plain;
  for (auto _ : state) {
    state.PauseTiming();
    plain = queue_plain(buf.p);
    state.ResumeTiming();
    acl = queue_openacl(buf.p);
    state.SetIterationTime(acl.total_ns * 1e-9);
  }
  state.counters["bytes_per_task"] = acl.rss_per_task;
  state.counters["heap_bytes_per_task"] = acl.heap_per_task;
  state.counters["enqueue_ns_per_task"] = acl.enqueue_ns;
  state.counters["baseline_bytes_per_task"] = plain.rss_per_task;
  state.counters["baseline_enqueue_ns_per_task"] = plain.enqueue_ns;
  state.counters["baseline_ns"] = plain.total_ns;
  if (memory_headline) {
    state.SetLabel("goal: bytes_per_task<=256B; baseline: 1M " +
                   std::to_string(bench::PlainQueue::task_bytes()) +
                   "-byte task nodes in a plain queue; bytes: RSS delta (/proc/self/statm) / 1e6");
  } else {
    state.SetLabel("baseline: 1M tasks queued on a held plain queue, then drained");
  }
}

// A plain handle registry, the floor of what aclrtCreateStream/aclrtDestroyStream must do: a
// shared object with a lock and a condition variable, registered in and removed from a map.
struct PlainStream {
  std::mutex mu;
  std::condition_variable cv;
  void *head = nullptr;
  void *tail = nullptr;
  uint64_t submitted = 0;
};

double plain_streams_ns() {
  std::shared_mutex mu;
  std::unordered_map<const void *, std::shared_ptr<PlainStream>> registry;
  std::vector<void *> handles;
  handles.reserve(kStreams);
  int64_t t0 = bench::now_ns();
  for (int i = 0; i < kStreams; ++i) {
    auto s = std::make_shared<PlainStream>();
    std::unique_lock lock(mu);
    handles.push_back(s.get());
    registry.emplace(s.get(), std::move(s));
  }
  for (void *h : handles) {
    std::unique_lock lock(mu);
    registry.erase(h);
  }
  return static_cast<double>(bench::now_ns() - t0);
}

void BM_Streams10k(benchmark::State &state) {
  std::vector<aclrtStream> streams(kStreams);
  double create_ns = 0, destroy_ns = 0, baseline = 0;
  for (auto _ : state) {
    state.PauseTiming();
    baseline = plain_streams_ns();
    state.ResumeTiming();
    int64_t t0 = bench::now_ns();
    for (auto &s : streams) check(aclrtCreateStream(&s), "aclrtCreateStream");
    int64_t t1 = bench::now_ns();
    for (auto s : streams) check(aclrtDestroyStream(s), "aclrtDestroyStream");
    int64_t t2 = bench::now_ns();
    create_ns = static_cast<double>(t1 - t0) / kStreams;
    destroy_ns = static_cast<double>(t2 - t1) / kStreams;
    state.SetIterationTime(static_cast<double>(t2 - t0) * 1e-9);
  }
  state.counters["create_ns_per_stream"] = create_ns;
  state.counters["destroy_ns_per_stream"] = destroy_ns;
  state.counters["baseline_ns"] = baseline;
  state.SetLabel("baseline: 10k shared objects (lock + condvar) added to and removed from a map");
}

BENCHMARK_CAPTURE(BM_Queue1M, memory, true)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Queue1M, time, false)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Streams10k)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
