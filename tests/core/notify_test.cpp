// Notifies (context objects, docs/RULES.md): aclrtRecordNotify / aclrtWaitAndResetNotify and the
// counting aclrtCntNotify* family. A wait holds its stream until the notify is recorded,
// whether the record was enqueued before or after it, and resets it as it passes. Also the
// memory-value waits (aclrtValueWrite / aclrtValueWait), released by whoever writes the value.
#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

class NotifyTest : public RuntimeTest {
 protected:
  aclrtNotify new_notify() {
    aclrtNotify n = nullptr;
    EXPECT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    return n;
  }
  aclrtCntNotify new_counter() {
    aclrtCntNotify n = nullptr;
    EXPECT_ACL_OK(aclrtCntNotifyCreate(&n, ACL_NOTIFY_DEFAULT));
    return n;
  }
  // The stream has not got past its pending wait: a short synchronization times out.
  static bool held(aclrtStream s) {
    return aclrtSynchronizeStreamWithTimeout(s, 30) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
  }
  // w's latest wait passes, or holds it; a held w is replaced (a forced destroy withdraws the
  // wait without touching what it waits for).
  void expect_wait(aclrtStream &w, bool passes) {
    if (passes) {
      EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(w, 5000));
      return;
    }
    EXPECT_TRUE(held(w));
    ASSERT_ACL_OK(aclrtDestroyStreamForce(w));
    w = new_stream();
  }
  aclError cnt_record(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t v) {
    aclrtCntNotifyRecordInfo info{mode, v};
    return aclrtCntNotifyRecord(n, s, &info);
  }
  aclError cnt_wait(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t v,
                    uint8_t clear = 0, uint32_t timeout_s = 0) {
    aclrtCntNotifyWaitInfo info{mode, v, timeout_s, clear, {}};
    return aclrtCntNotifyWaitWithTimeout(n, s, &info);
  }
};

using Notify_Wait = NotifyTest;

TEST_F(Notify_Wait, AWaitEnqueuedBeforeTheRecordHoldsItsStreamUntilTheRecord) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtNotify n = new_notify();
  int32_t m = 0;
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_TRUE(held(s2));
  EXPECT_EQ(oat::load(m), 0);
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(oat::load(m), 1);
}

TEST_F(Notify_Wait, ARecordMadeEarlierReleasesOneWaitAndIsReset) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtNotify n = new_notify();
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  // The wait reset it: the next wait needs a new record.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  EXPECT_TRUE(held(s2));
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(Notify_Wait, TheRecordHappensWhenItsStreamReachesIt) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtNotify n = new_notify();
  Gate &g = block(s1);
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  EXPECT_TRUE(held(s2));
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(Notify_Wait, OneRecordReleasesOneWaiter) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtNotify n = new_notify();
  int32_t m2 = 0, m3 = 0;
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  ASSERT_ACL_OK(mark(&m2, 1, s2));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s3, 0));
  ASSERT_ACL_OK(mark(&m3, 1, s3));
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_TRUE(oat::wait_for([&] { return oat::load(m2) + oat::load(m3) == 1; }));
  aclrtStream still_held = oat::load(m2) == 1 ? s3 : s2;
  EXPECT_TRUE(held(still_held));
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s3));
  EXPECT_EQ(oat::load(m2) + oat::load(m3), 2);
}

TEST_F(Notify_Wait, ATimedOutWaitFailsItsStreamAndConsumesNoLaterRecord) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtNotify n = new_notify();
  int32_t m = 0;
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 1));  // seconds
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s2, 5000));
  EXPECT_NE(oat::recent_msg().find("not recorded within 1 s"), std::string::npos)
      << oat::recent_msg();
  EXPECT_EQ(oat::load(m), 0);
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s3, 0));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s3));
}

TEST_F(Notify_Wait, AForcedStreamDestroyWithdrawsItsPendingWait) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtNotify n = new_notify();
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  EXPECT_TRUE(held(s2));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(s2));
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s3, 0));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s3, 5000));
}

TEST_F(Notify_Wait, BatchResetClearsRecordedNotifies) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtNotify ns[2] = {new_notify(), new_notify()};
  for (aclrtNotify n : ns) ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  ASSERT_ACL_OK(aclrtNotifyBatchReset(ns, 2));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(ns[1], s2, 0));
  EXPECT_TRUE(held(s2));
  ASSERT_ACL_OK(aclrtRecordNotify(ns[1], s1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(Notify_Wait, AFailedRecordingStreamPassesItsFailureToTheWaiter) {  // R20
  aclrtStream s1 = new_stream(), s2 = new_stream();
  aclrtNotify n = new_notify();
  OatFail f{0, nullptr};
  ASSERT_ACL_OK(kernels_.launch("oat_fail", f, s1));
  ASSERT_ACL_OK(aclrtRecordNotify(n, s1));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s2, 0));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStreamWithTimeout(s2, 5000));
  EXPECT_EQ(oat::load(m), 0);
}

using CntNotify_Wait = NotifyTest;

TEST_F(CntNotify_Wait, AddsFromTwoStreamsReleaseAWaitForTheirSum) {
  aclrtStream s1 = new_stream(), s2 = new_stream(), s3 = new_stream();
  aclrtCntNotify n = new_counter();
  int32_t m = 0;
  ASSERT_ACL_OK(cnt_wait(n, s3, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 2, 1));
  ASSERT_ACL_OK(mark(&m, 1, s3));
  ASSERT_ACL_OK(cnt_record(n, s1, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_TRUE(held(s3));
  ASSERT_ACL_OK(cnt_record(n, s2, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s3));
  EXPECT_EQ(oat::load(m), 1);
  // isClear: the count went back to 0, so "equal to 0" passes at once.
  ASSERT_ACL_OK(cnt_wait(n, s3, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s3, 5000));
}

TEST_F(CntNotify_Wait, EveryWaitModeAndRecordMode) {
  aclrtStream s = new_stream(), w = new_stream();
  aclrtCntNotify n = new_counter();
  ASSERT_ACL_OK(cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0b0101));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  struct Case {
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
    bool passes;
  } cases[] = {
      {ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 6, true},
      {ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 5, false},
      {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, true},
      {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, false},
      {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 4, true},
      {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 5, false},
      {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 5, true},
      {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 6, false},
      {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0b0100, true},
      {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0b0110, false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "mode " << c.mode << " value " << c.value);
    ASSERT_ACL_OK(cnt_wait(n, w, c.mode, c.value));
    expect_wait(w, c.passes);
  }
  // BIT_OR then BIT_AND: 0b0101 | 0b0010 = 0b0111, & 0b0011 = 0b0011.
  ASSERT_ACL_OK(cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0b0010));
  ASSERT_ACL_OK(cnt_record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0b0011));
  ASSERT_ACL_OK(cnt_wait(n, w, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0b0011));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(w, 5000));
  // Reset in stream order: after it, "less than 1" passes.
  ASSERT_ACL_OK(aclrtCntNotifyReset(n, s));
  ASSERT_ACL_OK(cnt_wait(n, w, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(w, 5000));
}

TEST_F(CntNotify_Wait, TimeoutFailsTheWaitingStream) {
  aclrtStream s = new_stream();
  aclrtCntNotify n = new_counter();
  ASSERT_ACL_OK(cnt_wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 3, 0, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 5000));
}

using Notify_Errors = NotifyTest;

TEST_F(Notify_Errors, BadArgumentsAndHandlesAreRejected) {
  aclrtNotify n = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(&n, 7));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE,
                   aclrtRecordNotify(reinterpret_cast<aclrtNotify>(0x1234), nullptr));
  aclrtNotify a = new_notify(), b = new_notify();
  aclrtCntNotify c = new_counter();
  uint32_t ia = 0, ib = 0;
  ASSERT_ACL_OK(aclrtGetNotifyId(a, &ia));
  ASSERT_ACL_OK(aclrtGetNotifyId(b, &ib));
  EXPECT_NE(ia, ib);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(a, nullptr));
  // A counting notify is not an aclrtNotify, nor the other way round.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtRecordNotify(c, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtCntNotifyReset(a, nullptr));
  aclrtCntNotifyRecordInfo bad_record{static_cast<aclrtCntNotifyRecordMode>(3), 1};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord(c, nullptr, &bad_record));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord(c, nullptr, nullptr));
  aclrtCntNotifyWaitInfo bad_wait{static_cast<aclrtCntNotifyWaitMode>(9), 1, 0, 0, {}};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(c, nullptr, &bad_wait));
  aclrtCntNotifyWaitInfo bad_clear{ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 0, 2, {}};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(c, nullptr, &bad_clear));
  aclrtNotify batch[2] = {a, nullptr};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(batch, 2));
  ASSERT_ACL_OK(aclrtDestroyNotify(a));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyNotify(a));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtWaitAndResetNotify(a, nullptr, 0));
  ASSERT_ACL_OK(aclrtCntNotifyDestroy(c));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtCntNotifyGetId(c, &ia));
}

TEST_F(Notify_Errors, ANotifyWorksOnlyWithStreamsOfItsContext) {  // R7
  aclrtNotify n = new_notify();
  aclrtContext other = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));
  aclrtStream s = new_stream();  // of `other`, now current
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtRecordNotify(n, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtWaitAndResetNotify(n, nullptr, 0));
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_ACL_OK(aclrtDestroyContext(other));
}

TEST_F(Notify_Errors, DestroyingTheContextReleasesItsNotifies) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtNotify n = new_notify();
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyNotify(n));
}

using Value_Wait = NotifyTest;

TEST_F(Value_Wait, IsReleasedByAValueWriteOnAnotherStream) {
  aclrtStream s1 = new_stream(), s2 = new_stream();
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(d, 8, 0, 8));
  int32_t m = 0;
  ASSERT_ACL_OK(aclrtValueWait(d, 5, ACL_STREAM_WAIT_VALUE_EQ, s2));
  ASSERT_ACL_OK(mark(&m, 1, s2));
  EXPECT_TRUE(held(s2));
  ASSERT_ACL_OK(aclrtValueWrite(d, 4, 0, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_TRUE(held(s2));  // 4 is not 5
  ASSERT_ACL_OK(aclrtValueWrite(d, 5, 0, s1));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s2, 5000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Value_Wait, IsReleasedByAKernelThatWritesTheValue) {
  aclrtStream waiting = new_stream(), writer = new_stream();
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(d, 8, 0, 8));
  ASSERT_ACL_OK(aclrtValueWait(d, 1, ACL_STREAM_WAIT_VALUE_GEQ, waiting));
  EXPECT_TRUE(held(waiting));
  ASSERT_ACL_OK(mark(static_cast<int32_t *>(d), 1, writer));  // the low word: the value becomes 1
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiting, 5000));
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Value_Wait, EveryCondition) {
  aclrtStream s = new_stream(), w = new_stream();
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtValueWrite(d, 0b0101, 0, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  struct Case {
    uint32_t flag;
    uint64_t value;
    bool passes;
  } cases[] = {
      {ACL_STREAM_WAIT_VALUE_GEQ, 5, true},
      {ACL_STREAM_WAIT_VALUE_GEQ, 6, false},
      {ACL_STREAM_WAIT_VALUE_GEQ, UINT64_MAX, true},  // (int64_t)(5 - (2^64 - 1)) = 6 >= 0
      {ACL_STREAM_WAIT_VALUE_EQ, 5, true},
      {ACL_STREAM_WAIT_VALUE_EQ, 4, false},
      {ACL_STREAM_WAIT_VALUE_AND, 0b0100, true},
      {ACL_STREAM_WAIT_VALUE_AND, 0b1010, false},
      {ACL_STREAM_WAIT_VALUE_NOR, 0b0010, true},
      {ACL_STREAM_WAIT_VALUE_NOR, ~uint64_t{0b0101}, false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "flag " << c.flag << " value " << c.value);
    ASSERT_ACL_OK(aclrtValueWait(d, c.value, c.flag, w));
    expect_wait(w, c.passes);
  }
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Value_Wait, BadArgumentsAreRejected) {
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  uint64_t host = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(nullptr, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtValueWrite(static_cast<char *>(d) + 4, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(&host, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtValueWrite(static_cast<char *>(d) + 16, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(d, 1, 1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(d, 1, 4, nullptr));
  EXPECT_ACL_OK(aclrtFree(d));
}

}  // namespace
