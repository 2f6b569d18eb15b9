// R15: host callbacks through aclrtSubscribeReport / aclrtLaunchCallback /
// aclrtProcessReport / aclrtUnSubscribeReport.
#include <mutex>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::ReportThread;
using oat::RuntimeTest;

struct Log {
  std::mutex m;
  std::vector<int> order;
  std::vector<uint64_t> threads;
  void add(int v) {
    std::lock_guard<std::mutex> lock(m);
    order.push_back(v);
    threads.push_back(static_cast<uint64_t>(pthread_self()));
  }
};

struct Entry {
  Log *log;
  int value;
};

void log_callback(void *data) {
  auto *e = static_cast<Entry *>(data);
  e->log->add(e->value);
}

// A callback that holds until the test opens it (bounded: records a timeout instead of hanging).
struct Hold {
  std::atomic<bool> open{false}, entered{false}, timed_out{false}, left{false};
};

void hold_callback(void *data) {
  auto *h = static_cast<Hold *>(data);
  h->entered.store(true);
  if (!oat::wait_for([h] { return h->open.load(); })) h->timed_out.store(true);
  h->left.store(true);
}

class R15_Callback : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&s_));
  }
  void TearDown() override {
    for (auto *h : holds_) h->open.store(true);
    RuntimeTest::TearDown();
  }
  Hold &make_hold() {
    holds_store_.push_back(std::make_unique<Hold>());
    holds_.push_back(holds_store_.back().get());
    return *holds_.back();
  }
  aclrtStream s_ = nullptr;
  std::vector<Hold *> holds_;
  std::vector<std::unique_ptr<Hold>> holds_store_;
};

TEST_F(R15_Callback, RunsOnTheSubscribedThread) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  Log log;
  Entry e{&log, 1};
  ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &e, ACL_CALLBACK_BLOCK, s_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_EQ(log.order.size(), 1u);
  EXPECT_EQ(log.threads[0], rt.id());
  EXPECT_NE(log.threads[0], static_cast<uint64_t>(pthread_self()));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
  rt.stop();
  EXPECT_EQ(rt.last_error(), ACL_SUCCESS);
}

// The callback twin of the oat_append kernel: appends to the same log.
void append_callback(void *data) {
  auto *a = static_cast<OatAppend *>(data);
  int32_t at = __atomic_fetch_add(a->count, 1, __ATOMIC_ACQ_REL);
  if (at < a->capacity) a->log[at] = a->value;
}

TEST_F(R15_Callback, RunsInStreamOrderWithOtherTasks) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  // Blocking callbacks (even values) interleaved with kernels (odd values), one shared log.
  constexpr int n = 60;
  std::vector<int32_t> log(2 * n, -1);
  int32_t count = 0;
  std::vector<OatAppend> cb(n);
  for (int i = 0; i < n; ++i) {
    cb[i] = OatAppend{log.data(), &count, 2 * n, 2 * i};
    ASSERT_ACL_OK(aclrtLaunchCallback(append_callback, &cb[i], ACL_CALLBACK_BLOCK, s_));
    ASSERT_ACL_OK(append(log.data(), &count, 2 * n, 2 * i + 1, s_));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_EQ(oat::load(count), 2 * n);
  for (int i = 0; i < 2 * n; ++i) ASSERT_EQ(log[i], i) << "at position " << i;
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, NonBlockingCallbacksRunInOrderToo) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  Log log;
  constexpr int n = 40;
  std::vector<Entry> entries;
  entries.reserve(n);
  for (int i = 0; i < n; ++i) {
    entries.push_back({&log, i});
    ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &entries.back(), ACL_CALLBACK_NO_BLOCK, s_));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_TRUE(oat::wait_for([&] {
    std::lock_guard<std::mutex> lock(log.m);
    return log.order.size() == n;
  }));
  for (int i = 0; i < n; ++i) EXPECT_EQ(log.order[i], i);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, BlockingCallbackHoldsTheStream) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  Hold &h = make_hold();
  ASSERT_ACL_OK(aclrtLaunchCallback(hold_callback, &h, ACL_CALLBACK_BLOCK, s_));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s_));
  ASSERT_TRUE(oat::wait_for([&] { return h.entered.load(); }));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s_, 30));
  EXPECT_EQ(oat::load(m), 0);
  h.open.store(true);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(h.timed_out.load());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, NonBlockingCallbackDoesNotHoldTheStream) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  Hold &h = make_hold();
  ASSERT_ACL_OK(aclrtLaunchCallback(hold_callback, &h, ACL_CALLBACK_NO_BLOCK, s_));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s_));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s_));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(h.left.load());
  h.open.store(true);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, BlockingCallbackDoesNotOccupyAnAiCore) {
  // While a blocking callback holds s_, two other streams still run at the same time: a
  // rendezvous needs two AI cores at once.
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  if (cores < 2) GTEST_SKIP() << "needs two AI cores";
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  std::vector<Hold *> hs;
  for (int i = 0; i < static_cast<int>(cores); ++i) {
    hs.push_back(&make_hold());
    ASSERT_ACL_OK(aclrtLaunchCallback(hold_callback, hs.back(), ACL_CALLBACK_BLOCK, s_));
  }
  ASSERT_TRUE(oat::wait_for([&] { return hs[0]->entered.load(); }));
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&a));
  ASSERT_ACL_OK(aclrtCreateStream(&b));
  int32_t f1 = 0, f2 = 0, done = 0;
  OatRendezvous ra{&f1, &f2, &done, 5000}, rb{&f2, &f1, &done, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", ra, a));
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", rb, b));
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ(oat::load(done), 2);
  for (auto *h : hs) h->open.store(true);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, UnsubscribeRejectsAThreadThatIsNotSubscribed) {
  ReportThread rt, other;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  EXPECT_ACL_FAILS(aclrtUnSubscribeReport(other.id(), s_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
  EXPECT_ACL_FAILS(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, OneThreadServesSeveralStreams) {
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s2));
  rt.serve();
  Log log;
  Entry a{&log, 1}, b{&log, 2};
  ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &a, ACL_CALLBACK_BLOCK, s_));
  ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &b, ACL_CALLBACK_BLOCK, s2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
  ASSERT_EQ(log.threads.size(), 2u);
  EXPECT_EQ(log.threads[0], rt.id());
  EXPECT_EQ(log.threads[1], rt.id());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s2));
}

TEST_F(R15_Callback, LaunchOnUnsubscribedStreamFails) {
  Log log;
  Entry e{&log, 1};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NO_CB_REG,
                   aclrtLaunchCallback(log_callback, &e, ACL_CALLBACK_BLOCK, s_));
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  ASSERT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NO_CB_REG,
                   aclrtLaunchCallback(log_callback, &e, ACL_CALLBACK_BLOCK, s_));
  EXPECT_TRUE(log.order.empty());
}

TEST_F(R15_Callback, LaunchRejectsBadArguments) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, s_));
  Log log;
  Entry e{&log, 1};
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtLaunchCallback(log_callback, &e, static_cast<aclrtCallbackBlockType>(7), s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_TRUE(log.order.empty());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, SubscribingTwiceFails) {
  ReportThread rt, rt2;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtSubscribeReport(rt.id(), s_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtSubscribeReport(rt2.id(), s_));
  rt.serve();
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

TEST_F(R15_Callback, ProcessReportRejectsBadTimeouts) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
}

TEST_F(R15_Callback, ProcessReportOnUnsubscribedThreadFails) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
}

// A destroyed stream takes its subscription along: the thread serves nothing any more, and a
// stream made later at the same address is not subscribed to it (that hung the fuzzer's
// synchronizes on callbacks queued to a thread nobody served).
TEST_F(R15_Callback, ADestroyedStreamTakesItsSubscriptionAlong) {
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ASSERT_ACL_OK(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), s2));
  ASSERT_ACL_OK(aclrtDestroyStream(s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
}

TEST_F(R15_Callback, ProcessReportTimesOutWithNothingToReport) {
  // The subscribed thread itself calls aclrtProcessReport; nothing was launched.
  std::atomic<uint64_t> tid{0};
  std::atomic<int> phase{0};
  aclError got = ACL_SUCCESS;
  std::string msg;
  std::thread t([&] {
    tid.store(static_cast<uint64_t>(pthread_self()));
    phase.store(1);
    oat::wait_for([&] { return phase.load() == 2; });
    got = aclrtProcessReport(20);
    msg = oat::recent_msg();
  });
  ASSERT_TRUE(oat::wait_for([&] { return phase.load() == 1; }));
  ASSERT_ACL_OK(aclrtSubscribeReport(tid.load(), s_));
  phase.store(2);
  t.join();
  EXPECT_EQ(got, ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_FALSE(msg.empty());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(tid.load(), s_));
}

TEST_F(R15_Callback, DefaultStreamCanBeSubscribed) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), nullptr));
  rt.serve();
  Log log;
  Entry e{&log, 5};
  ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &e, ACL_CALLBACK_BLOCK, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_EQ(log.order.size(), 1u);
  EXPECT_EQ(log.threads[0], rt.id());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), nullptr));
}

TEST_F(R15_Callback, LaunchReturnsBeforeTheCallbackRuns) {
  ReportThread rt;
  ASSERT_ACL_OK(aclrtSubscribeReport(rt.id(), s_));
  rt.serve();
  Gate &g = block(s_);
  Log log;
  Entry e{&log, 1};
  ASSERT_ACL_OK(aclrtLaunchCallback(log_callback, &e, ACL_CALLBACK_BLOCK, s_));
  {
    std::lock_guard<std::mutex> lock(log.m);
    EXPECT_TRUE(log.order.empty());
  }
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(log.order.size(), 1u);
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rt.id(), s_));
}

}  // namespace

// R1 + R15: aclFinalize waits for outstanding work; a blocking callback whose thread never calls
// aclrtProcessReport must not make it wait forever: it runs at finalize instead.
TEST_F(R15_Callback, FinalizeRunsCallbacksNoThreadProcesses) {
  std::atomic<bool> release{false};
  std::thread idle([&] {
    while (!release.load()) std::this_thread::yield();
  });
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtSubscribeReport(static_cast<uint64_t>(idle.native_handle()), s));
  std::atomic<int> ran{0};
  auto fn = [](void *p) { static_cast<std::atomic<int> *>(p)->fetch_add(1); };
  ASSERT_ACL_OK(aclrtLaunchCallback(fn, &ran, ACL_CALLBACK_BLOCK, s));
  int32_t after = 0;
  ASSERT_ACL_OK(mark(&after, 1, s));
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(oat::load(after), 1);  // the task behind the callback ran too
  release.store(true);
  idle.join();
}

namespace {

void append_host_func(void *data) {
  auto *a = static_cast<OatAppend *>(data);
  int32_t at = __atomic_fetch_add(a->count, 1, __ATOMIC_ACQ_REL);
  if (at < a->capacity) a->log[at] = a->value;
}

void record_thread(void *data) {
  *static_cast<std::atomic<uint64_t> *>(data) = static_cast<uint64_t>(pthread_self());
}

TEST_F(R15_Callback, HostFunctionsRunOnTheirSubscribedThreadInStreamOrder) {
  ReportThread ht(aclrtProcessHostFunc);
  ASSERT_ACL_OK(aclrtSubscribeHostFunc(ht.id(), s_));
  ht.serve();
  constexpr int n = 40;
  std::vector<int32_t> log(2 * n, -1);
  int32_t count = 0;
  std::vector<OatAppend> hf(n);
  for (int i = 0; i < n; ++i) {
    hf[i] = OatAppend{log.data(), &count, 2 * n, 2 * i};
    ASSERT_ACL_OK(aclrtLaunchHostFunc(s_, append_host_func, &hf[i]));
    ASSERT_ACL_OK(append(log.data(), &count, 2 * n, 2 * i + 1, s_));
  }
  std::atomic<uint64_t> ran_on{0};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s_, record_thread, &ran_on));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  ASSERT_EQ(oat::load(count), 2 * n);
  for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(log[i], i) << "position " << i;
  EXPECT_EQ(ran_on.load(), ht.id());
  // The two callback mechanisms do not share a stream.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtSubscribeReport(ht.id(), s_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtProcessHostFunc(0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                   aclrtProcessHostFunc(10));  // this thread serves nothing
  ASSERT_ACL_OK(aclrtUnSubscribeHostFunc(ht.id(), s_));
  // Unsubscribed: host functions run on the device's worker again.
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s_, record_thread, &ran_on));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_NE(ran_on.load(), ht.id());
  EXPECT_NE(ran_on.load(), static_cast<uint64_t>(pthread_self()));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtUnSubscribeHostFunc(ht.id(), s_));
  EXPECT_EQ(ht.last_error(), ACL_SUCCESS);
}

}  // namespace
