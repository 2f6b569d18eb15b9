// Identity and version queries (acl/acl_rt.h, acl/acl_base.h): package versions, stream
// priorities, device status and UUID, device id numberings, capabilities, peer access,
// stream, event and task ids, runtime parameters, and 32-bit memsets.
#include <cstring>
#include <set>
#include <thread>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

TEST(Versions, PackagesReportOneCannReleaseInBothForms) {
  char runtime[] = "runtime", driver[] = "driver", bogus[] = "no_such_pkg";
  char text[ACL_PKG_VERSION_MAX_SIZE] = {0};
  ASSERT_ACL_OK(aclsysGetVersionStr(runtime, text));
  EXPECT_STREQ(text, "9.0.0");
  int32_t num = 0;
  ASSERT_ACL_OK(aclsysGetVersionNum(runtime, &num));
  EXPECT_EQ(num, 90000000);  // major * 10^7 + minor * 10^5 + patch * 10^3
  ASSERT_ACL_OK(aclsysGetVersionNum(driver, &num));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(bogus, text));
  EXPECT_NE(oat::recent_msg().find("no_such_pkg"), std::string::npos);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(nullptr, text));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum(runtime, nullptr));
  aclCANNPackageVersion v;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_ACL_OK(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsysGetCANNVersion(static_cast<aclCANNPackageName>(42), &v));
#pragma GCC diagnostic pop
  EXPECT_STREQ(v.version, "9.0.0");
  EXPECT_STREQ(v.majorVersion, "9");
}

TEST(Versions, CannAttributesListWhatTheSimulatorHas) {
  const aclCannAttr *list = nullptr;
  size_t num = 0;
  ASSERT_ACL_OK(aclGetCannAttributeList(&list, &num));
  ASSERT_EQ(num, 2u);
  for (size_t i = 0; i < num; ++i) {
    int32_t v = -1;
    ASSERT_ACL_OK(aclGetCannAttribute(list[i], &v));
    EXPECT_EQ(v, 1) << "listed attribute " << static_cast<int>(list[i]);
  }
  int32_t jit = -1;
  ASSERT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &jit));
  EXPECT_EQ(jit, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &jit));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(nullptr, &num));
}

using Queries = RuntimeTest;

TEST_F(Queries, StreamPriorityRangeMatchesWhatStreamsAccept) {
  int32_t least = -1, greatest = -1;
  ASSERT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(greatest, 0);
  EXPECT_EQ(least, 7);
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&s, static_cast<uint32_t>(least), 0));
  uint32_t p = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &p));
  EXPECT_EQ(p, 7u);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(nullptr, &greatest));
}

TEST_F(Queries, DeviceStatusAndUuid) {
  aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_ABNORMAL;
  ASSERT_ACL_OK(aclrtQueryDeviceStatus(0, &st));
  EXPECT_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_ACL_FAILS(aclrtQueryDeviceStatus(static_cast<int32_t>(count), &st));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(-1, &st));
  aclrtUuid a, b, again;
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &a));
  ASSERT_ACL_OK(aclrtDeviceGetUuid(0, &again));
  EXPECT_EQ(std::memcmp(a.bytes, again.bytes, sizeof(a.bytes)), 0);
  if (count > 1) {
    ASSERT_ACL_OK(aclrtDeviceGetUuid(1, &b));
    EXPECT_NE(std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)), 0);
  }
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetUuid(0, nullptr));
}

TEST_F(Queries, StreamAndEventIdsAreDistinctAndStable) {
  std::set<int32_t> stream_ids;
  std::vector<aclrtStream> streams(4);
  for (auto &s : streams) {
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    int32_t id = -1, again = -2;
    ASSERT_ACL_OK(aclrtStreamGetId(s, &id));
    ASSERT_ACL_OK(aclrtStreamGetId(s, &again));
    EXPECT_EQ(id, again);
    EXPECT_GE(id, 0);
    stream_ids.insert(id);
  }
  int32_t default_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &default_id));  // the default stream has one too
  stream_ids.insert(default_id);
  EXPECT_EQ(stream_ids.size(), 5u);
  aclrtEvent e1 = nullptr, e2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  ASSERT_ACL_OK(aclrtCreateEvent(&e2));
  uint32_t id1 = 0, id2 = 0;
  ASSERT_ACL_OK(aclrtGetEventId(e1, &id1));
  ASSERT_ACL_OK(aclrtGetEventId(e2, &id2));
  EXPECT_NE(id1, id2);
  EXPECT_ACL_OK(aclrtDestroyEvent(e1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtGetEventId(e1, &id1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(e2, nullptr));
  EXPECT_ACL_OK(aclrtDestroyEvent(e2));
  aclrtStream gone = streams[0];
  EXPECT_ACL_OK(aclrtDestroyStream(gone));
  int32_t id = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtStreamGetId(gone, &id));
  for (size_t i = 1; i < streams.size(); ++i) EXPECT_ACL_OK(aclrtDestroyStream(streams[i]));
}

TEST_F(Queries, MemsetD32FillsWordsSyncAndOnAStream) {
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(d, 64, 0, 64));
  ASSERT_ACL_OK(aclrtMemsetD32(d, 64, 0xdeadbeefu, 8));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtMemsetD32Async(static_cast<uint32_t *>(d) + 8, 32, 7u, 4, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  uint32_t host[16];
  ASSERT_ACL_OK(aclrtMemcpy(host, sizeof(host), d, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(host[i], 0xdeadbeefu);
  for (int i = 8; i < 12; ++i) EXPECT_EQ(host[i], 7u);
  for (int i = 12; i < 16; ++i) EXPECT_EQ(host[i], 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtMemsetD32(d, 64, 1u, 17));  // past memSize
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(static_cast<char *>(d) + 2, 32, 1u, 2));
  uint32_t pageable[4];
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(pageable, sizeof(pageable), 1u, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(nullptr, 16, 1u, 4, s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Queries, DeviceIdNumberingsAreOneOnTheSimulator) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  aclError (*maps[])(const int32_t, int32_t *const) = {
      aclrtGetLogicDevIdByUserDevId, aclrtGetUserDevIdByLogicDevId, aclrtGetLogicDevIdByPhyDevId,
      aclrtGetPhyDevIdByLogicDevId,  aclrtGetUserDevIdByPhyDevId,   aclrtGetPhyDevIdByUserDevId};
  for (auto map : maps) {
    for (int32_t id = 0; id < static_cast<int32_t>(count); ++id) {
      int32_t out = -1;
      ASSERT_ACL_OK(map(id, &out));
      EXPECT_EQ(out, id);
    }
    int32_t out = 0;
    EXPECT_ACL_FAILS(map(static_cast<int32_t>(count), &out));
    EXPECT_ACL_FAILS(map(-1, &out));
    EXPECT_ACL_FAILS(map(0, nullptr));
  }
  int32_t out = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetPhyDevIdByUserDevId(static_cast<int32_t>(count), &out));
}

TEST_F(Queries, DeviceCapabilitiesAreAnsweredNotSupported) {
  int32_t v = -1;
  ASSERT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
  EXPECT_EQ(v, ACL_DEV_FEATURE_NOT_SUPPORT);
  ASSERT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
  EXPECT_EQ(v, ACL_DEV_FEATURE_NOT_SUPPORT);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(2), &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetDeviceCapability(99, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
}

TEST_F(Queries, PeerAccessStatusFollowsEnableAndDisable) {
  int32_t can = 0, status = -1;
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(can, 1);
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));  // from the current device, 0
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 1);
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(1, 0, &status));
  EXPECT_EQ(status, 0);  // one direction
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(status, 0);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtDeviceEnablePeerAccess(0, 0));  // itself
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(1, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtDevicePeerAccessStatus(0, 1, nullptr));
}

TEST_F(Queries, ThreadLastTaskIdCountsTheStreamsTasks) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t id = 0;
  for (uint32_t i = 1; i <= 3; ++i) {
    ASSERT_ACL_OK(aclrtMemsetAsync(d, 64, 0, 64, s));
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&id));
    EXPECT_EQ(id, i);
  }
  // Another thread's submissions are its own.
  std::thread other([&] {
    uint32_t mine = 99;
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetThreadLastTaskId(&mine), ACL_SUCCESS);
    EXPECT_EQ(mine, 0u);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  other.join();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetThreadLastTaskId(nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Queries, SysParamOptsForTheProcessAndTheContext) {
  int64_t v = -1;
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 0);  // default
  ASSERT_ACL_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 1);
  // A context reads the process's value until it sets its own.
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 1);
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 0);
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 1);
  ASSERT_ACL_OK(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
  ASSERT_ACL_OK(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v));
  EXPECT_EQ(v, 1);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(9), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, nullptr));
  // A new aclInit starts from the defaults.
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
  EXPECT_EQ(v, 0);
}

TEST_F(Queries, FreeHostWithDevSyncWaitsForTheDevice) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *host = nullptr, *d = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 1 << 20));
  ASSERT_ACL_OK(aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemsetAsync(d, 1 << 20, 1, 1 << 20, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(host, 1 << 20, d, 1 << 20, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtFreeHostWithDevSync(host));
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(host));  // already freed
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtFree(d));
}

TEST_F(Queries, MemUsageInfoReportsTheRuntimesCurrentAndPeakMemory) {
  aclrtMemUsageInfo info[4] = {};
  size_t n = 9;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &n));
  ASSERT_EQ(n, 1u);
  EXPECT_STREQ(info[0].name, "runtime");
  const uint64_t before = info[0].curMemSize;
  void *d = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&d, 8 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &n));
  EXPECT_EQ(info[0].curMemSize, before + (8 << 20));
  EXPECT_GE(info[0].memPeakSize, info[0].curMemSize);
  ASSERT_ACL_OK(aclrtFree(d));
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, info, 4, &n));
  EXPECT_EQ(info[0].curMemSize, before);
  EXPECT_GE(info[0].memPeakSize, before + (8 << 20));  // the peak stays
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, nullptr, 0, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, nullptr, 2, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo(42, info, 4, &n));
}

}  // namespace

namespace {

TEST_F(Queries, DeviceLimitsFollowTheAtlasA2Rules) {
  size_t v = 0;
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
  EXPECT_EQ(v, 32768u);
  ASSERT_ACL_OK(
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 16384));  // <= 32 KiB: no effect
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
  EXPECT_EQ(v, 32768u);
  ASSERT_ACL_OK(
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));  // up to 16 KiB steps
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
  EXPECT_EQ(v, 49152u);
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 2049));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
  EXPECT_EQ(v, 2056u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 1023));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, (size_t{64} << 20) + 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 1024));
  EXPECT_NE(oat::recent_msg().find("SIMT"), std::string::npos) << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &v));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceSetLimit(static_cast<aclrtDeviceLimit>(9), 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nullptr));
  // A stack past 192 KiB is refused when a device is set up with it, as on Atlas A2.
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, size_t{256} << 10));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDevice(1));
  EXPECT_NE(oat::recent_msg().find("192 KiB"), std::string::npos) << oat::recent_msg();
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, size_t{192} << 10));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtResetDevice(1));
}

TEST(DeviceLimits, AclInitRestoresTheDefaults) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4096));
  ASSERT_ACL_OK(aclFinalize());
  size_t v = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE,
                   aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &v));
  EXPECT_EQ(v, size_t{1} << 20);
  ASSERT_ACL_OK(aclFinalize());
}

}  // namespace

namespace {

TEST_F(Queries, UtilizationCountsTheBusyAiCores) {
  auto cube = [] {
    aclrtUtilizationInfo info{};
    EXPECT_ACL_OK(aclrtGetDeviceUtilizationRate(0, &info));
    EXPECT_EQ(info.memoryUtilization, -1);  // not reported, as in CANN
    EXPECT_EQ(info.vectorUtilization, info.cubeUtilization);
    return info.cubeUtilization;
  };
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_TRUE(oat::wait_for([&] { return cube() == 0; })) << "an idle device is at 0%";
  aclrtStream s = new_stream();
  Gate &g = block(s);  // a kernel holds one AI core until the gate opens
  ASSERT_TRUE(g.wait_started());
  EXPECT_GT(cube(), 0);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(oat::wait_for([&] { return cube() == 0; }));
  aclrtUtilizationInfo info{};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, nullptr));
  EXPECT_NE(aclrtGetDeviceUtilizationRate(99, &info), ACL_SUCCESS);
  EXPECT_NE(oat::recent_msg().find("aclrtGetDeviceUtilizationRate"), std::string::npos)
      << oat::recent_msg();
}

}  // namespace
