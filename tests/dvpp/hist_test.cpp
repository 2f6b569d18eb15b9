// LUT maps, histograms and the pyramid step: acldvppVpcEqualizeHistAsync (remap through the
// three maps, components by name), acldvppVpcCalcHistAsync (counts that add up until
// acldvppClearHist) and acldvppVpcPyrDownAsync (OpenCV's pyrDown), against references written
// out here.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

TEST(LutAndHist, ObjectsHaveThreeDimsOf256) {
  acldvppLutMap *lut = acldvppCreateLutMap();
  ASSERT_NE(lut, nullptr);
  EXPECT_EQ(acldvppGetLutMapDims(lut), 3u);
  uint8_t *map = nullptr;
  uint32_t len = 0;
  ASSERT_EQ(acldvppGetLutMapData(lut, 2, &map, &len), ACL_SUCCESS);
  EXPECT_EQ(len, 256u);
  EXPECT_EQ(map[200], 200);  // identity until written
  EXPECT_EQ(acldvppGetLutMapData(lut, 3, &map, &len), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("dim 3"), std::string::npos) << recent_msg();
  EXPECT_EQ(acldvppGetLutMapData(lut, 0, nullptr, &len), ACL_ERROR_INVALID_PARAM);

  acldvppHist *hist = acldvppCreateHist();
  ASSERT_NE(hist, nullptr);
  EXPECT_EQ(acldvppGetHistDims(hist), 3u);
  uint32_t *bins = nullptr;
  uint16_t n = 0;
  ASSERT_EQ(acldvppGetHistData(hist, 1, &bins, &n), ACL_SUCCESS);
  EXPECT_EQ(n, 256);
  EXPECT_EQ(bins[7], 0u);
  EXPECT_EQ(acldvppGetHistRetCode(hist), 0u);
  // A handle of the other kind is refused, not used.
  EXPECT_EQ(acldvppDestroyHist(reinterpret_cast<acldvppHist *>(lut)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppDestroyLutMap(lut), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyHist(hist), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetHistDims(nullptr), 0u);
  EXPECT_EQ(acldvppGetHistRetCode(nullptr), uint32_t{ACL_ERROR_INVALID_PARAM});
}

std::array<uint8_t *, 3> maps_of(acldvppLutMap *lut) {
  std::array<uint8_t *, 3> m{};
  uint32_t len = 0;
  for (uint32_t d = 0; d < 3; ++d)
    EXPECT_EQ(acldvppGetLutMapData(lut, d, &m[d], &len), ACL_SUCCESS);
  return m;
}

TEST_F(DvppTest, EqualizeHistMapsEachComponentThroughItsTable) {
  acldvppLutMap *lut = acldvppCreateLutMap();
  auto m = maps_of(lut);
  for (int i = 0; i < 256; ++i)
    m[0][i] = uint8_t(255 - i), m[1][i] = uint8_t(i / 2), m[2][i] = uint8_t(i ^ 0x55);
  // NV21 (V before U in memory), odd size: chroma covers the size rounded up.
  const uint32_t w = 45, h = 21, ws = 48, hs = 22, size = ws * hs * 3 / 2;
  std::vector<uint8_t> src = dvt::nv_noise(ws, hs, 21);
  void *in = dvpp_buffer(size, src);
  void *out = dvpp_buffer(size, std::vector<uint8_t>(size, 0));
  acldvppPicDesc *id = pic(in, size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, w, h, ws, hs);
  acldvppPicDesc *od = pic(out, size, PIXEL_FORMAT_YVU_SEMIPLANAR_420, w, h, ws, hs);
  ASSERT_EQ(acldvppVpcEqualizeHistAsync(channel_, id, od, lut, stream_), ACL_SUCCESS)
      << recent_msg();
  // The maps are taken at the call: a write after it does not reach the queued task.
  m[0][0] = 7;
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  std::vector<uint8_t> want(size, 0);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) want[y * ws + x] = uint8_t(255 - src[y * ws + x]);
  for (uint32_t y = 0; y < (h + 1) / 2; ++y)
    for (uint32_t x = 0; x < (w + 1) / 2; ++x) {
      size_t v = ws * hs + y * ws + x * 2;
      want[v] = uint8_t(src[v] ^ 0x55);       // V: table 2
      want[v + 1] = uint8_t(src[v + 1] / 2);  // U: table 1
    }
  EXPECT_EQ(read_back(out, size), want);

  // BGR888: B is component 2.
  const uint32_t rw = 16, rh = 6, rws = 64, rsize = rws * rh;
  std::vector<uint8_t> rgb(rsize);
  for (uint32_t i = 0; i < rsize; ++i) rgb[i] = uint8_t(i * 7);
  void *rin = dvpp_buffer(rsize, rgb);
  void *rout = dvpp_buffer(rsize, std::vector<uint8_t>(rsize, 0));
  m[0][0] = 255;
  ASSERT_EQ(acldvppVpcEqualizeHistAsync(
                channel_, pic(rin, rsize, PIXEL_FORMAT_BGR_888, rw, rh, rws, rh),
                pic(rout, rsize, PIXEL_FORMAT_BGR_888, rw, rh, rws, rh), lut, stream_),
            ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> got = read_back(rout, rsize);
  EXPECT_EQ(got[0], uint8_t(rgb[0] ^ 0x55));
  EXPECT_EQ(got[1], uint8_t(rgb[1] / 2));
  EXPECT_EQ(got[2], uint8_t(255 - rgb[2]));
  EXPECT_EQ(got[rw * 3], 0);  // past the width: not written

  // The output must be the input's format and size.
  acldvppPicDesc *other = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  EXPECT_EQ(acldvppVpcEqualizeHistAsync(channel_, id, other, lut, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("format, width and height"), std::string::npos) << recent_msg();
  EXPECT_EQ(acldvppVpcEqualizeHistAsync(channel_, id, od, nullptr, stream_),
            ACL_ERROR_INVALID_PARAM);
  acldvppDestroyLutMap(lut);
}

TEST_F(DvppTest, CalcHistCountsEachComponentAndAddsUpUntilCleared) {
  const uint32_t w = 30, h = 14, ws = 32, hs = 14, size = ws * hs * 3 / 2;
  std::vector<uint8_t> src = dvt::nv_noise(ws, hs, 4);
  void *in = dvpp_buffer(size, src);
  acldvppPicDesc *id = pic(in, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  std::array<std::array<uint32_t, 256>, 3> want{};
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) ++want[0][src[y * ws + x]];
  for (uint32_t y = 0; y < h / 2; ++y)
    for (uint32_t x = 0; x < w / 2; ++x)
      for (int k = 0; k < 2; ++k) ++want[1 + k][src[ws * hs + y * ws + x * 2 + k]];
  acldvppHist *hist = acldvppCreateHist();
  auto bins = [&](uint32_t d) {
    uint32_t *data = nullptr;
    uint16_t len = 0;
    EXPECT_EQ(acldvppGetHistData(hist, d, &data, &len), ACL_SUCCESS);
    return std::vector<uint32_t>(data, data + len);
  };
  for (int round = 1; round <= 2; ++round) {
    ASSERT_EQ(acldvppVpcCalcHistAsync(channel_, id, hist, nullptr, stream_), ACL_SUCCESS)
        << recent_msg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    for (uint32_t d = 0; d < 3; ++d) {
      std::vector<uint32_t> expect(want[d].begin(), want[d].end());
      for (auto &v : expect) v *= round;
      EXPECT_EQ(bins(d), expect) << "dim " << d << " round " << round;
    }
  }
  EXPECT_EQ(acldvppGetHistRetCode(hist), 0u);
  ASSERT_EQ(acldvppClearHist(hist), ACL_SUCCESS);
  EXPECT_EQ(bins(0), std::vector<uint32_t>(256, 0));
  int reserve = 0;
  EXPECT_EQ(acldvppVpcCalcHistAsync(channel_, id, hist, &reserve, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("reserve must be NULL"), std::string::npos) << recent_msg();
  acldvppDestroyHist(hist);
}

TEST_F(DvppTest, PyrDownIsOpenCvsGaussianStep) {
  const uint32_t w = 45, h = 25, ws = 48, ow = 22, oh = 12, ows = 32;
  std::vector<uint8_t> src = dvt::nv_noise(ws, h, 9);
  src.resize(ws * h);
  void *in = dvpp_buffer(ws * h, src);
  void *out = dvpp_buffer(ows * oh, std::vector<uint8_t>(ows * oh, 0));
  acldvppPicDesc *id = pic(in, ws * h, PIXEL_FORMAT_YUV_400, w, h, ws, h);
  acldvppPicDesc *od = pic(out, ows * oh, PIXEL_FORMAT_YUV_400, ow, oh, ows, oh);
  ASSERT_EQ(acldvppVpcPyrDownAsync(channel_, id, od, nullptr, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const double k[5] = {1, 4, 6, 4, 1};
  auto reflect = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
  std::vector<uint8_t> got = read_back(out, ows * oh);
  int bad = 0;
  for (uint32_t y = 0; y < oh; ++y)
    for (uint32_t x = 0; x < ow; ++x) {
      double sum = 0;
      for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i)
          sum += k[j] * k[i] * src[reflect(2 * y + j - 2, h) * ws + reflect(2 * x + i - 2, w)];
      bad += got[y * ows + x] != uint8_t(std::floor(sum / 256 + 0.5));
    }
  EXPECT_EQ(bad, 0);
  // Output not half the input; a format other than YUV400.
  acldvppPicDesc *wrong = pic(out, ows * oh, PIXEL_FORMAT_YUV_400, 20, oh, ows, oh);
  EXPECT_EQ(acldvppVpcPyrDownAsync(channel_, id, wrong, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("is 22x12"), std::string::npos) << recent_msg();
  acldvppPicDesc *nv12 = pic(in, ws * h, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 44, 16, ws, 16);
  EXPECT_NE(acldvppVpcPyrDownAsync(channel_, nv12, od, nullptr, stream_), ACL_SUCCESS);
  EXPECT_NE(recent_msg().find("PIXEL_FORMAT_YUV_400"), std::string::npos) << recent_msg();
}

}  // namespace
