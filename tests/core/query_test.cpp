// Identity and version queries (reference §A, §D, §F, §G, §J): package versions, stream
// priorities, device status and UUID, stream and event ids, and 32-bit memsets.
#include <cstring>
#include <set>

#include "core/fixture.h"

namespace {

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
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion(static_cast<aclCANNPackageName>(42), &v));
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

}  // namespace
