// R1 (aclInit / aclFinalize), the acl.json and environment parts of R2, and R19 for calls
// made before aclInit or after aclFinalize.
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "acl/acl_prof.h"
#include "core/fixture.h"

namespace {

using oat::BareRuntimeTest;
using oat::RuntimeTest;

std::string write_temp(const std::string &name, const std::string &text) {
  std::string path =
      ::testing::TempDir() + "oat_" + name + "_" + std::to_string(::getpid()) + ".json";
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

// aclFinalize releases every runtime object: a handle of each kind from before it is rejected
// with a message afterwards, never dereferenced. Data descriptions (binaries' bytes,
// configuration handles, allocator descriptors, profiling objects) are the program's until it
// destroys them, across aclFinalize as before (the model layer's kinds: tests/model/api_test.cpp).
TEST_F(R1_Finalize, ObjectsOfThePreviousRuntimeAreDead) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr, captured = nullptr;
  aclrtEvent e = nullptr;
  aclrtNotify n = nullptr;
  aclrtContext c = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtCreateStream(&captured));
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtCreateNotify(&n, 0));
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(captured, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_ACL_OK(aclrtRecordEvent(e, captured));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(captured, &ri));
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM;
  prop.location = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
  size_t granularity = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                                                 &granularity));
  aclrtDrvMemHandle phys = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, granularity, &prop, 0));
  const char bytes[] = "not a kernel library";
  aclrtBinary binary = aclrtCreateBinary(bytes, sizeof bytes);
  ASSERT_NE(binary, nullptr) << oat::recent_msg();
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle f = nullptr;
  aclrtArgsHandle args = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &bin));
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin, "oat_store", &f));
  ASSERT_ACL_OK(aclrtKernelArgsInit(f, &args));
  aclrtStreamConfigHandle *stream_config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(stream_config, nullptr) << oat::recent_msg();
  aclrtAllocatorDesc allocator = aclrtAllocatorCreateDesc();
  ASSERT_NE(allocator, nullptr) << oat::recent_msg();
  uint32_t dev0[] = {0};
  aclprofConfig *prof = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  ASSERT_NE(prof, nullptr) << oat::recent_msg();
  void *stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr) << oat::recent_msg();
  aclprofStepInfo *step = aclprofCreateStepInfo();
  ASSERT_NE(step, nullptr) << oat::recent_msg();
  ASSERT_ACL_OK(aclrtCreateContext(&c, 1));

  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_FAILS(aclrtSetCurrentContext(c));
  EXPECT_ACL_FAILS(aclrtSynchronizeStream(s));
  EXPECT_ACL_FAILS(aclrtSynchronizeEvent(e));
  EXPECT_ACL_FAILS(aclrtDestroyNotify(n));
  EXPECT_ACL_FAILS(aclmdlRIDestroy(ri));
  EXPECT_ACL_FAILS(aclrtFreePhysical(phys));
  EXPECT_ACL_FAILS(aclrtBinaryUnLoad(bin));
  EXPECT_ACL_FAILS(aclrtLaunchKernel(f, 1, nullptr, 0, nullptr));
  EXPECT_ACL_FAILS(aclrtKernelArgsFinalize(args));

  EXPECT_ACL_OK(aclprofSetStampTraceMessage(stamp, "m", 1));
  EXPECT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, nullptr));
  EXPECT_ACL_OK(aclrtDestroyBinary(binary));
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(stream_config));
  EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(allocator));
  EXPECT_ACL_OK(aclprofDestroyConfig(prof));
  aclprofDestroyStamp(stamp);
  aclprofDestroyStepInfo(step);
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
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(oat::load(marks[i]), i + 1) << "task " << i << " did not run";
}

TEST_F(R1_Finalize, AStreamWaitingForANotifyNeverRecordedDoesNotHangIt) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
  ASSERT_ACL_OK(aclrtMemsetAsync(d, 64, 1, 64, s));
  // Nothing will ever record n: finalize drops the stream's tasks after its grace period.
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
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

// CANN's aclrtGetRunMode has no init check, and the official samples ask for the run mode
// before aclInit.
TEST_F(R19_BeforeInit, GetRunModeWorksWithoutInit) {
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_ACL_OK(aclrtGetRunMode(&mode));
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
}

TEST_F(R19_BeforeInit, FinalizeWithoutInitFails) { EXPECT_ACL_FAILS(aclFinalize()); }

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

TEST_F(R2_Config, AclJsonSectionSetsDevices) {
  std::string path = write_temp(
      "devices", R"({"openacl": {"device_count": 3, "device_memory_mb": 64, "ai_cores": 3}})");
  ASSERT_ACL_OK(aclInit(path.c_str()));
  std::remove(path.c_str());
  uint32_t n = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(n, 3u);
  ASSERT_ACL_OK(aclrtSetDevice(2));
  size_t free_bytes = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  EXPECT_EQ(total, size_t{64} << 20);
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  EXPECT_EQ(cores, 3);
  // The capacity is enforced.
  void *p = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&p, size_t{65} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMalloc(&p, size_t{32} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
}

TEST_F(R2_Config, AiCoresDefaultToTheHostsCores) {
  ::unsetenv("OPENACL_AI_CORES");
  ASSERT_ACL_OK(aclInit(nullptr));
  for (uint32_t dev = 0; dev < 2; ++dev) {
    int64_t cores = 0;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
    EXPECT_EQ(cores, static_cast<int64_t>(std::thread::hardware_concurrency()));
  }
  const char *name = aclrtGetSocName();
  ASSERT_NE(name, nullptr);
  EXPECT_STRNE(name, "");
}

TEST_F(R2_Config, EnvironmentSetsCoresAndMemory) {
  ::setenv("OPENACL_AI_CORES", "5", 1);
  ::setenv("OPENACL_DEVICE_MEMORY_MB", "32", 1);
  aclError e = aclInit(nullptr);
  ::unsetenv("OPENACL_AI_CORES");
  ::unsetenv("OPENACL_DEVICE_MEMORY_MB");
  ASSERT_ACL_OK(e);
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  EXPECT_EQ(cores, 5);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free_bytes = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  EXPECT_EQ(total, size_t{32} << 20);
}

// The SoC name: a 910B part unless acl.json ("soc_name") or OPENACL_SOC_NAME (which wins) says
// otherwise; npu-smi prints the same name.
TEST_F(R2_Config, SocNameIsA910BPartUnlessConfigured) {
  ::unsetenv("OPENACL_SOC_NAME");
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B3");
  ASSERT_ACL_OK(aclFinalize());

  std::string path = write_temp("soc", R"({"openacl": {"soc_name": "Ascend910B4"}})");
  ASSERT_ACL_OK(aclInit(path.c_str()));
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B4");
  ASSERT_ACL_OK(aclFinalize());

  ::setenv("OPENACL_SOC_NAME", "Ascend310P3", 1);
  aclError e = aclInit(path.c_str());
  ::unsetenv("OPENACL_SOC_NAME");
  std::remove(path.c_str());
  ASSERT_ACL_OK(e);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
}

TEST_F(R2_Config, BadValuesInAclJsonFailWithParseError) {
  for (const char *text :
       {R"({"openacl": {"device_count": "many"}})", R"({"openacl": {"device_count": -1}})",
        R"({"openacl": 5})", R"([1, 2])", R"({"openacl": {"soc_name": ""}})",
        R"({"openacl": {"soc_name": 910}})"}) {
    std::string path = write_temp("badvalue", text);
    EXPECT_ACL_ERROR(ACL_ERROR_PARSE_FILE, aclInit(path.c_str())) << text;
    std::remove(path.c_str());
  }
  EXPECT_ACL_OK(aclInit(nullptr));
}

TEST_F(R2_Config, DefaultDeviceInAclJsonMakesRuntimeCallsWorkWithoutSetDevice) {
  // Reference I6: {"defaultDevice": {"default_device": "0"}}.
  std::string path = write_temp("defdev", R"({"defaultDevice": {"default_device": "1"}})");
  ASSERT_ACL_OK(aclInit(path.c_str()));
  std::remove(path.c_str());
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);
  void *p = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMemsetAsync(p, 64, 0, 64, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(R2_Config, DefaultDeviceAppliesAfterAnEarlierRuntimeBoundThisThread) {
  // The thread's binding to a context of the finalized runtime must not leak into the next.
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  std::string path = write_temp("defdev2", R"({"defaultDevice": {"default_device": "1"}})");
  ASSERT_ACL_OK(aclInit(path.c_str()));
  std::remove(path.c_str());
  int32_t dev = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(dev, 1);
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

// aclInitCallbackRegister / aclFinalizeCallbackRegister: module callbacks around the runtime's
// lifetime.
struct Seen {
  std::vector<std::string> init_configs;
  int finalized = 0;
};

aclError on_init(const char *config, size_t len, void *user) {
  static_cast<Seen *>(user)->init_configs.emplace_back(config, len);
  return ACL_SUCCESS;
}
aclError on_init_other(const char *, size_t, void *) { return ACL_SUCCESS; }
aclError failing_init(const char *, size_t, void *) { return ACL_ERROR_INVALID_FILE; }
aclError on_finalize(void *user) {
  ++static_cast<Seen *>(user)->finalized;
  return ACL_SUCCESS;
}

using R1_Callbacks = BareRuntimeTest;

TEST_F(R1_Callbacks, InitAndFinalizeCallbacksRunAroundTheRuntime) {
  Seen seen;
  const std::string json = R"({"openacl": {"device_count": 1}})";
  const std::string path = write_temp("callbacks", json);
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_init, &seen));
  ASSERT_ACL_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_finalize, &seen));
  EXPECT_TRUE(seen.init_configs.empty());  // not initialized yet
  ASSERT_ACL_OK(aclInit(path.c_str()));
  ASSERT_EQ(seen.init_configs.size(), 1u);
  EXPECT_EQ(seen.init_configs[0], json);  // the acl.json text
  // Registered after aclInit: runs at once.
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, on_init, &seen));
  EXPECT_EQ(seen.init_configs.size(), 2u);
  // One per type, but any number of ACL_REG_TYPE_OTHER.
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR,
                   aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_init_other, nullptr));
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init_other, nullptr));
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init, &seen));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclInitCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(seen.finalized, 1);
  for (auto type : {ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR, ACL_REG_TYPE_OTHER}) {
    ASSERT_ACL_OK(aclInitCallbackUnRegister(type, on_init));
  }
  ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, on_init_other));
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR,
                   aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, on_init));
  ASSERT_ACL_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, on_finalize));
  // Unregistered: nothing runs any more.
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(seen.init_configs.size(), 3u);
  EXPECT_EQ(seen.finalized, 1);
}

TEST_F(R1_Callbacks, AFailingInitCallbackFailsAclInit) {
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, failing_init, nullptr));
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_FILE);
  ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, failing_init));
}

}  // namespace
