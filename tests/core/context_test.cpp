// R4-R7: explicit contexts, thread binding, the default context, and isolation of streams and
// events between contexts.
#include "core/fixture.h"

namespace {

using oat::BareRuntimeTest;
using oat::Gate;
using oat::Kernels;
using oat::RuntimeTest;

class Initialized : public BareRuntimeTest {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclInit(nullptr)); }
};

using R4_Context = Initialized;

TEST_F(R4_Context, CreateBindsCallingThread) {
  aclrtContext c = nullptr, cur = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 1));
  ASSERT_NE(c, nullptr);
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, c);
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);
  EXPECT_ACL_OK(aclrtDestroyContext(c));
}

TEST_F(R4_Context, CreateRejectsBadArguments) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(nullptr, 0));
  aclrtContext c = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, -1));
}

TEST_F(R4_Context, NewThreadHasNoContext) {
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  std::thread t([] {
    aclrtContext cur = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
    aclrtStream s = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
    aclrtEvent e = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&e));
  });
  t.join();
}

TEST_F(R4_Context, AnyThreadMayBindAnyLiveContext) {
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 1));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  std::thread t([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(c));
    aclrtContext cur = nullptr;
    ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
    EXPECT_EQ(cur, c);
    int32_t d = -1;
    ASSERT_ACL_OK(aclrtGetDevice(&d));
    EXPECT_EQ(d, 1);
    // The stream belongs to the now-current context: submission works from this thread.
    EXPECT_ACL_OK(aclrtMemsetAsync(dev, 64, 0x5a, 64, s));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  });
  t.join();
  uint8_t host[64] = {};
  ASSERT_ACL_OK(aclrtMemcpy(host, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint8_t b : host) EXPECT_EQ(b, 0x5a);
}

TEST_F(R4_Context, SetCurrentContextLastCallWinsAndSwitchesDevice) {
  aclrtContext c0 = nullptr, c1 = nullptr, cur = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c0, 0));
  ASSERT_ACL_OK(aclrtCreateContext(&c1, 1));
  ASSERT_ACL_OK(aclrtSetCurrentContext(c0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(c1));
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, c1);
  int32_t d = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(d, 1);
  ASSERT_ACL_OK(aclrtSetCurrentContext(c0));
  ASSERT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(d, 0);
}

TEST_F(R4_Context, SetCurrentContextRejectsNull) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(nullptr));
}

TEST_F(R4_Context, MadeUpHandleIsRejected) {
  aclrtContext fake = reinterpret_cast<aclrtContext>(uintptr_t{0xdeadbeef0});
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(fake));
  EXPECT_ACL_FAILS(aclrtDestroyContext(fake));
}

TEST_F(R4_Context, EachContextHasItsOwnDefaultStream) {
  aclrtContext a = nullptr, b = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&a, 0));
  aclrtStream sa = nullptr, sb = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&sa));
  ASSERT_ACL_OK(aclrtCreateContext(&b, 0));
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&sb));
  EXPECT_NE(sa, nullptr);
  EXPECT_NE(sb, nullptr);
  EXPECT_NE(sa, sb);
}

using R5_DestroyContext = Initialized;

TEST_F(R5_DestroyContext, DestroyingCurrentContextUnbindsThread) {
  aclrtContext c = nullptr, cur = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  ASSERT_ACL_OK(aclrtDestroyContext(c));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
  aclrtStream s = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
}

TEST_F(R5_DestroyContext, ThreadBoundToContextDestroyedElsewhereGetsErrors) {
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  std::atomic<int> phase{0};
  std::thread t([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(c));
    phase.store(1);
    oat::wait_for([&] { return phase.load() == 2; });
    aclrtStream s = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateStream(&s));
    aclrtEvent e = nullptr;
    EXPECT_ACL_FAILS(aclrtCreateEvent(&e));
    aclrtContext cur = nullptr;
    EXPECT_ACL_FAILS(aclrtGetCurrentContext(&cur));
    int32_t d = -1;
    EXPECT_ACL_FAILS(aclrtGetDevice(&d));
    EXPECT_ACL_FAILS(aclrtSynchronizeDevice());
    EXPECT_ACL_FAILS(aclrtMemsetAsync(dev, 64, 0, 64, nullptr));
    EXPECT_ACL_FAILS(aclrtSynchronizeStream(nullptr));
  });
  ASSERT_TRUE(oat::wait_for([&] { return phase.load() == 1; }));
  ASSERT_ACL_OK(aclrtDestroyContext(c));
  phase.store(2);
  t.join();
}

TEST_F(R5_DestroyContext, DestroyedContextCannotBeMadeCurrent) {
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  ASSERT_ACL_OK(aclrtDestroyContext(c));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSetCurrentContext(c));
  EXPECT_ACL_FAILS(aclrtDestroyContext(c));
}

TEST_F(R5_DestroyContext, RejectsNull) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(nullptr));
}

TEST_F(R5_DestroyContext, ReleasesItsStreamsAndEvents) {
  aclrtContext c = nullptr, keep = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&keep, 0));
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  aclrtStream s = nullptr;
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtDestroyContext(c));
  ASSERT_ACL_OK(aclrtSetCurrentContext(keep));
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(e));
  EXPECT_ACL_FAILS(aclrtDestroyStream(s));
  EXPECT_ACL_FAILS(aclrtDestroyEvent(e));
}

TEST_F(R5_DestroyContext, DeviceMemoryOutlivesTheContext) {
  // Contexts own streams and events, not memory (docs/RULES.md, the programming model).
  aclrtContext a = nullptr, b = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&a, 0));
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 128, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, 128, 7, 128));
  ASSERT_ACL_OK(aclrtCreateContext(&b, 0));
  ASSERT_ACL_OK(aclrtDestroyContext(a));
  uint8_t host[128] = {};
  ASSERT_ACL_OK(aclrtMemcpy(host, 128, dev, 128, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host[0], 7);
  EXPECT_EQ(host[127], 7);
  EXPECT_ACL_OK(aclrtFree(dev));
}

using R6_DefaultContext = Initialized;

TEST_F(R6_DefaultContext, CannotBeDestroyed) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext dflt = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&dflt));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtDestroyContext(dflt));
  // Nothing was released.
  aclrtContext cur = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, dflt);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(R6_DefaultContext, CanBeGotAndSetLikeAnyContext) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext dflt = nullptr, other = nullptr, cur = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&dflt));
  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(dflt));
  ASSERT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(cur, dflt);
  // Another thread can bind to it too.
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(dflt));
    EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  });
  t.join();
}

// R7: work may be submitted to a stream only while its context is current.
class R7_StreamContext : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateContext(&a_, 0));
    ASSERT_ACL_OK(aclrtCreateStream(&sa_));
    ASSERT_ACL_OK(aclrtCreateEvent(&ea_));
    ASSERT_ACL_OK(aclrtMalloc(&dev_, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_ACL_OK(aclrtMallocHost(&pinned_, 256));
    ASSERT_ACL_OK(aclrtCreateContext(&b_, 0));
    ASSERT_ACL_OK(aclrtCreateStream(&sb_));
    ASSERT_ACL_OK(aclrtCreateEvent(&eb_));
    // b_ is current now.
  }
  aclrtContext a_ = nullptr, b_ = nullptr;
  aclrtStream sa_ = nullptr, sb_ = nullptr;
  aclrtEvent ea_ = nullptr, eb_ = nullptr;
  void *dev_ = nullptr, *pinned_ = nullptr;
};

void noop_callback(void *) {}

TEST_F(R7_StreamContext, SubmissionsToAnotherContextsStreamFail) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtMemsetAsync(dev_, 256, 1, 256, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtMemcpyAsync(dev_, 256, pinned_, 256, ACL_MEMCPY_HOST_TO_DEVICE, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtMemcpy2dAsync(dev_, 16, pinned_, 16, 16, 4,
                                                                   ACL_MEMCPY_HOST_TO_DEVICE, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtRecordEvent(eb_, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtStreamWaitEvent(sa_, eb_));
  int32_t m = 0;
  OatStore args{&m, 1};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtLaunchKernel(kernels_["oat_store"], 1, &args, sizeof(args), sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtLaunchCallback(noop_callback, nullptr, ACL_CALLBACK_BLOCK, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStream(sa_));
  // Nothing ran, and the stream is still alive in its own context.
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(sa_));
  EXPECT_EQ(oat::load(m), 0);
  EXPECT_ACL_OK(aclrtDestroyStream(sa_));
}

// Submissions find their stream through a per-thread cache of the last lookup: the context
// check must still follow every change of the current context, and a destroyed context.
TEST_F(R7_StreamContext, TheCheckFollowsTheCurrentContextFromOneSubmissionToTheNext) {
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev_, 256, 1, 256, sa_));
  ASSERT_ACL_OK(aclrtSetCurrentContext(b_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT, aclrtMemsetAsync(dev_, 256, 2, 256, sa_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_CONTEXT,
                   aclrtMemcpyAsync(dev_, 256, pinned_, 256, ACL_MEMCPY_HOST_TO_DEVICE, sa_));
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  ASSERT_ACL_OK(aclrtMemsetAsync(dev_, 256, 3, 256, sa_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(sa_));
  std::vector<uint8_t> host(256);
  ASSERT_ACL_OK(aclrtMemcpy(host.data(), 256, dev_, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host, std::vector<uint8_t>(256, 3));
  ASSERT_ACL_OK(aclrtDestroyContext(a_));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(dev_, 256, 4, 256, sa_));
  EXPECT_ACL_FAILS(aclrtMemcpyAsync(dev_, 256, pinned_, 256, ACL_MEMCPY_HOST_TO_DEVICE, sa_));
}

TEST_F(R7_StreamContext, EventsOfAnotherContextCannotBeRecordedOrWaited) {
  // eb_ belongs to context b; stream sa_ to context a.
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  EXPECT_ACL_FAILS(aclrtRecordEvent(eb_, sa_));
  EXPECT_ACL_FAILS(aclrtStreamWaitEvent(sa_, eb_));
  ASSERT_ACL_OK(aclrtRecordEvent(ea_, sa_));
  ASSERT_ACL_OK(aclrtSetCurrentContext(b_));
  EXPECT_ACL_FAILS(aclrtStreamWaitEvent(sb_, ea_));
}

TEST_F(R7_StreamContext, HostSynchronizationWorksFromAnyContext) {
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  Gate &g = block(sa_);
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, sa_));
  ASSERT_ACL_OK(aclrtSetCurrentContext(b_));
  std::thread opener([&] {
    g.wait_started();
    g.open();
  });
  EXPECT_ACL_OK(aclrtSynchronizeStream(sa_));
  opener.join();
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(sa_, 1000));
}

TEST_F(R7_StreamContext, DefaultStreamIsTheCurrentContexts) {
  // NULL on b_'s thread is b_'s default stream: a task on a_'s default stream blocked by a gate
  // does not hold it.
  ASSERT_ACL_OK(aclrtSetCurrentContext(a_));
  Kernels ka;
  ASSERT_ACL_OK(ka.load());
  Gate &g = make_gate();
  OatGate *gp = &g.g;
  ASSERT_ACL_OK(ka.launch("oat_gate", gp, nullptr));
  ASSERT_ACL_OK(aclrtSetCurrentContext(b_));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, 3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(g.finished());
  g.open();
}

}  // namespace
