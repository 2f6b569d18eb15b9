// Stream capture (aclmdlRICaptureBegin/End, aclmdlRIExecute[Async]): the tasks submitted to
// a captured stream (and to streams that join it through events) do not run; each launch of
// the captured model run instance runs them, in order, on the launch's stream and the
// instance's own streams. Capture modes keep unsafe synchronous calls out of a capture.
#include <fstream>
#include <sstream>
#include <thread>

#include "core/fixture.h"

namespace {

using oat::RuntimeTest;

class CaptureTest : public RuntimeTest {
 protected:
  aclmdlRI capture(aclrtStream s, const std::function<void()> &work,
                   aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) {
    EXPECT_ACL_OK(aclmdlRICaptureBegin(s, mode));
    work();
    aclmdlRI ri = nullptr;
    EXPECT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
    return ri;
  }
};

using Capture_Run = CaptureTest;

TEST_F(Capture_Run, CapturedTasksRunAtEachLaunchInOrder) {
  aclrtStream s = new_stream();
  int32_t log[16] = {}, count = 0;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int32_t v = 1; v <= 3; ++v) ASSERT_ACL_OK(append(log, &count, 16, v, s));
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI during = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, &during));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(during, nullptr);
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_EQ(ri, during);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(oat::load(count), 0);  // captured, not run
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, &during));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);

  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), 6);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(log[i], i % 3 + 1);
  // aclmdlRIExecute runs it on the captured stream and waits.
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  EXPECT_EQ(oat::load(count), 9);
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIExecuteAsync(ri, s));
}

TEST_F(Capture_Run, ALaunchReadsTheBuffersAsTheyAreThen) {
  aclrtStream s = new_stream(), other = new_stream();
  constexpr uint64_t n = 256;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  for (float **p : {&a, &b, &c})
    ASSERT_ACL_OK(
        aclrtMalloc(reinterpret_cast<void **>(p), n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host(n, 1.0f), out(n);
  ASSERT_ACL_OK(
      aclrtMemcpy(b, n * sizeof(float), host.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  float *staging = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(reinterpret_cast<void **>(&staging), n * sizeof(float)));
  aclmdlRI ri = capture(s, [&] {
    ASSERT_ACL_OK(aclrtMemcpyAsync(a, n * sizeof(float), staging, n * sizeof(float),
                                   ACL_MEMCPY_HOST_TO_DEVICE, s));
    OatVadd args{a, b, c, n};
    ASSERT_ACL_OK(kernels_.launch("oat_vadd", args, s, 4));
  });
  for (float base : {10.0f, 20.0f}) {
    for (uint64_t i = 0; i < n; ++i) staging[i] = base + static_cast<float>(i);
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, other));  // any stream of the context
    ASSERT_ACL_OK(aclrtSynchronizeStream(other));
    ASSERT_ACL_OK(aclrtMemcpy(out.data(), n * sizeof(float), c, n * sizeof(float),
                              ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < n; i += 37)
      EXPECT_EQ(out[i], base + static_cast<float>(i) + 1.0f) << i;
  }
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  for (float *p : {a, b, c}) EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_OK(aclrtFreeHost(staging));
}

TEST_F(Capture_Run, CapturedEventRecordsHappenAtEachLaunch) {
  aclrtStream s = new_stream();
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&start));
  ASSERT_ACL_OK(aclrtCreateEvent(&end));
  OatSpin spin{2000};
  aclmdlRI ri = capture(s, [&] {
    ASSERT_ACL_OK(aclrtRecordEvent(start, s));
    ASSERT_ACL_OK(kernels_.launch("oat_spin", spin, s));
    ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  });
  float ms = 0;
  // Not recorded yet: capturing made no record.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, start, end));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 1.9f);
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(Capture_Run, AFailureInALaunchFailsTheLaunchStream) {  // R20
  aclrtStream s = new_stream(), run = new_stream();
  int32_t m = 0;
  aclmdlRI ri = capture(s, [&] {
    OatFail f{0, nullptr};
    ASSERT_ACL_OK(kernels_.launch("oat_fail", f, s));
    ASSERT_ACL_OK(mark(&m, 1, s));
  });
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, run));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(run));
  EXPECT_EQ(oat::load(m), 0);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));  // the captured stream ran nothing
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(Capture_Run, NameIdStreamsAndJsonDescription) {
  aclrtStream s = new_stream();
  int32_t m = 0;
  aclmdlRI ri = capture(s, [&] { ASSERT_ACL_OK(mark(&m, 1, s)); });
  ASSERT_ACL_OK(aclmdlRISetName(ri, "step"));
  char name[16] = {};
  ASSERT_ACL_OK(aclmdlRIGetName(ri, sizeof name, name));
  EXPECT_STREQ(name, "step");
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(ri, 4, name));
  uint32_t id1 = 0, id2 = 0;
  ASSERT_ACL_OK(aclmdlRIGetId(ri, &id1));
  aclmdlRI ri2 = capture(s, [&] { ASSERT_ACL_OK(mark(&m, 2, s)); });
  ASSERT_ACL_OK(aclmdlRIGetId(ri2, &id2));
  EXPECT_NE(id1, id2);
  uint32_t num = 0;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, nullptr, &num));
  EXPECT_EQ(num, 1u);
  aclrtStream got = nullptr;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, &got, &num));
  EXPECT_EQ(got, s);
  const std::string path = ::testing::TempDir() + "openacl_ri.json";
  ASSERT_ACL_OK(aclmdlRIDebugJsonPrint(ri, path.c_str(), 0));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"name\": \"step\""), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("oat_store"), std::string::npos) << text.str();
  EXPECT_ACL_OK(aclmdlRIDebugPrint(ri));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri2));
}

TEST_F(Capture_Run, StreamsJoinThroughEventsAndRunConcurrentlyAtEachLaunch) {
  aclrtStream s = new_stream(), side = new_stream();
  aclrtEvent fork = nullptr, join = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&fork));
  ASSERT_ACL_OK(aclrtCreateEvent(&join));
  int32_t flag_main = 0, flag_side = 0, done = 0, log[8] = {}, count = 0;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(append(log, &count, 8, 1, s));
  ASSERT_ACL_OK(aclrtRecordEvent(fork, s));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, fork));  // side joins the capture
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &status, &ri));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  // Both lanes must run at the same time for either rendezvous kernel to finish.
  OatRendezvous a{&flag_main, &flag_side, &done, 5000}, b{&flag_side, &flag_main, &done, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", a, s));
  ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", b, side));
  ASSERT_ACL_OK(aclrtRecordEvent(join, side));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s, join));  // side joins back
  ASSERT_ACL_OK(append(log, &count, 8, 2, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, aclmdlRICaptureEnd(side, &ri));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  aclmdlRI none = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &status, &none));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(side, &none));
  aclrtStream lanes[2] = {};
  uint32_t n = 2;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, lanes, &n));
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(lanes[0], s);
  EXPECT_EQ(lanes[1], side);
  EXPECT_EQ(oat::load(count), 0);

  for (int launch = 1; launch <= 2; ++launch) {
    oat::store(flag_main, 0);
    oat::store(flag_side, 0);
    oat::store(done, 0);
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));  // the join makes s wait for the other lane
    EXPECT_EQ(oat::load(done), 2) << "launch " << launch;
    ASSERT_EQ(oat::load(count), 2 * launch);
    EXPECT_EQ(log[2 * launch - 2], 1);
    EXPECT_EQ(log[2 * launch - 1], 2);
  }
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
}

using Capture_Errors = CaptureTest;

TEST_F(Capture_Errors, MisuseIsRefusedWithTheCaptureCodes) {
  aclrtStream s = new_stream();
  aclmdlRI ri = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                   aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclmdlRICaptureBegin(s, static_cast<aclmdlRICaptureMode>(7)));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED,
                   aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURED, aclrtDestroyStream(s));
  aclmdlRICaptureStatus status;
  aclmdlRI during = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, &during));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIExecuteAsync(during, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIDestroy(during));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureEnd(s, nullptr));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(nullptr, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE,
                   aclmdlRIExecuteAsync(reinterpret_cast<aclmdlRI>(0x10), s));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIDestroy(ri));
}

TEST_F(Capture_Errors, AJoinedStreamMustBeJoinedBack) {
  aclrtStream s = new_stream(), side = new_stream();
  aclrtEvent fork = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&fork));
  int32_t m = 0;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(aclrtRecordEvent(fork, s));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side, fork));
  ASSERT_ACL_OK(mark(&m, 1, side));
  aclmdlRI ri = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(s, &ri));
  EXPECT_EQ(ri, nullptr);
  // The capture is over for both streams all the same.
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(side, &status, &ri));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_ACL_OK(aclrtSynchronizeStream(side));
  EXPECT_EQ(oat::load(m), 0);
}

TEST_F(Capture_Errors, AStreamOfOneCaptureCannotWaitOnAnotherCapturesEvent) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  EXPECT_ACL_ERROR(ACL_ERROR_STREAM_CAPTURE_CONFLICT, aclrtStreamWaitEvent(s2, e));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, aclrtStreamWaitEvent(nullptr, e));
  aclmdlRI r1 = nullptr, r2 = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &r1));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s2, &r2));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, e));  // after the capture: an ordinary wait
  ASSERT_ACL_OK(aclmdlRIDestroy(r1));
  ASSERT_ACL_OK(aclmdlRIDestroy(r2));
}

// Each launch waits for the event's latest record outside the capture (CANN's ACL Graph
// sample: a stream records, the graph waits with ACL_EVENT_WAIT_EXTERNAL).
TEST_F(Capture_Run, AnExternalWaitWaitsAtEachLaunchForTheRecordMadeOutside) {
  aclrtStream s = new_stream(), producer = new_stream(), run = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
  int32_t log[4] = {}, count = 0;
  aclmdlRI ri = capture(s, [&] {
    ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(s, e, 0, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_ACL_OK(append(log, &count, 4, 2, s));
  });
  for (int launch = 0; launch < 2; ++launch) {
    oat::Gate &g = block(producer);
    ASSERT_ACL_OK(append(log, &count, 4, 1, producer));
    ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, run));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(run, 30));
    g.open();
    ASSERT_ACL_OK(aclrtSynchronizeStream(run));
  }
  ASSERT_EQ(oat::load(count), 4);
  EXPECT_EQ(log[0] * 1000 + log[1] * 100 + log[2] * 10 + log[3], 1212);
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  ASSERT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(Capture_Errors, AnExternalWaitTakesASyncExEventRecordedOutsideWithoutTimeout) {
  aclrtStream s = new_stream();
  aclrtEvent plain = nullptr, timeline = nullptr, ex = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&plain));
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&timeline, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  const uint32_t kExternal = ACL_EVENT_WAIT_EXTERNAL;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s, plain, 0, kExternal));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEventWithFlag(s, timeline, 0, kExternal));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s, ex, 5, kExternal));
  ASSERT_ACL_OK(aclrtRecordEvent(ex, s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s, ex, 0, kExternal));
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  for (aclrtEvent e : {plain, timeline, ex}) ASSERT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(Capture_Errors, FinalizeReleasesAnUnfinishedCapture) {
  aclrtStream s = new_stream();
  int32_t m = 0;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(mark(&m, 1, s));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMemset(d, 64, 0, 64));  // no capture is active any more
  EXPECT_EQ(oat::load(m), 0);
  EXPECT_ACL_OK(aclrtFree(d));
}

using Capture_Modes = CaptureTest;

TEST_F(Capture_Modes, GlobalCaptureForbidsUnsafeCallsOnEveryThreadUnlessRelaxed) {
  aclrtStream s = new_stream();
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  char host[64] = {};
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                   aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_NE(
      oat::recent_msg().find("aclrtMemcpy is not allowed while a stream capture in GLOBAL mode"),
      std::string::npos)
      << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemset(d, 64, 0, 64));
  // A pageable async copy is unsafe too; a device-side one is captured.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                   aclrtMemcpyAsync(d, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_OK(aclrtMemsetAsync(d, 64, 0, 64, s));
  std::thread other([&] {
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(d, 64, 0, 64), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);  // the previous mode comes back
    EXPECT_EQ(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  other.join();
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_OK(aclrtMemset(d, 64, 0, 64));  // no capture left
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Capture_Modes, ThreadLocalCaptureForbidsOnlyTheCapturingThread) {
  aclrtStream s = new_stream();
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemset(d, 64, 0, 64));
  aclmdlRI ri = nullptr;
  std::thread other([&] {
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS);
    // ...and only the capturing thread may end it.
    EXPECT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  other.join();
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_ACL_OK(aclrtFree(d));
}

}  // namespace
