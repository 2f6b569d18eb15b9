// R8-R12 for streams: the default stream, FIFO order, real overlap of streams, asynchronous
// submission, stream synchronization (with timeout), query, and destroy (plain and force).
#include <atomic>
#include <mutex>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

class StreamTest : public RuntimeTest {
 protected:
  // Opens `g` from another thread once its kernel runs.
  std::thread open_when_started(Gate &g) {
    return std::thread([&g] {
      g.wait_started();
      g.open();
    });
  }
};

using R8_DefaultStream = StreamTest;

TEST_F(R8_DefaultStream, NullIsAnInOrderStream) {
  int32_t log[100] = {}, count = 0;
  for (int i = 0; i < 100; ++i) ASSERT_ACL_OK(append(log, &count, 100, i, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_EQ(oat::load(count), 100);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(log[i], i);
}

TEST_F(R8_DefaultStream, DoesNotWaitForOtherStreams) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  ASSERT_TRUE(g.wait_started());
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, 3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(g.finished());
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(R8_DefaultStream, OtherStreamsDoNotWaitForIt) {
  Gate &g = block(nullptr);
  ASSERT_TRUE(g.wait_started());
  aclrtStream s = new_stream();
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(g.finished());
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(R8_DefaultStream, CannotBeDestroyed) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(R8_DefaultStream, CtxGetCurrentDefaultStreamIsARealHandle) {
  aclrtStream dflt = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&dflt));
  ASSERT_NE(dflt, nullptr);
  // The handle and NULL name the same stream: a gate on one holds the other.
  Gate &g = block(dflt);
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(nullptr, 30));
  EXPECT_EQ(oat::load(m), 0);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(dflt));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetCurrentDefaultStream(nullptr));
}

using R9_Fifo = StreamTest;

TEST_F(R9_Fifo, TasksRunInSubmissionOrder) {
  aclrtStream s = new_stream();
  constexpr int n = 2000;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0;
  for (int i = 0; i < n; ++i) ASSERT_ACL_OK(append(log.data(), &count, n, i, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(log[i], i) << "at position " << i;
}

TEST_F(R9_Fifo, MixedTaskKindsRunInSubmissionOrder) {
  // memset -> kernel reading nothing -> D2D copy -> memset -> D2H copy: only strict FIFO
  // gives the expected bytes.
  aclrtStream s = new_stream();
  void *a = nullptr, *b = nullptr, *host = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMallocHost(&host, 4096));
  for (int round = 0; round < 50; ++round) {
    uint8_t v = static_cast<uint8_t>(round);
    ASSERT_ACL_OK(aclrtMemsetAsync(a, 4096, v, 4096, s));
    ASSERT_ACL_OK(aclrtMemcpyAsync(b, 4096, a, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ASSERT_ACL_OK(aclrtMemsetAsync(a, 4096, 0xff, 4096, s));
    ASSERT_ACL_OK(aclrtMemcpyAsync(host, 4096, b, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    auto *h = static_cast<uint8_t *>(host);
    ASSERT_EQ(h[0], v);
    ASSERT_EQ(h[4095], v);
  }
}

TEST_F(R9_Fifo, EightHostThreadsSubmittingToOneStream) {
  // Submissions are serialized by a host mutex that also hands out sequence numbers, so the
  // submission order is known exactly; the run order must equal it.
  aclrtStream s = new_stream();
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  constexpr int threads = 8, per_thread = 250, n = threads * per_thread;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0, next = 0;
  std::mutex m;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
      for (int i = 0; i < per_thread; ++i) {
        std::lock_guard<std::mutex> lock(m);
        ASSERT_ACL_OK(append(log.data(), &count, n, next, s));
        ++next;
      }
    });
  for (auto &t : pool) t.join();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(log[i], i) << "at position " << i;
}

TEST_F(R9_Fifo, EightHostThreadsRacingKeepEachThreadsOrder) {
  // Unserialized submissions: every task runs exactly once and each thread's own tasks run
  // in the order that thread submitted them.
  aclrtStream s = new_stream();
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  constexpr int threads = 8, per_thread = 500, n = threads * per_thread;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
      for (int i = 0; i < per_thread; ++i)
        ASSERT_ACL_OK(append(log.data(), &count, n, t * per_thread + i, s));
    });
  for (auto &t : pool) t.join();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), n);
  std::vector<int> last(threads, -1);
  std::vector<int> seen(n, 0);
  for (int i = 0; i < n; ++i) {
    int v = log[i];
    ASSERT_GE(v, 0);
    ASSERT_LT(v, n);
    ++seen[v];
    int t = v / per_thread, k = v % per_thread;
    ASSERT_GT(k, last[t]) << "thread " << t << " task " << k << " ran after task " << last[t];
    last[t] = k;
  }
  for (int v = 0; v < n; ++v) ASSERT_EQ(seen[v], 1) << "task " << v;
}

TEST_F(R9_Fifo, ASecondThreadJoiningAStreamFedByOneKeepsBothOrders) {
  // The first thread to submit feeds the stream without its lock; a second one joining midway
  // turns every submission to the locked path. Each thread's tasks keep their order, and the
  // event each records after its tasks completes only once all of them have run.
  aclrtStream s = new_stream();
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  constexpr int per_thread = 3000, n = 2 * per_thread;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0;
  std::atomic<int> first_submitted{0};
  aclrtEvent events[2] = {};
  for (aclrtEvent &e : events) ASSERT_ACL_OK(aclrtCreateEvent(&e));
  auto feed = [&](int t) {
    for (int i = 0; i < per_thread; ++i) {
      ASSERT_ACL_OK(append(log.data(), &count, n, t * per_thread + i, s));
      if (t == 0) first_submitted.store(i + 1, std::memory_order_release);
    }
    ASSERT_ACL_OK(aclrtRecordEvent(events[t], s));
    ASSERT_ACL_OK(aclrtSynchronizeEvent(events[t]));
    EXPECT_GE(oat::load(count), per_thread) << "thread " << t;
  };
  std::thread second([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
    ASSERT_TRUE(oat::wait_for(
        [&] { return first_submitted.load(std::memory_order_acquire) >= per_thread / 4; }));
    feed(1);
  });
  feed(0);
  second.join();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), n);
  int last[2] = {-1, -1};
  for (int i = 0; i < n; ++i) {
    const int v = log[i], t = v / per_thread, k = v % per_thread;
    ASSERT_TRUE(v >= 0 && v < n) << "at position " << i;
    ASSERT_GT(k, last[t]) << "thread " << t << " task " << k << " ran after task " << last[t];
    last[t] = k;
  }
  EXPECT_EQ(last[0], per_thread - 1);
  EXPECT_EQ(last[1], per_thread - 1);
  for (aclrtEvent e : events) ASSERT_ACL_OK(aclrtDestroyEvent(e));
}

using R9_Concurrency = StreamTest;

TEST_F(R9_Concurrency, TwoStreamsReallyOverlap) {
  // Each kernel sets its flag then waits (bounded) for the other's: both finish only if they
  // run at the same time.
  aclrtStream s1 = new_stream(), s2 = new_stream();
  int32_t f1 = 0, f2 = 0, done = 0;
  OatRendezvous a{&f1, &f2, &done, 5000}, b{&f2, &f1, &done, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", a, s1));
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", b, s2));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(done), 2);
}

TEST_F(R9_Concurrency, DefaultStreamOverlapsAnExplicitStream) {
  aclrtStream s = new_stream();
  int32_t f1 = 0, f2 = 0, done = 0;
  OatRendezvous a{&f1, &f2, &done, 5000}, b{&f2, &f1, &done, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", a, nullptr));
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", b, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(done), 2);
}

TEST_F(R9_Concurrency, StreamsOfTwoContextsOverlap) {
  aclrtStream s1 = new_stream();
  aclrtContext other = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));
  aclrtStream s2 = new_stream();
  int32_t f1 = 0, f2 = 0, done = 0;
  OatRendezvous a{&f1, &f2, &done, 5000}, b{&f2, &f1, &done, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", b, s2));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", a, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(done), 2);
}

TEST_F(R9_Concurrency, ABlockedStreamDoesNotStallManyOthers) {
  // A stream held by a gate keeps an AI core busy; other streams still make progress.
  aclrtStream held = new_stream();
  Gate &g = block(held);
  ASSERT_TRUE(g.wait_started());
  constexpr int n = 16;
  std::vector<aclrtStream> streams;
  int32_t marks[n] = {};
  for (int i = 0; i < n; ++i) {
    streams.push_back(new_stream());
    ASSERT_ACL_OK(mark(&marks[i], 1, streams.back()));
  }
  for (int i = 0; i < n; ++i) EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(streams[i], 3000));
  for (int i = 0; i < n; ++i) EXPECT_EQ(oat::load(marks[i]), 1);
  g.open();
}

using R10_Async = StreamTest;

TEST_F(R10_Async, SubmissionsReturnBeforeTheyRun) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  void *dev = nullptr, *pinned = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMallocHost(&pinned, 1024));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  int32_t log[64] = {}, count = 0;
  // Each call returns while the stream is held; if one waited for the device, the gate's
  // bounded wait would expire and the test fail.
  for (int i = 0; i < 64; ++i) ASSERT_ACL_OK(append(log, &count, 64, i, s));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev, 1024, 3, 1024, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(pinned, 1024, dev, 1024, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s, e));
  EXPECT_EQ(oat::load(count), 0);
  aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_FALSE(g.timed_out());
  EXPECT_EQ(oat::load(count), 64);
  EXPECT_EQ(static_cast<uint8_t *>(pinned)[1023], 3);
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
}

using R11_SynchronizeStream = StreamTest;

TEST_F(R11_SynchronizeStream, WaitsForEveryEarlierTask) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  int32_t log[32] = {}, count = 0;
  for (int i = 0; i < 32; ++i) ASSERT_ACL_OK(append(log, &count, 32, i, s));
  std::thread opener = open_when_started(g);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  opener.join();
  EXPECT_EQ(oat::load(count), 32);
}

TEST_F(R11_SynchronizeStream, TimeoutReturnsStreamSyncTimeoutAndLeavesWorkIntact) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  int32_t log[17] = {}, count = 0;
  for (int i = 0; i < 16; ++i) ASSERT_ACL_OK(append(log, &count, 17, i, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 20));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 1));
  EXPECT_EQ(oat::load(count), 0);
  // Work can still be added after a timeout, and runs after the earlier work.
  ASSERT_ACL_OK(append(log, &count, 17, 99, s));
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
  EXPECT_FALSE(g.timed_out());
  ASSERT_EQ(oat::load(count), 17);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(log[i], i);
  EXPECT_EQ(log[16], 99);
}

TEST_F(R11_SynchronizeStream, TimeoutBelowMinusOneIsRejected) {
  aclrtStream s = new_stream();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStreamWithTimeout(s, -2));
}

TEST_F(R11_SynchronizeStream, ManyHostThreadsSynchronizingOneStream) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  std::vector<std::thread> waiters;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i)
    waiters.emplace_back([&] {
      if (aclrtSynchronizeStream(s) == ACL_SUCCESS && oat::load(m) == 1) ok.fetch_add(1);
    });
  ASSERT_TRUE(g.wait_started());
  g.open();
  for (auto &t : waiters) t.join();
  EXPECT_EQ(ok.load(), 6);
}

// The waiter helps: a host thread synchronizing a stream that no worker has started runs its
// tasks itself. Every AI core is held by a gate kernel here, so only the waiting thread can run
// the task it waits for; without that the wait would last until the gates time out.
class WaiterHelps : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    for (int64_t i = 0; i < oat::ai_cores(0); ++i)
      gates_held_.push_back(&block(new_stream(), 20000));
    for (Gate *g : gates_held_) ASSERT_TRUE(g->wait_started());
  }
  // Every gate kernel is still running: no AI core was free while the test waited.
  void expect_cores_still_held() {
    for (Gate *g : gates_held_) EXPECT_FALSE(g->finished() || g->timed_out());
    for (Gate *g : gates_held_) g->open();
  }
  std::vector<Gate *> gates_held_;
};

TEST_F(WaiterHelps, SynchronizeStreamRunsTheStreamInOrder) {
  aclrtStream s = new_stream();
  int32_t log[64] = {}, count = 0;
  for (int i = 0; i < 64; ++i) ASSERT_ACL_OK(append(log, &count, 64, i, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(log[i], i);
  expect_cores_still_held();
}

TEST_F(WaiterHelps, SynchronizeEventRunsTheRecordingStream) {
  aclrtStream s = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  int32_t before = 0, after = 0;
  ASSERT_ACL_OK(mark(&before, 1, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(mark(&after, 1, s));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_EQ(oat::load(before), 1);
  expect_cores_still_held();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(after), 1);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(WaiterHelps, SynchronizingAWaitingStreamRunsTheStreamItWaitsFor) {
  aclrtStream producer = new_stream(), consumer = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  int32_t log[2] = {}, count = 0;
  ASSERT_ACL_OK(append(log, &count, 2, 1, producer));
  ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, e));
  ASSERT_ACL_OK(append(log, &count, 2, 2, consumer));
  EXPECT_ACL_OK(aclrtSynchronizeStream(consumer));
  ASSERT_EQ(oat::load(count), 2);
  EXPECT_EQ(log[0], 1);
  EXPECT_EQ(log[1], 2);
  expect_cores_still_held();
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(WaiterHelps, TimedSynchronizeOnlyWaits) {
  // A task the waiter ran itself could outlast the timeout: a timed wait leaves it to a worker.
  aclrtStream s = new_stream();
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 20));
  EXPECT_EQ(oat::load(m), 0);
  expect_cores_still_held();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
  EXPECT_EQ(oat::load(m), 1);
}

using R12_Stream = StreamTest;

TEST_F(R12_Stream, QueryReportsCompleteWhenIdle) {
  aclrtStream s = new_stream();
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(s, nullptr));
}

TEST_F(R12_Stream, CreateRejectsNull) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamWithConfig(nullptr, 0, 0));
}

TEST_F(R12_Stream, CreateWithConfigMakesAWorkingStream) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 5, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(m), 5);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(R12_Stream, DestroyWaitsForPendingWork) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  int32_t log[16] = {}, count = 0;
  for (int i = 0; i < 16; ++i) ASSERT_ACL_OK(append(log, &count, 16, i, s));
  std::thread opener = open_when_started(g);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  opener.join();
  EXPECT_EQ(oat::load(count), 16);
  EXPECT_FALSE(g.timed_out());
  // The handle is dead.
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  EXPECT_ACL_FAILS(aclrtDestroyStream(s));
}

TEST_F(R12_Stream, DestroyForceDoesNotWaitAndDropsWhatHasNotStarted) {
  aclrtStream s = new_stream();
  Gate &g = block(s);
  ASSERT_TRUE(g.wait_started());
  int32_t log[16] = {}, count = 0;
  for (int i = 0; i < 16; ++i) ASSERT_ACL_OK(append(log, &count, 16, i, s));
  // Returns while the gate is still closed (if it waited, the gate would time out).
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_FALSE(g.finished());
  g.open();
  ASSERT_TRUE(g.wait_finished());
  EXPECT_FALSE(g.timed_out());
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(oat::load(count), 0) << "tasks queued behind the running one must be dropped";
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  // The runtime stays healthy.
  aclrtStream s2 = new_stream();
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(R12_Stream, DestroyedAndMadeUpHandlesAreRejected) {
  aclrtStream s = new_stream();
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream fake = reinterpret_cast<aclrtStream>(uintptr_t{0xdeadbeef0});
  for (aclrtStream bad : {s, fake}) {
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(bad));
    EXPECT_ACL_FAILS(aclrtSynchronizeStreamWithTimeout(bad, 10));
    aclrtStreamStatus st;
    EXPECT_ACL_FAILS(aclrtStreamQuery(bad, &st));
    EXPECT_ACL_FAILS(aclrtMemsetAsync(dev, 64, 0, 64, bad));
    EXPECT_ACL_FAILS(aclrtDestroyStream(bad));
    EXPECT_ACL_FAILS(aclrtDestroyStreamForce(bad));
    int32_t m = 0;
    EXPECT_ACL_FAILS(mark(&m, 1, bad));
  }
}

TEST_F(R12_Stream, ManyStreamsCreatedAndDestroyed) {
  for (int round = 0; round < 3; ++round) {
    std::vector<aclrtStream> v;
    for (int i = 0; i < 300; ++i) v.push_back(new_stream());
    for (auto s : v) ASSERT_ACL_OK(aclrtDestroyStream(s));
  }
}

}  // namespace

namespace {

using StreamConfig = oat::RuntimeTest;

TEST_F(StreamConfig, CreateStreamV2TakesFlagAndPriorityFromTheHandle) {
  aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(h, nullptr);
  const uint32_t priority = 3, flag = ACL_STREAM_FAST_LAUNCH;
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)));
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &priority, 8));
  void *work = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof(work)));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&s, h));
  uint32_t got = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(got, priority);
  ASSERT_ACL_OK(aclrtStreamGetFlags(s, &got));
  EXPECT_EQ(got, flag);
  int32_t m = 0;  // the stream runs work like any other
  ASSERT_ACL_OK(mark(&m, 5, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(m), 5);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(h));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(h));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(&s, nullptr));
}

TEST_F(StreamConfig, AttributesTagPriorityAndFailureMode) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&s, 2, 0));
  aclrtStreamAttrValue v{};
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
  EXPECT_EQ(v.streamPriority, 2u);
  v.streamPriority = 6;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
  uint32_t p = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &p));
  EXPECT_EQ(p, 6u);
  v.userCustomTag = 0xabcd;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
  aclrtStreamAttrValue back{};
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &back));
  EXPECT_EQ(back.userCustomTag, 0xabcdu);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &back));
  EXPECT_EQ(back.failureMode, ACL_STOP_ON_FAILURE);
  v.failureMode = ACL_CONTINUE_ON_FAILURE;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
  v.overflowSwitch = 1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetStreamAttribute(s, static_cast<aclrtStreamAttr>(99), &back));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, nullptr));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE,
                   aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &back));
}

TEST_F(R12_Stream, AbortDropsPendingTasksAndTheStreamGoesOn) {
  aclrtStream s = nullptr, waiter = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  oat::Gate &g = block(s);
  ASSERT_TRUE(g.wait_started());
  int32_t dropped = 0, later = 0;
  ASSERT_ACL_OK(mark(&dropped, 1, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(waiter, e));
  ASSERT_ACL_OK(aclrtStreamAbort(s));
  g.open();  // the running task finishes
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(dropped), 0);
  // The dropped record releases its waiter with the abort.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeStreamWithTimeout(waiter, 5000));
  ASSERT_ACL_OK(mark(&later, 1, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(later), 1);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamAbort(nullptr));
}

}  // namespace

namespace {

using Resources = RuntimeTest;

TEST_F(Resources, StreamsRunOutAtTheAtlasA2LimitAndComeBack) {
  uint32_t avail = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail));
  EXPECT_EQ(avail, 1984u - 1u) << "the default stream of device 0 is in use";
  std::vector<aclrtStream> streams(avail);
  for (auto &s : streams) ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail));
  EXPECT_EQ(avail, 0u);
  aclrtStream extra = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_STREAM_RESOURCE, aclrtCreateStream(&extra));
  EXPECT_NE(oat::recent_msg().find("1984 streams"), std::string::npos) << oat::recent_msg();
  aclrtContext ctx = nullptr;  // a context brings a default stream: none left for it
  EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_STREAM_RESOURCE, aclrtCreateContext(&ctx, 0));
  // The limit is per device: device 1 has its own streams.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail));
  EXPECT_EQ(avail, 1984u - 1u);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtResetDevice(1));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtDestroyStream(streams.back()));
  streams.pop_back();
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&avail));
  EXPECT_EQ(avail, 1u);
  ASSERT_ACL_OK(aclrtCreateStream(&extra));
  streams.push_back(extra);
  for (auto s : streams) ASSERT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAvailableNum(nullptr));
}

}  // namespace
