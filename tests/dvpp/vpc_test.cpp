// VPC against a straightforward reference of the documented formulas (CANN: bilinear and
// nearest "as OpenCV": pixel centres at +0.5 for bilinear, floor(dst * scale) for nearest),
// applied to luma and to the interleaved chroma plane; and the alignment rules.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::max_diff;
using dvt::recent_msg;
using dvt::reference_plane;
using dvt::Region;

// The whole YUV420SP reference: luma, then chroma at half the coordinates.
void reference(const std::vector<uint8_t> &in, uint32_t iws, uint32_t ihs, Region crop,
               std::vector<uint8_t> &out, uint32_t ows, uint32_t ohs, Region paste, bool nearest,
               bool swap) {
  reference_plane(in.data(), iws, crop, out.data(), ows, paste, 1, nearest, false);
  // Chroma covers half the pixels, rounded up (a whole picture may have an odd size).
  auto half = [](uint32_t n) { return (n + 1) / 2; };
  Region cc{crop.left / 2, crop.left / 2 + half(crop.w()) - 1, crop.top / 2,
            crop.top / 2 + half(crop.h()) - 1};
  Region pc{paste.left / 2, paste.left / 2 + half(paste.w()) - 1, paste.top / 2,
            paste.top / 2 + half(paste.h()) - 1};
  reference_plane(in.data() + iws * ihs, iws, cc, out.data() + ows * ohs, ows, pc, 2, nearest,
                  swap);
}

struct ResizeCase {
  uint32_t iw, ih, ow, oh, interpolation;
};

class VpcResize : public DvppTest, public ::testing::WithParamInterface<ResizeCase> {};

TEST_P(VpcResize, MatchesTheDocumentedFormulaWithinOne) {
  const ResizeCase c = GetParam();
  const uint32_t iws = (c.iw + 15) / 16 * 16, ihs = (c.ih + 1) / 2 * 2;
  const uint32_t ows = (c.ow + 15) / 16 * 16, ohs = (c.oh + 1) / 2 * 2;
  std::vector<uint8_t> src = dvt::nv_noise(iws, ihs, c.iw * 31 + c.oh);
  // Smooth part on top so that bilinear rounding shows on gradients as well as noise.
  for (uint32_t y = 0; y < ihs / 2; ++y)
    for (uint32_t x = 0; x < iws; ++x) src[y * iws + x] = uint8_t(x + y);
  const uint32_t in_size = iws * ihs * 3 / 2, out_size = ows * ohs * 3 / 2;
  void *in = dvpp_buffer(in_size, src);
  void *out = dvpp_buffer(out_size, std::vector<uint8_t>(out_size, 0));
  acldvppPicDesc *id = pic(in, in_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, c.iw, c.ih, iws, ihs);
  acldvppPicDesc *od = pic(out, out_size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, c.ow, c.oh, ows, ohs);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppSetResizeConfigInterpolation(rc, c.interpolation), ACL_SUCCESS);
  ASSERT_EQ(acldvppVpcResizeAsync(channel_, id, od, rc, stream_), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  std::vector<uint8_t> want(out_size, 0);
  const bool nearest = c.interpolation == 2 || c.interpolation == 4;
  reference(src, iws, ihs, {0, c.iw - 1, 0, c.ih - 1}, want, ows, ohs, {0, c.ow - 1, 0, c.oh - 1},
            nearest, true);
  EXPECT_LE(max_diff(read_back(out, out_size), want), nearest ? 0 : 1);
  acldvppDestroyResizeConfig(rc);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, VpcResize,
    ::testing::Values(ResizeCase{640, 480, 224, 224, 0}, ResizeCase{640, 480, 224, 224, 1},
                      ResizeCase{100, 60, 320, 180, 1}, ResizeCase{1920, 1080, 224, 224, 2},
                      ResizeCase{96, 50, 250, 100, 2}, ResizeCase{64, 64, 64, 64, 3},
                      ResizeCase{300, 202, 150, 300, 4},
                      // The AVX-512 kernels' cases (rows of 128 bytes and more): the benchmark's
                      // shrink, an enlargement, a row of exactly one 128-byte window, wider and
                      // lower at once.
                      ResizeCase{1920, 1080, 224, 224, 1}, ResizeCase{200, 120, 1000, 600, 1},
                      ResizeCase{128, 96, 40, 30, 1}, ResizeCase{160, 480, 640, 240, 1}));

// acllite describes a JPEGD output with the JPEG's own size, odd or not, and JPEGD's strides.
TEST_F(DvppTest, OddSizedPicturesResizeAsAclliteDescribesThem) {
  const uint32_t iw = 301, ih = 203, iws = 384, ihs = 208, ow = 225, oh = 111, ows = 240, ohs = 112;
  std::vector<uint8_t> src = dvt::nv_noise(iws, ihs, 5);
  const uint32_t in_size = iws * ihs * 3 / 2, out_size = ows * ohs * 3 / 2;
  void *in = dvpp_buffer(in_size, src);
  void *out = dvpp_buffer(out_size, std::vector<uint8_t>(out_size, 0));
  acldvppPicDesc *id = pic(in, in_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, iw, ih, iws, ihs);
  acldvppPicDesc *od = pic(out, out_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ows, ohs);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppVpcResizeAsync(channel_, id, od, rc, stream_), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> want(out_size, 0);
  reference(src, iws, ihs, {0, iw - 1, 0, ih - 1}, want, ows, ohs, {0, ow - 1, 0, oh - 1}, false,
            false);
  EXPECT_LE(max_diff(read_back(out, out_size), want), 1);
  acldvppDestroyResizeConfig(rc);
}

TEST_F(DvppTest, CropAndPasteTouchOnlyThePasteArea) {
  const uint32_t iw = 320, ih = 240, ow = 256, oh = 128;
  std::vector<uint8_t> src = dvt::nv_noise(iw, ih, 7);
  const uint32_t in_size = iw * ih * 3 / 2, out_size = ow * oh * 3 / 2;
  std::vector<uint8_t> background(out_size, 0x5A);
  void *in = dvpp_buffer(in_size, src);
  void *out = dvpp_buffer(out_size, background);
  acldvppPicDesc *id = pic(in, in_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, iw, ih, iw, ih);
  acldvppPicDesc *od = pic(out, out_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ow, oh);
  acldvppRoiConfig *crop = acldvppCreateRoiConfig(10, 209, 20, 119);  // 200x100
  acldvppRoiConfig *paste = acldvppCreateRoiConfig(32, 131, 8, 57);   // 100x50
  ASSERT_EQ(acldvppVpcCropAndPasteAsync(channel_, id, od, crop, paste, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> want = background;
  reference(src, iw, ih, {10, 209, 20, 119}, want, ow, oh, {32, 131, 8, 57}, false, false);
  std::vector<uint8_t> got = read_back(out, out_size);
  EXPECT_LE(max_diff(got, want), 1);
  EXPECT_EQ(got[0], 0x5A);
  EXPECT_EQ(got[out_size - 1], 0x5A);

  // Crop alone resizes the region to the whole output.
  ASSERT_EQ(acldvppVpcCropAsync(channel_, id, od, crop, stream_), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> whole(out_size, 0);
  reference(src, iw, ih, {10, 209, 20, 119}, whole, ow, oh, {0, ow - 1, 0, oh - 1}, false, false);
  EXPECT_LE(max_diff(read_back(out, out_size), whole), 1);
  acldvppDestroyRoiConfig(crop);
  acldvppDestroyRoiConfig(paste);
}

TEST_F(DvppTest, BatchCropCutsEachRegion) {
  const uint32_t iw = 128, ih = 64, ow = 32, oh = 16;
  std::vector<uint8_t> src = dvt::nv_noise(iw, ih, 3);
  const uint32_t in_size = iw * ih * 3 / 2, out_size = ow * oh * 3 / 2;
  acldvppBatchPicDesc *srcs = acldvppCreateBatchPicDesc(1);
  acldvppBatchPicDesc *dsts = acldvppCreateBatchPicDesc(2);
  void *in = dvpp_buffer(in_size, src);
  acldvppPicDesc *s0 = acldvppGetPicDesc(srcs, 0);
  acldvppSetPicDescData(s0, in);
  acldvppSetPicDescSize(s0, in_size);
  acldvppSetPicDescFormat(s0, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(s0, iw);
  acldvppSetPicDescHeight(s0, ih);
  acldvppSetPicDescWidthStride(s0, iw);
  acldvppSetPicDescHeightStride(s0, ih);
  void *outs[2];
  for (uint32_t i = 0; i < 2; ++i) {
    outs[i] = dvpp_buffer(out_size);
    acldvppPicDesc *d = acldvppGetPicDesc(dsts, i);
    acldvppSetPicDescData(d, outs[i]);
    acldvppSetPicDescSize(d, out_size);
    acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(d, ow);
    acldvppSetPicDescHeight(d, oh);
    acldvppSetPicDescWidthStride(d, ow);
    acldvppSetPicDescHeightStride(d, oh);
  }
  acldvppRoiConfig *areas[2] = {acldvppCreateRoiConfig(0, 31, 0, 15),
                                acldvppCreateRoiConfig(64, 127, 32, 63)};
  uint32_t roi_nums[1] = {2};
  ASSERT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 1, dsts, areas, stream_),
            ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  Region regions[2] = {{0, 31, 0, 15}, {64, 127, 32, 63}};
  for (int i = 0; i < 2; ++i) {
    std::vector<uint8_t> want(out_size, 0);
    reference(src, iw, ih, regions[i], want, ow, oh, {0, ow - 1, 0, oh - 1}, false, false);
    EXPECT_LE(max_diff(read_back(outs[i], out_size), want), 1) << "region " << i;
  }
  // A bad region is named by its index.
  acldvppSetRoiConfigLeft(areas[1], 65);
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 1, dsts, areas, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("cropAreas[1]: left and top must be even"), std::string::npos)
      << recent_msg();
  acldvppSetRoiConfigLeft(areas[1], 64);
  // More regions than destination pictures.
  roi_nums[0] = 3;
  EXPECT_EQ(acldvppVpcBatchCropAsync(channel_, srcs, roi_nums, 1, dsts, areas, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("roiNums add up to 3"), std::string::npos) << recent_msg();
  for (auto *a : areas) acldvppDestroyRoiConfig(a);
  acldvppDestroyBatchPicDesc(srcs);
  acldvppDestroyBatchPicDesc(dsts);
}

// Each region resized to the output less its border, then the border: constant (Y, U, V
// values) or replicate, the chroma plane taking half.
TEST_F(DvppTest, BatchCropResizeMakeBorderResizesIntoTheOutputLessTheBorder) {
  const uint32_t iw = 128, ih = 64, ow = 64, oh = 32, in_size = iw * ih * 3 / 2,
                 out_size = ow * oh * 3 / 2;
  std::vector<uint8_t> src = dvt::nv_noise(iw, ih, 13);
  acldvppBatchPicDesc *srcs = acldvppCreateBatchPicDesc(1);
  acldvppBatchPicDesc *dsts = acldvppCreateBatchPicDesc(2);
  auto describe = [](acldvppPicDesc *d, void *data, uint32_t size, uint32_t w, uint32_t h) {
    acldvppSetPicDescData(d, data);
    acldvppSetPicDescSize(d, size);
    acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(d, w);
    acldvppSetPicDescHeight(d, h);
    acldvppSetPicDescWidthStride(d, w);
    acldvppSetPicDescHeightStride(d, h);
  };
  describe(acldvppGetPicDesc(srcs, 0), dvpp_buffer(in_size, src), in_size, iw, ih);
  void *outs[2];
  for (uint32_t i = 0; i < 2; ++i)
    describe(acldvppGetPicDesc(dsts, i), outs[i] = dvpp_buffer(out_size), out_size, ow, oh);
  Region regions[2] = {{0, 63, 0, 31}, {32, 127, 20, 63}};
  acldvppRoiConfig *areas[2];
  acldvppBorderConfig *borders[2];
  const uint32_t top[2] = {4, 0}, bottom[2] = {2, 8}, left[2] = {8, 2}, right[2] = {6, 0};
  for (int i = 0; i < 2; ++i) {
    areas[i] = acldvppCreateRoiConfig(regions[i].left, regions[i].right, regions[i].top,
                                      regions[i].bottom);
    borders[i] = acldvppCreateBorderConfig();
    acldvppSetBorderConfigBorderType(borders[i], i == 0 ? BORDER_CONSTANT : BORDER_REPLICATE);
    acldvppSetBorderConfigTop(borders[i], top[i]);
    acldvppSetBorderConfigBottom(borders[i], bottom[i]);
    acldvppSetBorderConfigLeft(borders[i], left[i]);
    acldvppSetBorderConfigRight(borders[i], right[i]);
    for (uint32_t k = 0; k < 3; ++k) acldvppSetBorderConfigValue(borders[i], k, 30.0 + 50 * k);
  }
  uint32_t roi_nums[1] = {2};
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppVpcBatchCropResizeMakeBorderAsync(channel_, srcs, roi_nums, 1, dsts, areas,
                                                     borders, rc, stream_),
            ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  for (int i = 0; i < 2; ++i) {
    const uint32_t inner_w = ow - left[i] - right[i], inner_h = oh - top[i] - bottom[i];
    std::vector<uint8_t> inner(inner_w * inner_h * 3 / 2, 0);
    reference(src, iw, ih, regions[i], inner, inner_w, inner_h, {0, inner_w - 1, 0, inner_h - 1},
              false, false);
    std::vector<uint8_t> got = read_back(outs[i], out_size);
    auto clamp = [](int64_t v, int64_t n) { return std::clamp<int64_t>(v, 0, n - 1); };
    int worst = 0;
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x) {
        int64_t sy = int64_t(y) - top[i], sx = int64_t(x) - left[i];
        bool outside = sy < 0 || sx < 0 || sy >= inner_h || sx >= inner_w;
        int want =
            outside && i == 0 ? 30 : inner[clamp(sy, inner_h) * inner_w + clamp(sx, inner_w)];
        worst = std::max(worst, std::abs(want - got[y * ow + x]));
      }
    for (uint32_t y = 0; y < oh / 2; ++y)
      for (uint32_t x = 0; x < ow / 2; ++x)
        for (int k = 0; k < 2; ++k) {
          int64_t sy = int64_t(y) - top[i] / 2, sx = int64_t(x) - left[i] / 2;
          bool outside = sy < 0 || sx < 0 || sy >= inner_h / 2 || sx >= inner_w / 2;
          int want = outside && i == 0
                         ? 80 + 50 * k
                         : inner[inner_w * inner_h + clamp(sy, inner_h / 2) * inner_w +
                                 clamp(sx, inner_w / 2) * 2 + k];
          worst = std::max(worst, std::abs(want - got[ow * oh + y * ow + x * 2 + k]));
        }
    EXPECT_LE(worst, 1) << "region " << i;
  }
  // CANN takes constant and replicate borders only here.
  acldvppSetBorderConfigBorderType(borders[1], BORDER_REFLECT);
  EXPECT_EQ(acldvppVpcBatchCropResizeMakeBorderAsync(channel_, srcs, roi_nums, 1, dsts, areas,
                                                     borders, rc, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("borderCfgs[1]"), std::string::npos) << recent_msg();
  for (int i = 0; i < 2; ++i)
    acldvppDestroyRoiConfig(areas[i]), acldvppDestroyBorderConfig(borders[i]);
  acldvppDestroyResizeConfig(rc);
  acldvppDestroyBatchPicDesc(srcs);
  acldvppDestroyBatchPicDesc(dsts);
}

TEST_F(DvppTest, VpcRefusesMisalignedTooSmallAndForeignBuffers) {
  const uint32_t w = 64, h = 32, size = w * h * 3 / 2;
  void *in = dvpp_buffer(size, dvt::nv_noise(w, h, 1));
  void *out = dvpp_buffer(size, std::vector<uint8_t>(size, 9));
  acldvppPicDesc *id = pic(in, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  auto expect_refused = [&](acldvppPicDesc *od, aclError code, const char *words) {
    EXPECT_EQ(acldvppVpcResizeAsync(channel_, id, od, rc, stream_), code);
    std::string m = recent_msg();
    EXPECT_NE(m.find("acldvppVpcResizeAsync: "), std::string::npos) << m;
    EXPECT_NE(m.find(words), std::string::npos) << m;
  };
  expect_refused(pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 40, 32, 40, 32),
                 ACL_ERROR_INVALID_PARAM, "widthStride 40 must be a multiple of 16");
  expect_refused(pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 31, 64, 31),
                 ACL_ERROR_INVALID_PARAM, "heightStride 31 must be a multiple of 2");
  expect_refused(pic(out, size - 1, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32, 64, 32),
                 ACL_ERROR_INVALID_PARAM, "is below widthStride * heightStride * 3 / 2");
  expect_refused(pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 8, 32, 16, 32),
                 ACL_ERROR_INVALID_PARAM, "outside VPC's picture sizes");
  expect_refused(pic(out, size, PIXEL_FORMAT_RGB_888, 64, 32, 192, 32),
                 ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "PIXEL_FORMAT_RGB_888");
  std::vector<uint8_t> host(size);
  expect_refused(pic(host.data(), size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32, 64, 32),
                 ACL_ERROR_INVALID_PARAM, "outputDesc data is not device memory");
  // A DVPP buffer declared larger than its allocation (rounded to 32, plus 32).
  void *small = dvpp_buffer(1000);
  expect_refused(pic(small, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32, 64, 32),
                 ACL_ERROR_INVALID_PARAM, "its acldvppMalloc allocation holds 1056");
  // Scale outside [1/32, 16]: 1024 wide to 10 wide.
  const uint32_t bw = 1024, bsize = bw * 32 * 3 / 2;
  void *big = dvpp_buffer(bsize);
  acldvppPicDesc *bd = pic(big, bsize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, bw, 32, bw, 32);
  acldvppPicDesc *tiny = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 10, 32, 16, 32);
  EXPECT_EQ(acldvppVpcResizeAsync(channel_, bd, tiny, rc, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("scale range [1/32, 16]"), std::string::npos) << recent_msg();
  // Regions: odd left, outside the picture, paste not 16-aligned.
  acldvppPicDesc *od = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h);
  acldvppRoiConfig *bad = acldvppCreateRoiConfig(1, 20, 0, 9);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, id, od, bad, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("cropArea: left and top must be even"), std::string::npos)
      << recent_msg();
  acldvppSetRoiConfig(bad, 0, 65, 0, 9);
  EXPECT_EQ(acldvppVpcCropAsync(channel_, id, od, bad, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("is not inside the 64x32 picture"), std::string::npos)
      << recent_msg();
  acldvppRoiConfig *crop = acldvppCreateRoiConfig(0, 19, 0, 9);
  acldvppSetRoiConfig(bad, 2, 21, 0, 9);
  EXPECT_EQ(acldvppVpcCropAndPasteAsync(channel_, id, od, crop, bad, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("pasteArea: the left of a paste area must be a multiple of 16"),
            std::string::npos)
      << recent_msg();
  // An uncreated channel.
  acldvppChannelDesc *none = acldvppCreateChannelDesc();
  EXPECT_EQ(acldvppVpcResizeAsync(none, id, od, rc, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("call acldvppCreateChannel first"), std::string::npos)
      << recent_msg();
  acldvppDestroyChannelDesc(none);
  // Nothing ran: the output keeps its bytes.
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> got = read_back(out, size);
  EXPECT_EQ(std::count(got.begin(), got.end(), 9), static_cast<long>(size));
  acldvppDestroyRoiConfig(bad);
  acldvppDestroyRoiConfig(crop);
  acldvppDestroyResizeConfig(rc);
}

}  // namespace
