// AI-core resource limits: aclrtSet/Get/ResetDeviceResLimit (the process's limit on a device),
// aclrtSet/Get/ResetStreamResLimit with aclrtUse/UnuseStreamResInCurrentThread (a stream's
// limit, for the threads that use it) and aclrtGetResInCurrentThread. Precedence: the used
// stream's limit > the device's > the device's AI cores. A limit caps the blocks of a kernel
// that run at once, from the next submission on.
#include "core/fixture.h"

namespace {

using oat::ai_cores;
using oat::RuntimeTest;

constexpr aclrtDevResLimitType kCube = ACL_RT_DEV_RES_CUBE_CORE;
constexpr aclrtDevResLimitType kVector = ACL_RT_DEV_RES_VECTOR_CORE;

class ResLimit : public RuntimeTest {
 protected:
  uint32_t cores() const { return static_cast<uint32_t>(ai_cores(0)); }
  uint32_t device_limit(aclrtDevResLimitType type) {
    uint32_t v = 0;
    EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, type, &v));
    return v;
  }
  uint32_t thread_limit(aclrtDevResLimitType type) {
    uint32_t v = 0;
    EXPECT_ACL_OK(aclrtGetResInCurrentThread(type, &v));
    return v;
  }
  uint32_t stream_limit(aclrtStream s, aclrtDevResLimitType type) {
    uint32_t v = 0;
    EXPECT_ACL_OK(aclrtGetStreamResLimit(s, type, &v));
    return v;
  }
  // Launches a kernel of `blocks` blocks on s, waits, and returns how many ran at once.
  int32_t peak_blocks(aclrtStream s, uint32_t blocks) {
    int32_t running = 0, peak = 0, ran = 0;
    OatOccupancy a{&running, &peak, &ran};
    EXPECT_ACL_OK(kernels_.launch("oat_occupancy", a, s, blocks));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s));
    EXPECT_EQ(ran, static_cast<int32_t>(blocks));
    return peak;
  }
};

TEST_F(ResLimit, DefaultsAreTheDeviceCores) {
  EXPECT_EQ(device_limit(kCube), cores());
  EXPECT_EQ(device_limit(kVector), cores());
  EXPECT_EQ(thread_limit(kCube), cores());
  aclrtStream s = new_stream();
  EXPECT_EQ(stream_limit(s, kVector), cores());
  EXPECT_EQ(stream_limit(nullptr, kCube), cores());
}

TEST_F(ResLimit, DeviceLimitIsSetPerKindAndReset) {
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kVector, 1));
  EXPECT_EQ(device_limit(kVector), 1u);
  EXPECT_EQ(device_limit(kCube), cores());
  EXPECT_EQ(thread_limit(kVector), 1u);
  aclrtStream s = new_stream();
  EXPECT_EQ(stream_limit(s, kVector), 1u);  // a stream without its own takes the device's
  ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));
  EXPECT_EQ(device_limit(kVector), cores());
  EXPECT_EQ(thread_limit(kVector), cores());
}

TEST_F(ResLimit, DeviceLimitCapsTheBlocksOfAKernelThatRunAtOnce) {
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kCube, 1));
  EXPECT_EQ(peak_blocks(nullptr, 16), 1);
}

TEST_F(ResLimit, StreamLimitAppliesToTheThreadsThatUseIt) {
  aclrtStream s = new_stream();
  ASSERT_ACL_OK(aclrtSetStreamResLimit(s, kVector, 1));
  EXPECT_EQ(stream_limit(s, kVector), 1u);
  EXPECT_EQ(stream_limit(s, kCube), cores());
  EXPECT_EQ(thread_limit(kVector), cores());  // not used yet
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(s));
  EXPECT_EQ(thread_limit(kVector), 1u);
  EXPECT_EQ(peak_blocks(s, 16), 1);
  std::thread other([&] {  // another thread does not use it
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_EQ(thread_limit(kVector), cores());
  });
  other.join();
  ASSERT_ACL_OK(aclrtUnuseStreamResInCurrentThread(s));
  EXPECT_EQ(thread_limit(kVector), cores());
  ASSERT_ACL_OK(aclrtResetStreamResLimit(s));
  EXPECT_EQ(stream_limit(s, kVector), cores());
}

TEST_F(ResLimit, StreamZeroIsTheDefaultStream) {
  ASSERT_ACL_OK(aclrtSetStreamResLimit(nullptr, kCube, 1));
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(nullptr));
  EXPECT_EQ(thread_limit(kCube), 1u);
  EXPECT_EQ(peak_blocks(nullptr, 8), 1);
  ASSERT_ACL_OK(aclrtUnuseStreamResInCurrentThread(nullptr));
  EXPECT_EQ(thread_limit(kCube), cores());
}

TEST_F(ResLimit, UsedStreamLimitComesBeforeTheDeviceLimit) {
  if (cores() < 2) GTEST_SKIP() << "needs a device of 2 AI cores";
  aclrtStream s = new_stream();
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kCube, 1));
  ASSERT_ACL_OK(aclrtSetStreamResLimit(s, kCube, 2));
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(s));
  EXPECT_EQ(thread_limit(kCube), 2u);
  ASSERT_ACL_OK(aclrtResetStreamResLimit(s));
  EXPECT_EQ(thread_limit(kCube), 1u);  // the stream has none of its own any more
}

TEST_F(ResLimit, ATaskKeepsTheLimitOfItsSubmission) {
  aclrtStream s = new_stream();
  oat::Gate &gate = block(s);
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kVector, 1));
  int32_t running = 0, peak = 0, ran = 0;
  OatOccupancy a{&running, &peak, &ran};
  ASSERT_ACL_OK(kernels_.launch("oat_occupancy", a, s, 16));
  ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));  // before the kernel runs
  gate.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(ran, 16);
  EXPECT_EQ(peak, 1);
}

TEST_F(ResLimit, ACapturedKernelKeepsTheLimitOfTheCapture) {
  aclrtStream s = new_stream();
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kVector, 1));
  int32_t running = 0, peak = 0, ran = 0;
  OatOccupancy a{&running, &peak, &ran};
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(kernels_.launch("oat_occupancy", a, s, 16));
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(ran, 16);
  EXPECT_EQ(peak, 1);
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(ResLimit, ADestroyedUsedStreamLimitsNothing) {
  aclrtStream s = new_stream();
  ASSERT_ACL_OK(aclrtSetStreamResLimit(s, kVector, 1));
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(s));
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_EQ(thread_limit(kVector), cores());
}

TEST_F(ResLimit, LimitsEndWithTheRuntime) {
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, kVector, 1));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_EQ(device_limit(kVector), cores());
}

TEST_F(ResLimit, BadArgumentsAreRejected) {
  const auto bad_type = static_cast<aclrtDevResLimitType>(2);
  uint32_t v = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, bad_type, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, kCube, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceResLimit(-1, kCube, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, bad_type, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, kCube, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, kCube, cores() + 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDeviceResLimit(99, kCube, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceResLimit(99));
  EXPECT_EQ(device_limit(kCube), cores());  // nothing was set

  aclrtStream s = new_stream();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamResLimit(s, bad_type, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamResLimit(s, kCube, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamResLimit(s, bad_type, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamResLimit(s, kVector, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamResLimit(s, kVector, cores() + 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtUnuseStreamResInCurrentThread(s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetResInCurrentThread(bad_type, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetResInCurrentThread(kCube, nullptr));

  aclrtStream fake = reinterpret_cast<aclrtStream>(uintptr_t{0xdeadbeef0});
  EXPECT_ACL_FAILS(aclrtGetStreamResLimit(fake, kCube, &v));
  EXPECT_ACL_FAILS(aclrtSetStreamResLimit(fake, kCube, 1));
  EXPECT_ACL_FAILS(aclrtResetStreamResLimit(fake));
  EXPECT_ACL_FAILS(aclrtUseStreamResInCurrentThread(fake));
  EXPECT_ACL_FAILS(aclrtUnuseStreamResInCurrentThread(fake));
}

TEST_F(ResLimit, CallsNeedAnInitializedRuntime) {
  ASSERT_ACL_OK(aclFinalize());
  uint32_t v = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceResLimit(0, kCube, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtSetDeviceResLimit(0, kCube, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtGetResInCurrentThread(kCube, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtUseStreamResInCurrentThread(nullptr));
}

TEST_F(ResLimit, GetResInCurrentThreadNeedsAContext) {
  std::thread bare([] {
    uint32_t v = 0;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetResInCurrentThread(kCube, &v));
  });
  bare.join();
}

}  // namespace
