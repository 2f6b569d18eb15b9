// DVPP memory, channels, picture descriptions and configurations: values round-trip, misuse
// gets the documented error and a message naming the call and the argument.
#include <gtest/gtest.h>

#include <string>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

void expect_msg(const char *api, const char *words) {
  std::string m = recent_msg();
  EXPECT_NE(m.find(api), std::string::npos) << m;
  EXPECT_NE(m.find(words), std::string::npos) << m;
}

TEST(DvppMemoryBare, MallocBeforeInitFails) {
  void *p = nullptr;
  EXPECT_EQ(acldvppMalloc(&p, 64), ACL_ERROR_UNINITIALIZE);
  expect_msg("acldvppMalloc", "");
}

TEST_F(DvppTest, MallocGivesDeviceMemoryForEveryCall) {
  void *p = nullptr;
  ASSERT_EQ(acldvppMalloc(&p, 100), ACL_SUCCESS);
  aclrtPtrAttributes attr{};
  ASSERT_EQ(aclrtPointerGetAttributes(p, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  // CANN rounds up to 32 and adds 32: 160 bytes are usable.
  EXPECT_EQ(aclrtMemset(p, 160, 7, 160), ACL_SUCCESS);
  std::vector<uint8_t> back(160);
  ASSERT_EQ(aclrtMemcpy(back.data(), 160, p, 160, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back[159], 7);
  EXPECT_EQ(aclrtMemset(p, 161, 7, 161), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppFree(p), ACL_SUCCESS);
  EXPECT_EQ(acldvppFree(p), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppFree", "not the start of a live acldvppMalloc allocation");
}

TEST_F(DvppTest, CheckMemTypeTellsDvppMemoryFromDeviceMemory) {
  void *dvpp = nullptr, *dev = nullptr;
  ASSERT_EQ(acldvppMalloc(&dvpp, 100), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&dev, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto check = [](void *p, uint32_t type) {
    uint32_t result = 7;
    EXPECT_EQ(aclrtCheckMemType(&p, 1, type, &result, 0), ACL_SUCCESS);
    return result;
  };
  EXPECT_EQ(check(dvpp, ACL_RT_MEM_TYPE_DVPP), 1u);
  EXPECT_EQ(check(static_cast<char *>(dvpp) + 50, ACL_RT_MEM_TYPE_DVPP), 1u);
  EXPECT_EQ(check(dvpp, ACL_RT_MEM_TYPE_DEV), 0u);
  EXPECT_EQ(check(dev, ACL_RT_MEM_TYPE_DVPP), 0u);
  void *both[2] = {dvpp, dev};
  uint32_t result = 7;
  EXPECT_EQ(aclrtCheckMemType(both, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &result, 0),
            ACL_SUCCESS);
  EXPECT_EQ(result, 1u);
  EXPECT_EQ(acldvppFree(dvpp), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(DvppTest, MallocAndFreeRejectBadArguments) {
  void *p = nullptr;
  EXPECT_EQ(acldvppMalloc(nullptr, 64), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppMalloc", "devPtr is NULL");
  EXPECT_EQ(acldvppMalloc(&p, 0), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppMalloc", "size is 0");
  EXPECT_EQ(acldvppFree(nullptr), ACL_ERROR_INVALID_PARAM);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(acldvppFree(dev), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppFree", "aclrtMalloc");
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(DvppTest, PicDescValuesRoundTrip) {
  void *buf = dvpp_buffer(64);
  acldvppPicDesc *d = pic(buf, 48, PIXEL_FORMAT_YVU_SEMIPLANAR_420, 10, 6, 16, 2);
  EXPECT_EQ(acldvppGetPicDescData(d), buf);
  EXPECT_EQ(acldvppGetPicDescSize(d), 48u);
  EXPECT_EQ(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
  EXPECT_EQ(acldvppGetPicDescWidth(d), 10u);
  EXPECT_EQ(acldvppGetPicDescHeight(d), 6u);
  EXPECT_EQ(acldvppGetPicDescWidthStride(d), 16u);
  EXPECT_EQ(acldvppGetPicDescHeightStride(d), 2u);
  EXPECT_EQ(acldvppSetPicDescRetCode(d, 9), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescRetCode(d), 9u);
  EXPECT_EQ(acldvppSetPicDescFormat(d, static_cast<acldvppPixelFormat>(999)),
            ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppSetPicDescFormat", "not an acldvppPixelFormat");
  EXPECT_EQ(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
  EXPECT_EQ(acldvppSetPicDescWidth(nullptr, 1), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppSetPicDescWidth", "picDesc is NULL");
  EXPECT_EQ(acldvppGetPicDescWidth(nullptr), 0u);
}

TEST_F(DvppTest, AHandleOfAnotherKindIsRefused) {
  acldvppRoiConfig *roi = acldvppCreateRoiConfig(0, 9, 0, 5);
  auto *fake = reinterpret_cast<acldvppPicDesc *>(roi);
  EXPECT_EQ(acldvppSetPicDescWidth(fake, 1), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppSetPicDescWidth", "not a live object of its kind");
  EXPECT_EQ(acldvppDestroyPicDesc(fake), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_SUCCESS);
}

TEST_F(DvppTest, BatchPicDescsAreOwnedByTheBatch) {
  EXPECT_EQ(acldvppCreateBatchPicDesc(0), nullptr);
  expect_msg("acldvppCreateBatchPicDesc", "batchSize is 0");
  acldvppBatchPicDesc *batch = acldvppCreateBatchPicDesc(3);
  ASSERT_NE(batch, nullptr);
  acldvppPicDesc *second = acldvppGetPicDesc(batch, 1);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, acldvppGetPicDesc(batch, 0));
  EXPECT_EQ(acldvppSetPicDescWidth(second, 64), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetPicDescWidth(acldvppGetPicDesc(batch, 1)), 64u);
  EXPECT_EQ(acldvppGetPicDesc(batch, 3), nullptr);
  expect_msg("acldvppGetPicDesc", "index 3 is past the batch of 3");
  EXPECT_EQ(acldvppDestroyPicDesc(second), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppDestroyPicDesc", "destroy the batch instead");
  EXPECT_EQ(acldvppDestroyBatchPicDesc(batch), ACL_SUCCESS);
}

TEST_F(DvppTest, ConfigsRoundTripAndValidate) {
  acldvppRoiConfig *roi = acldvppCreateRoiConfig(2, 11, 4, 9);
  EXPECT_EQ(acldvppSetRoiConfigRight(roi, 21), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetRoiConfig(nullptr, 0, 1, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyRoiConfig(roi), ACL_SUCCESS);

  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  EXPECT_EQ(acldvppGetResizeConfigInterpolation(rc), 0u);
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(rc, 2), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetResizeConfigInterpolation(rc), 2u);
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(rc, 5), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  expect_msg("acldvppSetResizeConfigInterpolation", "high-order");
  EXPECT_EQ(acldvppSetResizeConfigInterpolation(rc, 6), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppGetResizeConfigInterpolation(rc), 2u);
  EXPECT_EQ(acldvppDestroyResizeConfig(rc), ACL_SUCCESS);

  acldvppJpegeConfig *jc = acldvppCreateJpegeConfig();
  EXPECT_EQ(acldvppSetJpegeConfigLevel(jc, 75), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetJpegeConfigLevel(jc), 75u);
  EXPECT_EQ(acldvppSetJpegeConfigLevel(jc, 101), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppSetJpegeConfigLevel", "level 101");
  EXPECT_EQ(acldvppDestroyJpegeConfig(jc), ACL_SUCCESS);

  acldvppBorderConfig *bc = acldvppCreateBorderConfig();
  EXPECT_EQ(acldvppSetBorderConfigValue(bc, 2, 17.5), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetBorderConfigValue(bc, 2), 17.5);
  EXPECT_EQ(acldvppSetBorderConfigValue(bc, 4, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetBorderConfigBorderType(bc, BORDER_REFLECT_101), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetBorderConfigBorderType(bc), BORDER_REFLECT_101);
  EXPECT_EQ(acldvppSetBorderConfigBorderType(bc, static_cast<acldvppBorderType>(4)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetBorderConfigTop(bc, 1), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigBottom(bc, 2), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigLeft(bc, 3), ACL_SUCCESS);
  EXPECT_EQ(acldvppSetBorderConfigRight(bc, 4), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetBorderConfigTop(bc) + 10 * acldvppGetBorderConfigBottom(bc) +
                100 * acldvppGetBorderConfigLeft(bc) + 1000 * acldvppGetBorderConfigRight(bc),
            4321u);
  EXPECT_EQ(acldvppDestroyBorderConfig(bc), ACL_SUCCESS);
}

TEST_F(DvppTest, ChannelLifecycle) {
  EXPECT_NE(acldvppGetChannelDescChannelId(channel_), 0u);
  EXPECT_EQ(acldvppCreateChannel(channel_), ACL_ERROR_INVALID_PARAM);
  expect_msg("acldvppCreateChannel", "already has a channel");
  EXPECT_EQ(acldvppSetChannelDescMode(channel_, DVPP_CHNMODE_VPC), ACL_ERROR_INVALID_PARAM);

  acldvppChannelDesc *c = acldvppCreateChannelDesc();
  EXPECT_EQ(acldvppGetChannelDescChannelId(c), 0u);
  EXPECT_EQ(acldvppDestroyChannel(c), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetChannelDescMode(c, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetChannelDescMode(c, DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
  uint32_t matrix = ACL_DVPP_CSC_MATRIX_BT709_NARROW, got = 0;
  size_t ret_size = 0;
  EXPECT_EQ(acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof matrix, &matrix),
            ACL_SUCCESS);
  EXPECT_EQ(acldvppGetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof got, &ret_size, &got),
            ACL_SUCCESS);
  EXPECT_EQ(got, matrix);
  EXPECT_EQ(ret_size, sizeof got);
  EXPECT_EQ(acldvppCreateChannel(c), ACL_SUCCESS);
  EXPECT_NE(acldvppGetChannelDescChannelId(c), acldvppGetChannelDescChannelId(channel_));
  EXPECT_EQ(acldvppDestroyChannel(c), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannelDesc(c), ACL_SUCCESS);
}

}  // namespace
