// R2 (simulated devices), R3 (set/reset device, default context), and the device-wide
// synchronization of R11.
#include <cctype>

#include "core/fixture.h"

namespace {

using oat::BareRuntimeTest;
using oat::RuntimeTest;

class Initialized : public BareRuntimeTest {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclInit(nullptr)); }
};

using R2_Devices = Initialized;

TEST_F(R2_Devices, InvalidIdFailsWithInvalidDeviceId) {
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(static_cast<int32_t>(n)));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(static_cast<int32_t>(n)));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(-5));
  aclrtContext c = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, 7));
}

TEST_F(R2_Devices, GetDeviceCountRejectsNull) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
}

TEST_F(R2_Devices, EachDeviceHasMemoryCapacity) {
  for (int32_t dev = 0; dev < 2; ++dev) {
    ASSERT_ACL_OK(aclrtSetDevice(dev));
    size_t free_bytes = 0, total = 0;
    ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
    EXPECT_GT(total, 0u);
    EXPECT_LE(free_bytes, total);
  }
}

TEST_F(R2_Devices, RunModeIsHost) {
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
}

TEST_F(R2_Devices, DevicesAreIndependentMemorySpaces) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void *p0 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p0, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free0 = 0, total0 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, total1) << "device 1 must not be charged for device 0's allocation";
  EXPECT_LT(free0, total0);
}

TEST_F(R2_Devices, PciBusIdsRoundTripAndDiffer) {
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  std::vector<std::string> seen;
  for (int32_t id = 0; id < static_cast<int32_t>(n); ++id) {
    char bus[13] = {};
    ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(id, bus, sizeof(bus)));
    ASSERT_EQ(std::strlen(bus), 12u) << bus;  // dddd:bb:dd.f
    EXPECT_EQ(std::string(bus).substr(0, 5), "0000:");
    EXPECT_EQ(std::string(bus).substr(7), ":00.0");
    EXPECT_EQ(std::count(seen.begin(), seen.end(), bus), 0) << bus;
    seen.emplace_back(bus);
    int32_t back = -1;
    ASSERT_ACL_OK(aclrtDeviceGetByPCIBusId(bus, &back));
    EXPECT_EQ(back, id);
    std::string upper(bus);
    for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    back = -1;
    ASSERT_ACL_OK(aclrtDeviceGetByPCIBusId(upper.c_str(), &back));  // as CUDA takes it
    EXPECT_EQ(back, id);
    back = -1;
    ASSERT_ACL_OK(aclrtDeviceGetByPCIBusId(bus + 5, &back));  // without the domain
    EXPECT_EQ(back, id);
  }
}

TEST_F(R2_Devices, PciBusIdCallsRejectBadArguments) {
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  char bus[13] = {};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetPCIBusId(0, nullptr, 13));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetPCIBusId(0, bus, 12));  // no room for NUL
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetPCIBusId(0, bus, -1));
  EXPECT_EQ(bus[0], '\0');  // nothing written
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtDeviceGetPCIBusId(static_cast<int32_t>(n), bus, 13));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetPCIBusId(-1, bus, 13));
  int32_t id = 7;
  ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(0, bus, 13));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId(nullptr, &id));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetByPCIBusId(bus, nullptr));
  char past_last[13] = {};
  ASSERT_ACL_OK(aclrtDeviceGetPCIBusId(static_cast<int32_t>(n) - 1, past_last, 13));
  ++past_last[6];  // the bus after the last device's
  for (const char *bad :
       {"", "0000:00:00.0", "0000:01:00.1", "0001:01:00.0", "0000:01:00.0x", " 0000:01:00.0",
        "0000:01:00", "gpu0", "0000:01:00.0:00000000", static_cast<const char *>(past_last)}) {
    EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetByPCIBusId(bad, &id)) << bad;
  }
  EXPECT_EQ(id, 7);  // nothing written
}

TEST_F(R2_Devices, DevicesAreLinkedByHccs) {
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  ASSERT_GE(n, 2u);
  uint64_t topo = 0;
  ASSERT_ACL_OK(aclrtGetDevicesTopo(0, 1, &topo));
  EXPECT_EQ(topo, ACL_RT_DEVS_TOPOLOGY_HCCS);
  ASSERT_ACL_OK(aclrtGetDevicesTopo(n - 1, 0, &topo));
  EXPECT_EQ(topo, ACL_RT_DEVS_TOPOLOGY_HCCS);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(0, 1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevicesTopo(1, 1, &topo));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDevicesTopo(0, n, &topo));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDevicesTopo(n, 0, &topo));
}

using R3_SetDevice = Initialized;

TEST_F(R3_SetDevice, BindsThreadToDefaultContext) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&c));
  EXPECT_NE(c, nullptr);
}

TEST_F(R3_SetDevice, GetDeviceWithoutContextFailsWithContextNull) {
  int32_t dev = -1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
}

TEST_F(R3_SetDevice, AllThreadsShareTheDefaultContext) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext mine = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&mine));
  aclrtContext theirs = nullptr;
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtGetCurrentContext(&theirs));
  });
  t.join();
  EXPECT_EQ(mine, theirs);
}

TEST_F(R3_SetDevice, ReplacesAnExplicitContext) {
  aclrtContext explicit_ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&explicit_ctx, 0));
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&c));
  ASSERT_EQ(c, explicit_ctx);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtGetCurrentContext(&c));
  EXPECT_NE(c, explicit_ctx);
  EXPECT_ACL_OK(aclrtDestroyContext(explicit_ctx));
}

TEST_F(R3_SetDevice, SwitchingDevicesSwitchesContext) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext c0 = nullptr, c1 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&c0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtGetCurrentContext(&c1));
  EXPECT_NE(c0, c1);
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);
}

using R3_ResetDevice = Initialized;

TEST_F(R3_ResetDevice, IsCountedAndReleasesAtZero) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  // One count left: the default context and its streams are alive.
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  aclrtContext c = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&c));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  // Zero: the stream is gone with its context.
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  EXPECT_ACL_FAILS(aclrtDestroyStream(s));
}

TEST_F(R3_ResetDevice, ResetAtZeroFailsWithContextReleaseError) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtResetDevice(1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, aclrtResetDevice(1));
}

TEST_F(R3_ResetDevice, ForceReleasesAtOnce) {
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  // Force followed by Reset is an error, as in CANN.
  EXPECT_ACL_FAILS(aclrtResetDevice(0));
  // The device can be set again afterwards.
  EXPECT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtCreateStream(&s));
}

TEST_F(R3_ResetDevice, LegalSequencesOfReference) {
  // Set -> Reset -> Set -> ResetForce, and Set -> Set -> Reset -> ResetForce.
  EXPECT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtResetDevice(0));
  EXPECT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  EXPECT_ACL_OK(aclrtResetDeviceForce(1));
  EXPECT_ACL_FAILS(aclrtResetDeviceForce(1));
}

TEST_F(R3_ResetDevice, ExplicitContextsSurviveTheDefaultContextsRelease) {
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&c, 0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(c));
  EXPECT_ACL_OK(aclrtMemsetAsync(dev, 64, 1, 64, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtDestroyContext(c));
}

TEST_F(R3_ResetDevice, ThreadBoundToAReleasedDefaultContextGetsContextNull) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  aclrtContext cur = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
  aclrtStream s = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
}

TEST_F(R3_ResetDevice, WaitsForPendingTasks) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  oat::Kernels k;
  ASSERT_ACL_OK(k.load());
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  oat::Gate &g = make_gate();
  OatGate *gp = &g.g;
  ASSERT_ACL_OK(k.launch("oat_gate", gp, s));
  int32_t mark = 0, mark_default = 0;
  OatStore a{&mark, 1}, b{&mark_default, 1};
  ASSERT_ACL_OK(k.launch("oat_store", a, s));
  ASSERT_ACL_OK(k.launch("oat_store", b, nullptr));
  std::thread opener([&] {
    g.wait_started();
    g.open();
  });
  EXPECT_ACL_OK(aclrtResetDevice(0));
  opener.join();
  EXPECT_EQ(oat::load(mark), 1);
  EXPECT_EQ(oat::load(mark_default), 1);
}

// R11: aclrtSynchronizeDevice waits for all streams of all contexts of the current device.
class R11_SynchronizeDevice : public RuntimeTest {};

TEST_F(R11_SynchronizeDevice, WaitsForEveryStreamOfEveryContext) {
  aclrtContext dflt = nullptr, other = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&dflt));
  aclrtStream s1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  oat::Gate &g1 = block(s1);
  int32_t marks[3] = {};
  ASSERT_ACL_OK(mark(&marks[0], 1, s1));
  ASSERT_ACL_OK(mark(&marks[1], 1, nullptr));

  ASSERT_ACL_OK(aclrtCreateContext(&other, 0));
  oat::Kernels k2;
  ASSERT_ACL_OK(k2.load());
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s2));
  oat::Gate &g2 = make_gate();
  OatGate *gp = &g2.g;
  ASSERT_ACL_OK(k2.launch("oat_gate", gp, s2));
  OatStore a{&marks[2], 1};
  ASSERT_ACL_OK(k2.launch("oat_store", a, s2));

  ASSERT_ACL_OK(aclrtSetCurrentContext(dflt));
  std::thread opener([&] {
    g1.wait_started();
    g2.wait_started();
    g1.open();
    g2.open();
  });
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  opener.join();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(oat::load(marks[i]), 1) << "stream " << i;
}

TEST_F(R11_SynchronizeDevice, DoesNotWaitForOtherDevices) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  oat::Kernels k1;
  ASSERT_ACL_OK(k1.load());
  oat::Gate &g = make_gate();
  OatGate *gp = &g.g;
  ASSERT_ACL_OK(k1.launch("oat_gate", gp, nullptr));
  ASSERT_TRUE(g.wait_started());
  ASSERT_ACL_OK(aclrtSetDevice(0));
  int32_t m = 0;
  ASSERT_ACL_OK(mark(&m, 1, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(3000));
  EXPECT_EQ(oat::load(m), 1);
  EXPECT_FALSE(g.finished()) << "device 1's gate should still be closed";
  g.open();
  ASSERT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(R11_SynchronizeDevice, TimeoutReturnsStreamSyncTimeoutAndLeavesWorkIntact) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  oat::Gate &g = block(s);
  int32_t log[8] = {}, count = 0;
  for (int i = 0; i < 8; ++i) ASSERT_ACL_OK(append(log, &count, 8, i, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(30));
  EXPECT_EQ(oat::load(count), 0);
  g.open();
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  ASSERT_EQ(oat::load(count), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(log[i], i);
  EXPECT_FALSE(g.timed_out());
}

TEST_F(R11_SynchronizeDevice, TimeoutBelowMinusOneIsRejected) {
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeDeviceWithTimeout(-2));
}

TEST_F(R11_SynchronizeDevice, WithoutContextFailsWithContextNull) {
  std::thread t([] { EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice()); });
  t.join();
}

}  // namespace

using R2_SatMode = RuntimeTest;

TEST_F(R2_SatMode, ReadsBackWhatWasSetAndRejectsUnknownModes) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_SATURATION);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceSatMode(nullptr));
}
