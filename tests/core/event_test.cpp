// R11 (event synchronization, stream-wait-event) and R12 (event lifecycle, status, elapsed
// time, non-blocking destroy).
#include <thread>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

class EventTest : public RuntimeTest {
 protected:
  aclrtEvent new_event() {
    aclrtEvent e = nullptr;
    EXPECT_ACL_OK(aclrtCreateEvent(&e));
    return e;
  }
  // A task queued on s2 after `wait(s2, e)` runs only once the record of e on s1 has.
  void expect_later_tasks_wait(const std::function<aclError(aclrtStream, aclrtEvent)> &wait) {
    aclrtStream s1 = new_stream(), s2 = new_stream();
    aclrtEvent e = new_event();
    Gate &g = block(s1);
    ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
    ASSERT_ACL_OK(wait(s2, e));
    int32_t m = 0;
    ASSERT_ACL_OK(mark(&m, 1, s2));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 30));
    EXPECT_EQ(oat::load(m), 0);
    g.open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
    EXPECT_EQ(oat::load(m), 1);
  }
};

using R11_SynchronizeEvent = EventTest;

TEST_F(R11_SynchronizeEvent, NeverRecordedCountsAsComplete) {
  aclrtEvent e = new_event();
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 10));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(R11_SynchronizeEvent, WaitsForTheRecordedWork) {
  aclrtStream s = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s);
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  std::thread opener([&] {
    g.wait_started();
    g.open();
  });
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  opener.join();
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(R11_SynchronizeEvent, WaitsForTheLatestRecord) {
  aclrtStream s = new_stream();
  aclrtEvent e = new_event();
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 20));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, -1));
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(R11_SynchronizeEvent, TimeoutLeavesWorkIntact) {
  aclrtStream s = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s);
  int32_t log[8] = {}, count = 0;
  for (int i = 0; i < 8; ++i) ASSERT_ACL_OK(append(log, &count, 8, i, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 20));
  EXPECT_EQ(oat::load(count), 0);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  ASSERT_EQ(oat::load(count), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(log[i], i);
}

TEST_F(R11_SynchronizeEvent, TimeoutBelowMinusOneIsRejected) {
  aclrtEvent e = new_event();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEventWithTimeout(e, -2));
}

using R11_StreamWaitEvent = EventTest;

TEST_F(R11_StreamWaitEvent, LaterTasksWaitForTheRecord) {
  expect_later_tasks_wait(aclrtStreamWaitEvent);
}

TEST_F(R11_StreamWaitEvent, WithTimeoutFailsTheWaitingStreamWhenTheRecordIsLate) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(s2, e, 1));  // seconds
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  // The limit passes while s1 is held: s2 fails, its later task never runs (R20).
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 5000));
  EXPECT_NE(oat::recent_msg().find("not recorded within 1 s"), std::string::npos)
      << oat::recent_msg();
  EXPECT_EQ(oat::load(m), 0);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s1));  // the recording stream is unaffected
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithTimeout(s2, e, -1));
}

TEST_F(R11_StreamWaitEvent, WithTimeoutWaitsNormallyForARecordInTime) {
  expect_later_tasks_wait(
      [](aclrtStream s, aclrtEvent e) { return aclrtStreamWaitEventWithTimeout(s, e, 30); });
}

TEST_F(R11_StreamWaitEvent, WithFlagDefaultIsAWaitWithTimeout) {
  expect_later_tasks_wait([](aclrtStream s, aclrtEvent e) {
    return aclrtStreamWaitEventWithFlag(s, e, 30, ACL_EVENT_WAIT_DEFAULT);  // seconds
  });
}

TEST_F(R11_StreamWaitEvent, WithFlagRefusesUnknownFlagsAndExternalOutsideACapture) {
  aclrtStream s = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s, e, 0, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                   aclrtStreamWaitEventWithFlag(s, e, 0, ACL_EVENT_WAIT_EXTERNAL));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtStreamWaitEventWithFlag(s, nullptr, 0, ACL_EVENT_WAIT_DEFAULT));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(R11_StreamWaitEvent, OpWaitTimeoutLimitsLaterWaits) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(0));  // no limit for waits enqueued from now on
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s3, e));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 5000));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s3, 30));
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s3));
}

TEST_F(R11_StreamWaitEvent, WaitsForLatestRecordAtCallTime) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtEvent e = new_event();
  Gate &g1 = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  // A newer record after the wait call must not matter to s2.
  Gate &g3 = block(s3);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s3));
  g1.open();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s2, 3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(g3.finished());
  g3.open();
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
}

TEST_F(R11_StreamWaitEvent, WaitOnNeverRecordedEventDoesNotBlock) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = new_event();
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  // Recorded only after the wait call: s2 does not wait for it.
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s2, 3000));
  EXPECT_EQ(oat::load(m), 1);
  g.open();
}

TEST_F(R11_StreamWaitEvent, SeveralStreamsWaitOnOneEvent) {
  aclrtStream src = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(src);
  ASSERT_ACL_OK(aclrtRecordEvent(e, src));
  constexpr int n = 4;
  aclrtStream waiters[n];
  int32_t marks[n] = {};
  for (int i = 0; i < n; ++i) {
    waiters[i] = new_stream();
    ASSERT_ACL_OK(aclrtStreamWaitEvent(waiters[i], e));
    ASSERT_ACL_OK(mark(&marks[i], 1, waiters[i]));
  }
  ASSERT_ACL_OK(aclrtStreamWaitEvent(nullptr, e));  // the default stream too
  int32_t mdef = 0;
  ASSERT_ACL_OK(mark(&mdef, 1, nullptr));
  for (int i = 0; i < n; ++i)
    EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     aclrtSynchronizeStreamWithTimeout(waiters[i], 5));
  g.open();
  for (int i = 0; i < n; ++i) EXPECT_ACL_OK(aclrtSynchronizeStream(waiters[i]));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  for (int i = 0; i < n; ++i) EXPECT_EQ(oat::load(marks[i]), 1);
  EXPECT_EQ(oat::load(mdef), 1);
}

// A record and a wait of one event, racing from two threads on one stream: whichever is queued
// first, the wait never binds to a record queued after it (the stream would wait for itself).
TEST_F(R11_StreamWaitEvent, AWaitRacingARecordOnOneStreamNeverWaitsForALaterRecord) {
  aclrtStream s = new_stream();
  aclrtEvent e = new_event();
  constexpr int kRounds = 3000;
  std::thread recorder([&] {
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    for (int i = 0; i < kRounds; ++i) EXPECT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  for (int i = 0; i < kRounds; ++i) ASSERT_ACL_OK(aclrtStreamWaitEvent(s, e));
  recorder.join();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
}

TEST_F(R11_StreamWaitEvent, AHandOffBetweenStreamsAtRestIsDoneWithinTheCalls) {
  // Nothing is queued or running on either stream: the record completes during its call and
  // the wait for it has nothing to wait for, so no worker is woken for either (the hand-off's
  // latency is that of the calls).
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = new_event();
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  aclrtStreamStatus ss = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtStreamQuery(s2, &ss));
  EXPECT_EQ(ss, ACL_STREAM_STATUS_COMPLETE);
  // A record behind queued work still completes only when its stream reaches it.
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  ASSERT_ACL_OK(aclrtStreamQuery(s2, &ss));
  EXPECT_EQ(ss, ACL_STREAM_STATUS_NOT_READY);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(R11_StreamWaitEvent, WaitingDoesNotOccupyAnAiCore) {
  // Many streams wait on one held event; an unrelated stream must still run (event waits do
  // not block a worker thread while other streams have work).
  aclrtStream src = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(src);
  ASSERT_TRUE(g.wait_started());
  ASSERT_ACL_OK(aclrtRecordEvent(e, src));
  std::vector<aclrtStream> waiting;
  for (int i = 0; i < 32; ++i) {
    waiting.push_back(new_stream());
    ASSERT_ACL_OK(aclrtStreamWaitEvent(waiting.back(), e));
  }
  // Two free streams must still run at the same time (a rendezvous needs two AI cores).
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  aclrtStream a = new_stream(), b = new_stream();
  if (cores >= 3) {
    int32_t f1 = 0, f2 = 0, done = 0;
    OatRendezvous ra{&f1, &f2, &done, 5000}, rb{&f2, &f1, &done, 5000};
    ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", ra, a));
    ASSERT_ACL_OK(kernels_.launch("oat_rendezvous", rb, b));
    EXPECT_ACL_OK(aclrtSynchronizeStream(a));
    EXPECT_ACL_OK(aclrtSynchronizeStream(b));
    EXPECT_EQ(oat::load(done), 2);
  }
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, a));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(a, 3000));
  EXPECT_EQ(oat::load(m), 1);
  g.open();
  for (auto s : waiting) EXPECT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(R11_StreamWaitEvent, RejectsNullEvent) {
  aclrtStream s = new_stream();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(s, nullptr));
}

using R12_Event = EventTest;

TEST_F(R12_Event, CreateRejectsNull) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC));
}

TEST_F(R12_Event, CreateWithFlagsMakesWorkingEvents) {
  for (uint32_t flag :
       {ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE}) {
    aclrtEvent e = nullptr;
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&e, flag));
    aclrtStream s = new_stream();
    ASSERT_ACL_OK(aclrtRecordEvent(e, s));
    EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
    EXPECT_ACL_OK(aclrtDestroyEvent(e));
  }
}

TEST_F(R12_Event, QueryTracksCompletion) {
  aclrtStream s = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus old = ACL_EVENT_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEvent(e, &old));
  EXPECT_EQ(old, ACL_EVENT_STATUS_NOT_READY);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtQueryEvent(e, &old));
  EXPECT_EQ(old, ACL_EVENT_STATUS_COMPLETE);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(e, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(e, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(nullptr, &rs));
}

TEST_F(R12_Event, ElapsedTimeMeasuresDeviceWork) {
  aclrtStream s = new_stream();
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtRecordEvent(start, s));
  OatSpin spin{30000};  // 30 ms of device work
  ASSERT_ACL_OK(kernels_.launch("oat_spin", spin, s));
  ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  float ms = -1;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 29.0f);
  EXPECT_LT(ms, 5000.0f);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(nullptr, start, end));
}

TEST_F(R12_Event, ElapsedTimeUsesDeviceTimestampsNotHostTime) {
  // The host waits before synchronizing; elapsed time covers only the device interval.
  aclrtStream s = new_stream();
  aclrtEvent start = new_event(), end = new_event();
  ASSERT_ACL_OK(aclrtRecordEvent(start, s));
  ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  OatSpin spin{50000};
  aclrtStream other = new_stream();
  ASSERT_ACL_OK(kernels_.launch("oat_spin", spin, other));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  float ms = -1;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 0.0f);
  EXPECT_LT(ms, 45.0f);
}

TEST_F(R12_Event, ElapsedTimeOfIncompleteRecordFails) {
  aclrtStream s = new_stream();
  aclrtEvent start = new_event(), end = new_event(), never = new_event();
  ASSERT_ACL_OK(aclrtRecordEvent(start, s));
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  float ms = 0;
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, start, never));
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
}

TEST_F(R12_Event, DestroyNeverBlocks) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = new_event();
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  // Returns with the record still pending (the gate is closed).
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_FALSE(g.finished());
  // The handle is dead at once.
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(e));
  EXPECT_ACL_FAILS(aclrtRecordEvent(e, s1));
  EXPECT_ACL_FAILS(aclrtDestroyEvent(e));
  // Work that already refers to it still behaves: s2 waits for the record, then runs.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 20));
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(R12_Event, ResetEventOnTheWaitingStream) {
  // aclrtResetEvent's documented pattern: record on s1, wait and reset on s2.
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
  Gate &g = block(s1);
  int32_t m1 = 0, m2 = 0;
  ASSERT_ACL_OK(mark(&m1, 1, s1));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, e));
  ASSERT_ACL_OK(aclrtResetEvent(e, s2));
  ASSERT_ACL_OK(mark(&m2, oat::load(m1) + 2, s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 20));
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m1), 1);
  EXPECT_EQ(oat::load(m2), 2);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtResetEvent(nullptr, s2));
}

TEST_F(R12_Event, BadHandlesAreRejected) {
  aclrtStream s = new_stream();
  aclrtEvent dead = new_event();
  ASSERT_ACL_OK(aclrtDestroyEvent(dead));
  aclrtEvent fake = reinterpret_cast<aclrtEvent>(uintptr_t{0xdeadbeef0});
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(nullptr, s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(nullptr));
  for (aclrtEvent bad : {dead, fake}) {
    EXPECT_ACL_FAILS(aclrtRecordEvent(bad, s));
    EXPECT_ACL_FAILS(aclrtStreamWaitEvent(s, bad));
    EXPECT_ACL_FAILS(aclrtSynchronizeEvent(bad));
    EXPECT_ACL_FAILS(aclrtSynchronizeEventWithTimeout(bad, 5));
    aclrtEventRecordedStatus st;
    EXPECT_ACL_FAILS(aclrtQueryEventStatus(bad, &st));
    float ms;
    EXPECT_ACL_FAILS(aclrtEventElapsedTime(&ms, bad, bad));
    EXPECT_ACL_FAILS(aclrtDestroyEvent(bad));
  }
}

}  // namespace

namespace {

using Resources = RuntimeTest;

TEST_F(Resources, EventAvailNumCountsTheDevicesLiveEvents) {
  uint32_t before = 0, now = 0;
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&before));
  EXPECT_EQ(before, 65536u);
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&now));
  EXPECT_EQ(now, before - 1);
  ASSERT_ACL_OK(aclrtDestroyEvent(e));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&now));
  EXPECT_EQ(now, before);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetEventAvailNum(nullptr));
}

}  // namespace
