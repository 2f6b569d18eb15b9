// R19 (no crash on bad input, error codes, recent error message) and R20 (a failed task marks
// its stream failed, skips later tasks, propagates through events, stays in its context).
#include <unistd.h>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::Kernels;
using oat::RuntimeTest;

using R19_NullOutPointers = RuntimeTest;

TEST_F(R19_NullOutPointers, FailWithInvalidParamAndNameTheCall) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(nullptr, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, nullptr, nullptr));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(e, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(nullptr, e, e));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtBinaryGetFunction(kernels_.binary(), "oat_store", nullptr));
}

using R19_MessageContent = RuntimeTest;

TEST_F(R19_MessageContent, NamesTheArgumentAndWhatWasWrong) {
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> h(128);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 128, h.data(), 128, ACL_MEMCPY_HOST_TO_DEVICE));
  std::string msg = oat::recent_msg();
  EXPECT_NE(msg.find("dst"), std::string::npos) << "should name the argument: " << msg;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(12));
  msg = oat::recent_msg();
  EXPECT_NE(msg.find("12"), std::string::npos) << "should show the bad value: " << msg;
}

using R19_DeadHandles = RuntimeTest;

TEST_F(R19_DeadHandles, EveryStreamCallSurvivesGarbageHandles) {
  // Values that a careless runtime would dereference: all must give an error, never a crash.
  const uintptr_t garbage[] = {0x1, 0x10, 0xdeadbeef0, ~uintptr_t{0} - 7};
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  for (uintptr_t g : garbage) {
    auto s = reinterpret_cast<aclrtStream>(g);
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
    EXPECT_ACL_FAILS(aclrtDestroyStream(s));
    EXPECT_ACL_FAILS(aclrtMemsetAsync(d, 64, 0, 64, s));
    EXPECT_ACL_FAILS(aclrtRecordEvent(e, s));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(s, e));
    EXPECT_ACL_FAILS(aclrtSubscribeReport(1, s));
    auto ev = reinterpret_cast<aclrtEvent>(g);
    EXPECT_ACL_FAILS(aclrtSynchronizeEvent(ev));
    EXPECT_ACL_FAILS(aclrtDestroyEvent(ev));
    auto c = reinterpret_cast<aclrtContext>(g);
    EXPECT_ACL_FAILS(aclrtSetCurrentContext(c));
    EXPECT_ACL_FAILS(aclrtDestroyContext(c));
    auto f = reinterpret_cast<aclrtFuncHandle>(g);
    int32_t m = 0;
    OatStore a{&m, 1};
    EXPECT_ACL_FAILS(aclrtLaunchKernel(f, 1, &a, sizeof(a), nullptr));
    EXPECT_ACL_FAILS(aclrtBinaryUnLoad(reinterpret_cast<aclrtBinHandle>(g)));
  }
  // The runtime still works.
  EXPECT_ACL_OK(aclrtMemsetAsync(d, 64, 1, 64, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(R19_DeadHandles, DestroyedHandlesAreNotReusedByNewObjects) {
  // A destroyed handle must keep failing; if a new object took over its value, calls through
  // the stale handle would silently reach the new object.
  std::vector<aclrtStream> dead_streams;
  std::vector<aclrtEvent> dead_events;
  std::vector<aclrtContext> dead_contexts;
  aclrtContext home = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&home));
  for (int i = 0; i < 50; ++i) {
    aclrtStream s = nullptr;
    aclrtEvent e = nullptr;
    aclrtContext c = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    ASSERT_ACL_OK(aclrtCreateEvent(&e));
    ASSERT_ACL_OK(aclrtDestroyStream(s));
    ASSERT_ACL_OK(aclrtDestroyEvent(e));
    dead_streams.push_back(s);
    dead_events.push_back(e);
    ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
    ASSERT_ACL_OK(aclrtDestroyContext(c));
    dead_contexts.push_back(c);
    ASSERT_ACL_OK(aclrtSetCurrentContext(home));
  }
  // New objects of each kind, then every stale handle must still fail.
  std::vector<aclrtStream> live;
  for (int i = 0; i < 50; ++i) {
    aclrtStream s = nullptr;
    aclrtEvent e = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    ASSERT_ACL_OK(aclrtCreateEvent(&e));
    live.push_back(s);
  }
  aclrtContext fresh = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&fresh, 0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(home));
  int reused = 0;
  for (auto s : dead_streams) reused += aclrtSynchronizeStream(s) == ACL_SUCCESS;
  EXPECT_EQ(reused, 0) << "destroyed stream handles reached live streams";
  reused = 0;
  for (auto e : dead_events) reused += aclrtSynchronizeEvent(e) == ACL_SUCCESS;
  EXPECT_EQ(reused, 0) << "destroyed event handles reached live events";
  reused = 0;
  for (auto c : dead_contexts) reused += aclrtSetCurrentContext(c) == ACL_SUCCESS;
  EXPECT_EQ(reused, 0) << "destroyed context handles reached live contexts";
}

TEST_F(R19_DeadHandles, DestroyWhileOtherThreadsUseTheHandles) {
  // Threads keep submitting to and synchronizing streams that the main thread destroys:
  // every call either works or fails cleanly, nothing crashes.
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  // One buffer per user thread and stream: a sync that fails because the stream is being
  // destroyed does not wait for the memset, so a thread's next memset (on another stream) must
  // not touch the same bytes.
  constexpr int n = 8;
  void *bufs[3][n] = {};
  for (auto &row : bufs)
    for (auto &b : row) ASSERT_ACL_OK(aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<aclrtStream> streams(n);
  for (auto &s : streams) ASSERT_ACL_OK(aclrtCreateStream(&s));
  std::atomic<bool> stop{false};
  std::atomic<int> odd{0};
  std::vector<std::thread> users;
  for (int t = 0; t < 3; ++t)
    users.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) odd.fetch_add(1);
      for (int i = 0; !stop.load(); ++i) {
        const int j = (i + t) % n;
        aclrtStream s = streams[j];
        aclError e1 = aclrtMemsetAsync(bufs[t][j], 4096, i & 0xff, 4096, s);
        aclError e2 = aclrtSynchronizeStream(s);
        if (e1 != ACL_SUCCESS && oat::recent_msg().empty()) odd.fetch_add(1);
        if (e2 != ACL_SUCCESS && oat::recent_msg().empty()) odd.fetch_add(1);
      }
    });
  for (auto s : streams) {
    int32_t m = 0;
    ASSERT_ACL_OK(mark(&m, 1, s));
    EXPECT_ACL_OK(aclrtDestroyStream(s));
    EXPECT_EQ(oat::load(m), 1);
  }
  stop.store(true);
  for (auto &t : users) t.join();
  EXPECT_EQ(odd.load(), 0) << "failed calls without a recent error message";
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

// R20: failures on the device.
class R20_Failure : public RuntimeTest {
 protected:
  aclError fail(aclrtStream s, int32_t *ran = nullptr, uint32_t blocks = 1,
                uint32_t fail_block = 0) {
    OatFail a{fail_block, ran};
    return kernels_.launch("oat_fail", a, s, blocks);
  }
};

TEST_F(R20_Failure, FailedKernelMarksTheStreamFailed) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(fail(s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_NE(oat::recent_msg().find("deliberate failure"), std::string::npos)
      << "the kernel's message should reach aclGetRecentErrMsg: " << oat::recent_msg();
  // Every later synchronization reports it too.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStreamWithTimeout(s, 1000));
}

TEST_F(R20_Failure, LaterTasksAreSkipped) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(d, 64, 0, 64));
  int32_t before = 0, after = 0;
  ASSERT_ACL_OK(mark(&before, 1, s));
  ASSERT_ACL_OK(fail(s));
  ASSERT_ACL_OK(mark(&after, 1, s));
  ASSERT_ACL_OK(aclrtMemsetAsync(d, 64, 0x55, 64, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(before), 1);
  EXPECT_EQ(oat::load(after), 0);
  // Tasks submitted after the failure was seen are skipped as well.
  ASSERT_ACL_OK(mark(&after, 2, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(after), 0);
  uint8_t h[64];
  ASSERT_ACL_OK(aclrtMemcpy(h, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(h[0], 0);
}

TEST_F(R20_Failure, OtherBlocksOfTheFailedLaunchStillRun) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  int32_t ran = 0;
  ASSERT_ACL_OK(fail(s, &ran, 8, 3));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(ran), 7);
}

TEST_F(R20_Failure, PropagatesThroughEventsToWaitingStreams) {
  aclrtStream s1 = nullptr, s2 = nullptr, s3 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ASSERT_ACL_OK(aclrtCreateStream(&s3));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  Gate &g = block(s1);
  ASSERT_ACL_OK(fail(s1));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m2 = 0, m3 = 0;
  ASSERT_ACL_OK(mark(&m2, 1, s2));
  ASSERT_ACL_OK(mark(&m3, 1, s3));  // s3 does not wait: unaffected
  g.open();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m2), 0);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeEvent(e));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s3));
  EXPECT_EQ(oat::load(m3), 1);
  // The failure is carried on: s2 is now failed as well.
  ASSERT_ACL_OK(mark(&m2, 2, s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m2), 0);
}

TEST_F(R20_Failure, AWaitForARecordThatFailedAlreadyFailsAStreamAtRest) {
  // The record has completed, carrying s1's failure, before s2 (at rest) waits for it: the
  // wait must not be taken for one with nothing left to wait for.
  aclrtStream s1 = nullptr, s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(fail(s1));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeEvent(e));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m2 = 0;
  ASSERT_ACL_OK(mark(&m2, 1, s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m2), 0);
}

TEST_F(R20_Failure, EventRecordedBeforeTheFailureIsClean) {
  aclrtStream s1 = nullptr, s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(fail(s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s1));
}

// Exception callbacks: what the failing task was, told before any synchronization reports it.
struct SeenException {
  std::atomic<int> calls{0};
  uint32_t task = 0, stream = 0, thread = 0, device = 0, code = 0, args_len = 0;
  aclrtFuncHandle func = nullptr;
};
SeenException seen;
std::atomic<int> second_calls{0};

void record_exception(aclrtExceptionInfo *info) {
  seen.task = aclrtGetTaskIdFromExceptionInfo(info);
  seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
  seen.thread = aclrtGetThreadIdFromExceptionInfo(info);
  seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
  seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
  void *args = nullptr;
  if (aclrtGetArgsFromExceptionInfo(info, &args, &seen.args_len) != ACL_SUCCESS) seen.args_len = 0;
  if (aclrtGetFuncHandleFromExceptionInfo(info, &seen.func) != ACL_SUCCESS) seen.func = nullptr;
  seen.calls.fetch_add(1);
}
void count_exception(aclrtExceptionInfo *) { second_calls.fetch_add(1); }

TEST_F(R20_Failure, ExceptionCallbacksDescribeTheFailedTaskBeforeTheSyncReturns) {
  seen.calls = 0;
  second_calls = 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(record_exception));
#pragma GCC diagnostic pop
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(count_exception));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackRegister(count_exception));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  ASSERT_ACL_OK(fail(s));
  ASSERT_ACL_OK(fail(s));  // skipped: not an exception of its own
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_EQ(seen.calls.load(), 1);
  EXPECT_EQ(second_calls.load(), 1);
  EXPECT_EQ(seen.task, 2u);  // the second task of the stream
  int32_t sid = 0;
  ASSERT_ACL_OK(aclrtStreamGetId(s, &sid));
  EXPECT_EQ(seen.stream, static_cast<uint32_t>(sid));
  EXPECT_EQ(seen.thread, static_cast<uint32_t>(gettid()));
  EXPECT_EQ(seen.device, 0u);
  EXPECT_EQ(seen.code, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION));
  EXPECT_EQ(seen.args_len, sizeof(OatFail));
  EXPECT_EQ(seen.func, kernels_["oat_fail"]);

  // Unregistered and cleared: no more calls.
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(count_exception));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(count_exception));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
#pragma GCC diagnostic pop
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ASSERT_ACL_OK(fail(s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s2));
  EXPECT_EQ(seen.calls.load(), 1);
  EXPECT_EQ(second_calls.load(), 1);
}

TEST_F(R20_Failure, ExceptionInfoGettersRejectNull) {
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_NE(oat::recent_msg().find("aclrtGetTaskIdFromExceptionInfo"), std::string::npos);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  void *args = nullptr;
  uint32_t len = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetArgsFromExceptionInfo(nullptr, &args, &len));
  aclrtFuncHandle f = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetFuncHandleFromExceptionInfo(nullptr, &f));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackRegister(nullptr));
}

// Op execution time limits: a kernel that runs past aclrtSetOpExecuteTimeOut fails its stream.
TEST_F(R20_Failure, AKernelPastTheOpExecuteTimeoutFailsItsStream) {
  uint32_t ms = 0;
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 1091000u);  // the default, as on Atlas A2
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutWithMs(20));
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 20u);
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  int32_t after = 0;
  OatSpin quick{1000}, slow{100000};  // 1 ms, 100 ms
  ASSERT_ACL_OK(kernels_.launch("oat_spin", quick, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(kernels_.launch("oat_spin", slow, s));
  ASSERT_ACL_OK(mark(&after, 1, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_TIMEOUT, aclrtSynchronizeStream(s));
  EXPECT_NE(oat::recent_msg().find("op execute timeout"), std::string::npos) << oat::recent_msg();
  EXPECT_EQ(oat::load(after), 0);
  // 0 asks for the largest limit; V2 says what it set, in microseconds.
  uint64_t actual = 0;
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(0, &actual));
  EXPECT_EQ(actual, 1091000000u);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOutV2(5000000000ull, &actual));
  EXPECT_EQ(actual, 1091000000u);
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(2));
  ASSERT_ACL_OK(aclrtGetOpExecuteTimeout(&ms));
  EXPECT_EQ(ms, 2000u);
  uint64_t interval = 0;
  ASSERT_ACL_OK(aclrtGetOpTimeOutInterval(&interval));
  EXPECT_GT(interval, 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOutV2(1, nullptr));
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  ASSERT_ACL_OK(kernels_.launch("oat_spin", slow, s2));  // 100 ms is within 2 s
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  ASSERT_ACL_OK(aclrtSetOpExecuteTimeOut(0));
}

TEST_F(R20_Failure, OtherContextsAreNotAffected) {
  aclrtContext dflt = nullptr, other = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&dflt));
  aclrtStream bad = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&bad));
  ASSERT_ACL_OK(fail(bad));
  ASSERT_ACL_OK(fail(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(bad));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(nullptr));

  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));  // same device, another context
  Kernels k;
  ASSERT_ACL_OK(k.load());
  aclrtStream good = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&good));
  int32_t m = 0, md = 0;
  OatStore a{&m, 1}, b{&md, 1};
  ASSERT_ACL_OK(k.launch("oat_store", a, good));
  ASSERT_ACL_OK(k.launch("oat_store", b, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(good));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_EQ(oat::load(md), 1);
  // Back in the failed context, device synchronization reports its failure.
  ASSERT_ACL_OK(aclrtSetCurrentContext(dflt));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeDevice());
}

TEST_F(R20_Failure, OtherStreamsOfTheContextKeepWorking) {
  aclrtStream bad = nullptr, good = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&bad));
  ASSERT_ACL_OK(aclrtCreateStream(&good));
  ASSERT_ACL_OK(fail(bad));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(bad));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, good));
  EXPECT_ACL_OK(aclrtSynchronizeStream(good));
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(R20_Failure, DestroyingTheFailedStreamEndsIt) {
  aclrtStream bad = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&bad));
  ASSERT_ACL_OK(fail(bad));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(bad));
  aclError destroyed = aclrtDestroyStream(bad);
  EXPECT_TRUE(destroyed == ACL_SUCCESS || destroyed == ACL_ERROR_RT_AICORE_EXCEPTION) << destroyed;
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(bad));
  aclrtStream fresh = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&fresh));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, fresh));
  EXPECT_ACL_OK(aclrtSynchronizeStream(fresh));
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(R20_Failure, GateTimeoutIsReportedNotHung) {
  // The bounded-wait contract of the test kernels themselves: a gate never opened fails its
  // stream after its timeout instead of hanging the suite.
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  Gate &g = block(s, 50);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
  EXPECT_TRUE(g.timed_out());
}

TEST_F(R20_Failure, FinalizeAfterAFailureIsClean) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(fail(s));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_EQ(oat::load(m), 0);
  EXPECT_ACL_OK(aclInit(nullptr));
}

}  // namespace

// R19: the thread's last error code, as aclrtGetLastError / aclrtPeekAtLastError report it.
using R19_LastError = RuntimeTest;

TEST_F(R19_LastError, PeekKeepsGetClearsTheCode) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  int bad_level = 7;
  EXPECT_EQ(aclrtGetLastError(static_cast<aclrtLastErrLevel>(bad_level)), ACL_ERROR_INVALID_PARAM);
}

TEST_F(R19_LastError, IsPerThread) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
  aclError other = -1;
  std::thread t([&] { other = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL); });
  t.join();
  EXPECT_EQ(other, ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
}
