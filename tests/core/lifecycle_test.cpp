// R1 (aclInit / aclFinalize), the acl.json and environment parts of R2, and R19 for calls
// made before aclInit or after aclFinalize.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/fixture.h"

namespace {

using oat::BareRuntimeTest;
using oat::RuntimeTest;

std::string write_temp(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "oat_" + name + "_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << text;
  return path;
}

using R1_Init = BareRuntimeTest;

TEST_F(R1_Init, NullPathSucceeds) {
  EXPECT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclrtSetDevice(0));
}

TEST_F(R1_Init, SecondInitFailsWithRepeatInitialize) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  // The runtime stays usable.
  EXPECT_ACL_OK(aclrtSetDevice(0));
}

TEST_F(R1_Init, EmptyJsonFileSucceeds) {
  std::string path = write_temp("empty", "{}");
  EXPECT_ACL_OK(aclInit(path.c_str()));
  EXPECT_ACL_OK(aclrtSetDevice(0));
  std::remove(path.c_str());
}

TEST_F(R1_Init, MalformedJsonFailsWithParseErrorAndInitializesNothing) {
  std::string path = write_temp("bad", "{ \"dump\": [1, 2 ");
  EXPECT_ACL_ERROR(ACL_ERROR_PARSE_FILE, aclInit(path.c_str()));
  std::remove(path.c_str());
  // Nothing was initialized: runtime calls still fail, and a fresh aclInit succeeds.
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclInit(nullptr));
}

TEST_F(R1_Init, MissingFileFailsWithInvalidFile) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE, aclInit("/nonexistent/openacl/acl.json"));
  EXPECT_ACL_OK(aclInit(nullptr));
}

using R1_Finalize = BareRuntimeTest;

TEST_F(R1_Finalize, LaterCallsFailWithUninitialize) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  void *p = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream s = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtCreateStream(&s));
  uint32_t count = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtGetDeviceCount(&count));
}

TEST_F(R1_Finalize, SecondFinalizeFailsWithRepeatFinalize) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST_F(R1_Finalize, ReinitAfterFinalizeWorks) {
  for (int round = 0; round < 3; ++round) {
    ASSERT_ACL_OK(aclInit(nullptr));
    ASSERT_ACL_OK(aclrtSetDevice(0));
    void *dev = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint8_t> in(256, static_cast<uint8_t>(round + 1)), out(256, 0);
    ASSERT_ACL_OK(aclrtMemcpy(dev, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtMemcpy(out.data(), 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(in, out);
    ASSERT_ACL_OK(aclFinalize());
  }
}

TEST_F(R1_Finalize, ObjectsOfThePreviousRuntimeAreDead) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  aclrtEvent e = nullptr;
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtCreateContext(&c, 1));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(e));
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(c));
}

TEST_F(R1_Finalize, WaitsForPendingWork) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  oat::Kernels k;
  ASSERT_ACL_OK(k.load());
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  oat::Gate &g = make_gate();
  OatGate *gp = &g.g;
  ASSERT_ACL_OK(k.launch("oat_gate", gp, s));
  int32_t marks[64] = {};
  for (int i = 0; i < 64; ++i) {
    OatStore a{&marks[i], i + 1};
    ASSERT_ACL_OK(k.launch("oat_store", a, i % 2 ? s : nullptr));
  }
  // Another thread opens the gate once it runs; aclFinalize must return only after every
  // task ran.
  std::thread opener([&] {
    g.wait_started();
    g.open();
  });
  EXPECT_ACL_OK(aclFinalize());
  opener.join();
  EXPECT_FALSE(g.timed_out());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(oat::load(marks[i]), i + 1) << "task " << i << " did not run";
}

TEST_F(R1_Finalize, WithBusyStreamsOnBothDevicesAndContexts) {
  ASSERT_ACL_OK(aclInit(nullptr));
  int32_t marks[4] = {};
  std::vector<oat::Gate *> gates;
  for (int dev = 0; dev < 2; ++dev) {
    aclrtContext c = nullptr;
    ASSERT_ACL_OK(aclrtCreateContext(&c, dev));
    oat::Kernels k;
    ASSERT_ACL_OK(k.load());
    for (int i = 0; i < 2; ++i) {
      aclrtStream s = nullptr;
      ASSERT_ACL_OK(aclrtCreateStream(&s));
      oat::Gate &g = make_gate();
      OatGate *gp = &g.g;
      ASSERT_ACL_OK(k.launch("oat_gate", gp, s));
      OatStore a{&marks[dev * 2 + i], 1};
      ASSERT_ACL_OK(k.launch("oat_store", a, s));
      gates.push_back(&g);
    }
  }
  std::thread opener([&] {
    for (auto *g : gates) g->wait_started();
    for (auto *g : gates) g->open();
  });
  EXPECT_ACL_OK(aclFinalize());
  opener.join();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(oat::load(marks[i]), 1) << "stream " << i;
}

using R19_BeforeInit = BareRuntimeTest;

TEST_F(R19_BeforeInit, RuntimeCallsFailWithUninitialize) {
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtSetDevice(0));
  aclrtContext c = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtCreateContext(&c, 0));
  void *p = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclrtMallocHost(&p, 64));
}

TEST_F(R19_BeforeInit, FinalizeWithoutInitFails) {
  EXPECT_ACL_FAILS(aclFinalize());
}

using R2_Config = BareRuntimeTest;

TEST_F(R2_Config, DefaultIsTwoDevices) {
  ::unsetenv("OPENACL_DEVICE_COUNT");
  ASSERT_ACL_OK(aclInit(nullptr));
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(n, 2u);
}

TEST_F(R2_Config, EnvironmentSetsDeviceCount) {
  ::setenv("OPENACL_DEVICE_COUNT", "3", 1);
  aclError e = aclInit(nullptr);
  ::unsetenv("OPENACL_DEVICE_COUNT");
  ASSERT_ACL_OK(e);
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(n, 3u);
  EXPECT_ACL_OK(aclrtSetDevice(2));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(3));
}

TEST_F(R2_Config, DeviceCountAppliesAfterReinit) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclFinalize());
  ::setenv("OPENACL_DEVICE_COUNT", "1", 1);
  aclError e = aclInit(nullptr);
  ::unsetenv("OPENACL_DEVICE_COUNT");
  ASSERT_ACL_OK(e);
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(n, 1u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(1));
}

using R19_RecentErrMsg = BareRuntimeTest;

TEST_F(R19_RecentErrMsg, IsPerThread) {
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
  std::string mine = oat::recent_msg();
  std::string theirs;
  std::thread t([&] {
    uint32_t *null_count = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(null_count));
    theirs = oat::recent_msg();
  });
  t.join();
  EXPECT_NE(theirs.find("aclrtGetDeviceCount"), std::string::npos) << theirs;
  // The other thread's failure did not overwrite this thread's message.
  EXPECT_EQ(oat::recent_msg().find("aclrtGetDeviceCount"), std::string::npos) << oat::recent_msg();
  EXPECT_NE(mine.find("99"), std::string::npos) << "message should name the bad id: " << mine;
}

}  // namespace
