// VPC color conversion (known values of the BT.601 / BT.709 matrices, round trips, swaps) and
// make border (against OpenCV's border rules written out here).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

class Color : public DvppTest {
 protected:
  // An RGB888 picture of 32x16 with a red left half and a white right half.
  std::vector<uint8_t> red_white() {
    std::vector<uint8_t> rgb(kW * 3 * kH);
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x) {
        uint8_t *p = &rgb[(y * kW + x) * 3];
        p[0] = 255, p[1] = p[2] = x < kW / 2 ? 0 : 255;
      }
    return rgb;
  }
  aclError convert(acldvppPicDesc *in, acldvppPicDesc *out) {
    aclError e = acldvppVpcConvertColorAsync(channel_, in, out, stream_);
    if (e == ACL_SUCCESS) e = aclrtSynchronizeStream(stream_);
    return e;
  }
  static constexpr uint32_t kW = 32, kH = 16, kRgb = kW * 3 * kH, kNv = kW * kH * 3 / 2;
};

TEST_F(Color, RgbToYuvGivesTheMatrixValues) {
  void *rgb = dvpp_buffer(kRgb, red_white());
  acldvppPicDesc *in = pic(rgb, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW * 3, kH);
  void *nv = dvpp_buffer(kNv);
  acldvppPicDesc *out = pic(nv, kNv, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kW, kH);
  ASSERT_EQ(convert(in, out), ACL_SUCCESS) << recent_msg();
  std::vector<uint8_t> got = read_back(nv, kNv);
  // BT.601 full range (the default matrix): red is Y 76, Cb 85, Cr 255; white 255, 128, 128.
  EXPECT_EQ(got[0], 76);
  EXPECT_EQ(got[kW - 1], 255);
  EXPECT_EQ(got[kW * kH], 85);
  EXPECT_EQ(got[kW * kH + 1], 255);
  EXPECT_EQ(got[kW * kH + kW - 2], 128);
  EXPECT_EQ(got[kW * kH + kW - 1], 128);

  // BT.709 narrow: white is Y 235; red Y 63, Cb 102, Cr 240.
  uint32_t matrix = ACL_DVPP_CSC_MATRIX_BT709_NARROW;
  ASSERT_EQ(acldvppDestroyChannel(channel_), ACL_SUCCESS);
  ASSERT_EQ(
      acldvppSetChannelDescParam(channel_, ACL_DVPP_CSC_MATRIX_UINT32, sizeof matrix, &matrix),
      ACL_SUCCESS);
  ASSERT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
  ASSERT_EQ(convert(in, out), ACL_SUCCESS);
  got = read_back(nv, kNv);
  EXPECT_EQ(got[kW - 1], 235);
  EXPECT_EQ(got[0], 63);
  EXPECT_EQ(got[kW * kH], 102);
  EXPECT_EQ(got[kW * kH + 1], 240);
}

TEST_F(Color, YuvToRgbRoundTripsAndSwaps) {
  std::vector<uint8_t> rgb(kRgb);
  for (uint32_t i = 0; i < kRgb; ++i)
    rgb[i] = static_cast<uint8_t>(60 + (i / 3) % kW * 2 + (i % 3) * 20);
  void *a = dvpp_buffer(kRgb, rgb), *nv = dvpp_buffer(kNv), *nv21 = dvpp_buffer(kNv),
       *bgr = dvpp_buffer(kRgb);
  acldvppPicDesc *rgb_desc = pic(a, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW * 3, kH);
  acldvppPicDesc *nv_desc = pic(nv, kNv, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kW, kH);
  acldvppPicDesc *nv21_desc = pic(nv21, kNv, PIXEL_FORMAT_YVU_SEMIPLANAR_420, kW, kH, kW, kH);
  acldvppPicDesc *bgr_desc = pic(bgr, kRgb, PIXEL_FORMAT_BGR_888, kW, kH, kW * 3, kH);
  ASSERT_EQ(convert(rgb_desc, nv_desc), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(convert(nv_desc, nv21_desc), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(convert(nv21_desc, bgr_desc), ACL_SUCCESS) << recent_msg();
  std::vector<uint8_t> n12 = read_back(nv, kNv), n21 = read_back(nv21, kNv),
                       back = read_back(bgr, kRgb);
  for (uint32_t i = 0; i < kW * kH; ++i) ASSERT_EQ(n12[i], n21[i]);
  for (uint32_t i = kW * kH; i < kNv; i += 2)
    ASSERT_TRUE(n12[i] == n21[i + 1] && n12[i + 1] == n21[i]) << i;
  int worst = 0;
  for (uint32_t p = 0; p < kW * kH; ++p)
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, std::abs(back[p * 3 + 2 - k] - rgb[p * 3 + k]));
  EXPECT_LE(worst, 4);  // chroma is shared by 2x2 pixels; this picture's chroma varies slowly
}

TEST_F(Color, ConvertColorErrors) {
  void *a = dvpp_buffer(kRgb), *nv = dvpp_buffer(kNv);
  acldvppPicDesc *rgb = pic(a, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW * 3, kH);
  EXPECT_EQ(
      acldvppVpcConvertColorAsync(
          channel_, rgb, pic(nv, kNv, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 16, 16, 16, 16), stream_),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("color conversion keeps the size"), std::string::npos)
      << recent_msg();
  EXPECT_EQ(acldvppVpcConvertColorAsync(
                channel_, pic(a, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW, kH),
                pic(nv, kNv, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kW, kH), stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("at least 96 (width * 3)"), std::string::npos) << recent_msg();
  EXPECT_EQ(acldvppVpcConvertColorAsync(
                channel_, pic(a, kRgb, PIXEL_FORMAT_YUV_400, kW, kH, kW, kH), rgb, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(acldvppVpcConvertColorAsync(
                channel_, pic(a, kRgb, PIXEL_FORMAT_RGBA_8888, kW, kH, kW * 3, kH), rgb, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("(width * 4)"), std::string::npos) << recent_msg();
}

// The 32-bit formats (vpc_sample's --out_format 14): the RGB888 conversion's channels in their
// places, alpha 255; and back to RGB888, alpha dropped.
TEST_F(Color, ThirtyTwoBitRgbHoldsTheRgb888ChannelsAndOpaqueAlpha) {
  void *nv = dvpp_buffer(kNv, dvt::nv_noise(kW, kH, 21)), *rgb = dvpp_buffer(kRgb);
  acldvppPicDesc *nv_desc = pic(nv, kNv, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kW, kH);
  ASSERT_EQ(convert(nv_desc, pic(rgb, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW * 3, kH)), ACL_SUCCESS)
      << recent_msg();
  const std::vector<uint8_t> want = read_back(rgb, kRgb);
  const uint32_t size = kW * 4 * kH;
  struct Case {
    acldvppPixelFormat format;
    int r, g, b, a;
  };
  for (Case c :
       {Case{PIXEL_FORMAT_ARGB_8888, 1, 2, 3, 0}, Case{PIXEL_FORMAT_ABGR_8888, 3, 2, 1, 0},
        Case{PIXEL_FORMAT_RGBA_8888, 0, 1, 2, 3}, Case{PIXEL_FORMAT_BGRA_8888, 2, 1, 0, 3}}) {
    void *out = dvpp_buffer(size);
    acldvppPicDesc *out_desc = pic(out, size, c.format, kW, kH, kW * 4, kH);
    ASSERT_EQ(convert(nv_desc, out_desc), ACL_SUCCESS) << recent_msg();
    const std::vector<uint8_t> got = read_back(out, size);
    for (uint32_t p = 0; p < kW * kH; ++p) {
      ASSERT_EQ(got[p * 4 + c.r], want[p * 3]) << c.format << " pixel " << p;
      ASSERT_EQ(got[p * 4 + c.g], want[p * 3 + 1]) << c.format << " pixel " << p;
      ASSERT_EQ(got[p * 4 + c.b], want[p * 3 + 2]) << c.format << " pixel " << p;
      ASSERT_EQ(got[p * 4 + c.a], 255) << c.format << " pixel " << p;
    }
    void *back = dvpp_buffer(kRgb);
    ASSERT_EQ(convert(out_desc, pic(back, kRgb, PIXEL_FORMAT_RGB_888, kW, kH, kW * 3, kH)),
              ACL_SUCCESS)
        << recent_msg();
    EXPECT_EQ(read_back(back, kRgb), want) << c.format;
  }
}

// OpenCV's borderInterpolate, written out for the test.
int64_t border_source(int64_t i, int64_t n, int type) {
  if (i >= 0 && i < n) return i;
  switch (type) {
    case BORDER_CONSTANT:
      return -1;
    case BORDER_REPLICATE:
      return i < 0 ? 0 : n - 1;
    case BORDER_REFLECT:
      return i < 0 ? -i - 1 : 2 * n - 1 - i;
    default:
      return i < 0 ? -i : 2 * n - 2 - i;  // BORDER_REFLECT_101
  }
}

TEST_F(DvppTest, MakeBorderFollowsOpenCvsRules) {
  const uint32_t w = 32, h = 16, top = 2, bottom = 4, left = 6, right = 10;
  const uint32_t ow = w + left + right, oh = h + top + bottom, ows = 48;
  const uint32_t in_size = w * h * 3 / 2, out_size = ows * oh * 3 / 2;
  std::vector<uint8_t> src = dvt::nv_noise(w, h, 11);
  void *in = dvpp_buffer(in_size, src);
  void *out = dvpp_buffer(out_size);
  acldvppPicDesc *id = pic(in, in_size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, w, h, w, h);
  acldvppPicDesc *od = pic(out, out_size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, ow, oh, ows, oh);
  for (int type : {BORDER_CONSTANT, BORDER_REPLICATE, BORDER_REFLECT, BORDER_REFLECT_101}) {
    acldvppBorderConfig *bc = acldvppCreateBorderConfig();
    acldvppSetBorderConfigBorderType(bc, static_cast<acldvppBorderType>(type));
    acldvppSetBorderConfigTop(bc, top);
    acldvppSetBorderConfigBottom(bc, bottom);
    acldvppSetBorderConfigLeft(bc, left);
    acldvppSetBorderConfigRight(bc, right);
    acldvppSetBorderConfigValue(bc, 0, 16);
    acldvppSetBorderConfigValue(bc, 1, 100);  // U
    acldvppSetBorderConfigValue(bc, 2, 200);  // V
    ASSERT_EQ(acldvppVpcMakeBorderAsync(channel_, id, od, bc, stream_), ACL_SUCCESS)
        << recent_msg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint8_t> got = read_back(out, out_size);
    size_t bad = 0;
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x) {
        int64_t sy = border_source(int64_t(y) - top, h, type),
                sx = border_source(int64_t(x) - left, w, type);
        uint8_t want = sy < 0 || sx < 0 ? 16 : src[sy * w + sx];
        bad += got[y * ows + x] != want;
      }
    for (uint32_t y = 0; y < oh / 2; ++y)
      for (uint32_t x = 0; x < ow / 2; ++x)
        for (int k = 0; k < 2; ++k) {
          int64_t sy = border_source(int64_t(y) - top / 2, h / 2, type);
          int64_t sx = border_source(int64_t(x) - left / 2, w / 2, type);
          uint8_t want = sy < 0 || sx < 0 ? (k == 0 ? 200 : 100)
                                          : src[w * h + sy * w + sx * 2 + k];  // NV21: V first
          bad += got[ows * oh + y * ows + x * 2 + k] != want;
        }
    EXPECT_EQ(bad, 0u) << "border type " << type;
    acldvppSetBorderConfigTop(bc, 3);
    EXPECT_EQ(acldvppVpcMakeBorderAsync(channel_, id, od, bc, stream_), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent_msg().find("must be even"), std::string::npos) << recent_msg();
    acldvppDestroyBorderConfig(bc);
  }
}

}  // namespace
