// JPEGD against libjpeg-turbo (exact, in CANN's YUV420SP layout), JPEGE round trips, PNGD
// against the pixels encoded, and the errors of each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

constexpr uint32_t align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

struct JpegCase {
  uint32_t width, height;
  int h_samp, v_samp, components;
  acldvppPixelFormat format;
};

class JpegDecode : public DvppTest, public ::testing::WithParamInterface<JpegCase> {};

TEST_P(JpegDecode, EqualsLibjpegTurboInCannLayout) {
  const JpegCase c = GetParam();
  std::vector<uint8_t> jpeg = dvt::make_jpeg(c.width, c.height, c.h_samp, c.v_samp, c.components);
  uint32_t w = 0, h = 0;
  int32_t comps = 0;
  acldvppJpegFormat css{};
  ASSERT_EQ(acldvppJpegGetImageInfoV2(jpeg.data(), jpeg.size(), &w, &h, &comps, &css), ACL_SUCCESS);
  EXPECT_EQ(w, c.width);
  EXPECT_EQ(h, c.height);
  EXPECT_EQ(comps, c.components);
  EXPECT_EQ(css, c.components == 1                ? ACL_JPEG_CSS_GRAY
                 : c.h_samp == 2 && c.v_samp == 2 ? ACL_JPEG_CSS_420
                 : c.h_samp == 2                  ? ACL_JPEG_CSS_422
                                                  : ACL_JPEG_CSS_444);
  uint32_t out_size = 0;
  ASSERT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), c.format, &out_size), ACL_SUCCESS);
  const uint32_t ws = align(c.width & ~1u, 128), hs = align(c.height & ~1u, 16);
  EXPECT_EQ(out_size, ws * hs * 3 / 2);

  void *in = dvpp_buffer(jpeg.size(), jpeg);
  void *out = dvpp_buffer(out_size, std::vector<uint8_t>(out_size, 0));
  acldvppPicDesc *d = pic(out, out_size, c.format, 0, 0, 0, 0);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(acldvppGetPicDescWidth(d), c.width & ~1u);
  EXPECT_EQ(acldvppGetPicDescHeight(d), c.height & ~1u);
  EXPECT_EQ(acldvppGetPicDescWidthStride(d), ws);
  EXPECT_EQ(acldvppGetPicDescHeightStride(d), hs);
  EXPECT_EQ(acldvppGetPicDescSize(d), out_size);
  EXPECT_EQ(acldvppGetPicDescRetCode(d), 0u);

  uint32_t rw, rh;
  std::vector<uint8_t> want =
      dvt::reference_nv12(jpeg, c.format == PIXEL_FORMAT_YVU_SEMIPLANAR_420, &rw, &rh);
  std::vector<uint8_t> got = read_back(out, out_size);
  ASSERT_EQ(want.size(), got.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < got.size(); ++i) mismatches += got[i] != want[i];
  EXPECT_EQ(mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Sampling, JpegDecode,
    ::testing::Values(JpegCase{320, 240, 2, 2, 3, PIXEL_FORMAT_YUV_SEMIPLANAR_420},
                      JpegCase{301, 203, 2, 2, 3, PIXEL_FORMAT_YVU_SEMIPLANAR_420},
                      JpegCase{133, 77, 1, 1, 3, PIXEL_FORMAT_YUV_SEMIPLANAR_420},
                      JpegCase{200, 64, 2, 1, 3, PIXEL_FORMAT_YUV_SEMIPLANAR_420},
                      JpegCase{96, 40, 1, 1, 1, PIXEL_FORMAT_YUV_SEMIPLANAR_420}));

TEST_F(DvppTest, JpegDecodeOfFourTwoZeroKeepsTheStoredChroma) {
  // Without interpolation the 2x2 mean of replicated chroma is the stored sample: the chroma
  // plane is the JPEG's own Cb/Cr, which smooth (fancy) upsampling would have changed.
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 32, 2, 2);
  uint32_t w, h;
  std::vector<uint8_t> fancy = dvt::decode_ycbcr(jpeg, &w, &h);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  void *out = dvpp_buffer(size);
  acldvppPicDesc *d = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint8_t> got = read_back(out, size);
  // Luma equals libjpeg-turbo's however chroma is upsampled.
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      ASSERT_EQ(got[y * 128 + x], fancy[(y * w + x) * 3]) << x << "," << y;
}

TEST_F(DvppTest, JpegDecodeErrors) {
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 48, 2, 2);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  void *out = dvpp_buffer(size);
  acldvppPicDesc *d = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);

  std::vector<uint8_t> junk(100, 0x42);
  EXPECT_EQ(acldvppJpegGetImageInfo(junk.data(), junk.size(), nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("acldvppJpegGetImageInfo: data is not a JPEG picture"),
            std::string::npos)
      << recent_msg();
  EXPECT_EQ(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_RGB_888, &size),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  std::vector<uint8_t> progressive = dvt::make_jpeg(64, 48, 2, 2, 3, true);
  EXPECT_EQ(acldvppJpegPredictDecSize(progressive.data(), progressive.size(),
                                      PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
            ACL_ERROR_UNSUPPORTED_JPEG);
  EXPECT_NE(recent_msg().find("progressive"), std::string::npos) << recent_msg();
  EXPECT_EQ(
      acldvppJpegGetImageInfo(progressive.data(), progressive.size(), nullptr, nullptr, nullptr),
      ACL_ERROR_UNSUPPORTED_JPEG);
  std::vector<uint8_t> narrow = dvt::make_jpeg(16, 48, 2, 2);
  EXPECT_EQ(acldvppJpegGetImageInfo(narrow.data(), narrow.size(), nullptr, nullptr, nullptr),
            ACL_ERROR_UNSUPPORTED_JPEG);
  EXPECT_NE(recent_msg().find("16x48 picture (32x32 to 8192x8192)"), std::string::npos)
      << recent_msg();

  // Input not from acldvppMalloc: host memory, then aclrtMalloc memory.
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, jpeg.data(), jpeg.size(), d, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("acldvppJpegDecodeAsync: data is not device memory"),
            std::string::npos)
      << recent_msg();
  void *plain = nullptr;
  ASSERT_EQ(aclrtMalloc(&plain, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, plain, jpeg.size(), d, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("from aclrtMalloc"), std::string::npos) << recent_msg();
  EXPECT_EQ(aclrtFree(plain), ACL_SUCCESS);
  // Past the allocation.
  EXPECT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size() + 4096, d, stream_),
            ACL_ERROR_INVALID_PARAM);
  // A channel without JPEGD.
  acldvppChannelDesc *vpc_only = acldvppCreateChannelDesc();
  ASSERT_EQ(acldvppSetChannelDescMode(vpc_only, DVPP_CHNMODE_VPC), ACL_SUCCESS);
  ASSERT_EQ(acldvppCreateChannel(vpc_only), ACL_SUCCESS);
  EXPECT_EQ(acldvppJpegDecodeAsync(vpc_only, in, jpeg.size(), d, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("DVPP_CHNMODE_JPEGD"), std::string::npos) << recent_msg();
  acldvppDestroyChannel(vpc_only);
  acldvppDestroyChannelDesc(vpc_only);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // nothing ran

  // Too small an output: known only when the task reads the header; the stream fails.
  acldvppPicDesc *small = pic(out, size / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), small, stream_), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(recent_msg().find("JPEGD: outputDesc holds"), std::string::npos) << recent_msg();
  EXPECT_EQ(acldvppGetPicDescRetCode(small), 1u);
}

TEST_F(DvppTest, CorruptJpegFailsTheStream) {
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 48, 2, 2);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  jpeg.resize(jpeg.size() / 3);  // header intact, scan data cut
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  void *out = dvpp_buffer(size);
  acldvppPicDesc *d = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS);
  aclError e = aclrtSynchronizeStream(stream_);
  // libjpeg-turbo pads a truncated scan with a warning; either way nothing crashes and a
  // failure names JPEGD.
  if (e != ACL_SUCCESS) {
    EXPECT_NE(recent_msg().find("JPEGD"), std::string::npos) << recent_msg();
  }
}

TEST_F(DvppTest, JpegEncodeRoundTrip) {
  const uint32_t w = 96, h = 64, ws = 96, hs = 64;
  // A smooth NV12 picture (noise would not survive JPEG's quantization closely).
  std::vector<uint8_t> nv(ws * hs * 3 / 2);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) nv[y * ws + x] = static_cast<uint8_t>(40 + x + y);
  for (uint32_t y = 0; y < h / 2; ++y)
    for (uint32_t x = 0; x < w; x += 2) {
      nv[ws * hs + y * ws + x] = static_cast<uint8_t>(100 + y);
      nv[ws * hs + y * ws + x + 1] = static_cast<uint8_t>(160 - x / 2);
    }
  void *in = dvpp_buffer(nv.size(), nv);
  acldvppPicDesc *d = pic(in, nv.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, ws, hs);
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  ASSERT_EQ(acldvppSetJpegeConfigLevel(config, 95), ACL_SUCCESS);
  uint32_t predicted = 0;
  ASSERT_EQ(acldvppJpegPredictEncSize(d, config, &predicted), ACL_SUCCESS);
  void *out = dvpp_buffer(predicted);
  uint32_t size = predicted;
  ASSERT_EQ(acldvppJpegEncodeAsync(channel_, d, out, &size, config, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  ASSERT_GT(size, 0u);
  ASSERT_LT(size, predicted);
  std::vector<uint8_t> jpeg = read_back(out, size);
  uint32_t dw = 0, dh = 0;
  std::vector<uint8_t> ycc = dvt::decode_ycbcr(jpeg, &dw, &dh);
  ASSERT_EQ(dw, w);
  ASSERT_EQ(dh, h);
  int worst = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      worst = std::max(worst, std::abs(ycc[(y * w + x) * 3] - nv[y * ws + x]));
      worst = std::max(worst,
                       std::abs(ycc[(y * w + x) * 3 + 1] - nv[ws * hs + (y / 2) * ws + (x & ~1u)]));
    }
  EXPECT_LE(worst, 4);

  // A buffer too small for the result fails the stream.
  uint32_t tiny = 64;
  ASSERT_EQ(acldvppJpegEncodeAsync(channel_, d, out, &tiny, config, stream_), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_NE(recent_msg().find("exceeds the output buffer"), std::string::npos) << recent_msg();
  // JPEGE's own size range, checked at the call.
  acldvppPicDesc *tiny_pic = pic(in, nv.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, 16, 16, 96, 64);
  EXPECT_EQ(acldvppJpegEncodeAsync(channel_, tiny_pic, out, &size, config, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("outside JPEGE's picture sizes (32x32 to 8192x8192)"),
            std::string::npos)
      << recent_msg();
  EXPECT_EQ(acldvppDestroyJpegeConfig(config), ACL_SUCCESS);
}

// CANN's JPEGE also takes packed YUV422 (jpege_sample's --in_format 7..10); the JPEG keeps
// its 4:2:2 chroma, so each pixel pair's own U and V come back.
TEST_F(DvppTest, JpegEncodeTakesPackedYuv422) {
  const uint32_t w = 64, h = 48, ws = w * 2;
  struct Case {
    acldvppPixelFormat format;
    uint32_t y0, u, y1, v;  // byte offsets in each group of four
  };
  for (Case c : {Case{PIXEL_FORMAT_YUYV_PACKED_422, 0, 1, 2, 3},
                 Case{PIXEL_FORMAT_UYVY_PACKED_422, 1, 0, 3, 2},
                 Case{PIXEL_FORMAT_YVYU_PACKED_422, 0, 3, 2, 1},
                 Case{PIXEL_FORMAT_VYUY_PACKED_422, 1, 2, 3, 0}}) {
    SCOPED_TRACE(c.format);
    // Smooth planes: chroma changes along every row, which a 4:2:0 JPEG would average away.
    auto luma = [](uint32_t x, uint32_t y) { return 40 + x + 2 * y; };
    auto cb = [](uint32_t x, uint32_t y) { return 90 + x + 2 * (y % 16); };
    auto cr = [](uint32_t x, uint32_t y) { return 170 - x / 2 - 3 * (y % 8); };
    std::vector<uint8_t> packed(size_t{ws} * h);
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; x += 2) {
        uint8_t *g = &packed[y * ws + x * 2];
        g[c.y0] = static_cast<uint8_t>(luma(x, y));
        g[c.y1] = static_cast<uint8_t>(luma(x + 1, y));
        g[c.u] = static_cast<uint8_t>(cb(x, y));
        g[c.v] = static_cast<uint8_t>(cr(x, y));
      }
    void *in = dvpp_buffer(packed.size(), packed);
    acldvppPicDesc *d = pic(in, packed.size(), c.format, w, h, ws, h);
    acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
    ASSERT_EQ(acldvppSetJpegeConfigLevel(config, 100), ACL_SUCCESS);
    uint32_t size = 0;
    ASSERT_EQ(acldvppJpegPredictEncSize(d, config, &size), ACL_SUCCESS) << recent_msg();
    void *out = dvpp_buffer(size);
    ASSERT_EQ(acldvppJpegEncodeAsync(channel_, d, out, &size, config, stream_), ACL_SUCCESS)
        << recent_msg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
    uint32_t dw = 0, dh = 0;
    std::vector<uint8_t> ycc = dvt::decode_ycbcr(read_back(out, size), &dw, &dh);
    ASSERT_EQ(dw, w);
    ASSERT_EQ(dh, h);
    int worst = 0;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const uint8_t *p = &ycc[(y * w + x) * 3];
        worst = std::max({worst, std::abs(p[0] - static_cast<int>(luma(x, y))),
                          std::abs(p[1] - static_cast<int>(cb(x & ~1u, y))),
                          std::abs(p[2] - static_cast<int>(cr(x & ~1u, y)))});
      }
    EXPECT_LE(worst, 2);
    EXPECT_EQ(acldvppDestroyJpegeConfig(config), ACL_SUCCESS);
  }
  // A packed row is width * 2 bytes: a stride of the width is refused at the call.
  void *in = dvpp_buffer(size_t{ws} * h);
  uint32_t size = 4096;
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  EXPECT_EQ(
      acldvppJpegEncodeAsync(channel_, pic(in, ws * h, PIXEL_FORMAT_YUYV_PACKED_422, w, h, w, h),
                             dvpp_buffer(size), &size, config, stream_),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("at least 128 (width * 2)"), std::string::npos) << recent_msg();
  EXPECT_EQ(acldvppDestroyJpegeConfig(config), ACL_SUCCESS);
}

TEST_F(DvppTest, PngDecodeGivesThePixels) {
  const uint32_t w = 70, h = 40;
  for (int channels : {3, 4}) {
    std::vector<uint8_t> px(size_t{w} * h * channels);
    for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 7 + i / 13);
    std::vector<uint8_t> png = dvt::make_png(px, w, h, channels);
    uint32_t iw = 0, ih = 0;
    int32_t comps = 0;
    ASSERT_EQ(acldvppPngGetImageInfo(png.data(), png.size(), &iw, &ih, &comps), ACL_SUCCESS);
    EXPECT_EQ(iw, w);
    EXPECT_EQ(ih, h);
    EXPECT_EQ(comps, channels);
    for (auto format : {PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_UNKNOWN}) {
      uint32_t size = 0;
      ASSERT_EQ(acldvppPngPredictDecSize(png.data(), png.size(), format, &size), ACL_SUCCESS);
      const uint32_t bpp = format == PIXEL_FORMAT_RGB_888 ? 3 : channels;
      const uint32_t ws = align(w, 128) * bpp, hs = align(h, 16);
      EXPECT_EQ(size, ws * hs);
      void *in = dvpp_buffer(png.size(), png);
      void *out = dvpp_buffer(size);
      acldvppPicDesc *d = pic(out, size, format, 0, 0, 0, 0);
      ASSERT_EQ(acldvppPngDecodeAsync(channel_, in, png.size(), d, stream_), ACL_SUCCESS)
          << recent_msg();
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
      EXPECT_EQ(acldvppGetPicDescFormat(d),
                bpp == 4 ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888);
      EXPECT_EQ(acldvppGetPicDescWidthStride(d), ws);
      std::vector<uint8_t> got = read_back(out, size);
      size_t mismatches = 0;
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
          for (uint32_t k = 0; k < bpp; ++k)
            mismatches += got[y * ws + x * bpp + k] != px[(y * w + x) * channels + k];
      EXPECT_EQ(mismatches, 0u) << channels << " channels, format " << format;
    }
  }
  std::vector<uint8_t> junk(64, 1);
  EXPECT_EQ(acldvppPngGetImageInfo(junk.data(), junk.size(), nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("no PNG signature"), std::string::npos) << recent_msg();
}

}  // namespace

namespace {

// Every prefix of a JPEG and a PNG, and bytes flipped in their headers, through the
// synchronous calls and through a decode on the stream: errors, never a crash.
TEST_F(DvppTest, TruncatedAndDamagedStreamsNeverCrash) {
  std::vector<uint8_t> jpeg = dvt::make_jpeg(48, 40, 2, 2);
  std::vector<uint8_t> px(48 * 40 * 3, 90);
  std::vector<uint8_t> png = dvt::make_png(px, 48, 40, 3);
  const uint32_t out_size = 128 * 48 * 3;
  void *out = dvpp_buffer(out_size);
  void *in = dvpp_buffer(std::max(jpeg.size(), png.size()));
  acldvppPicDesc *jd = pic(out, out_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  acldvppPicDesc *pd = pic(out, out_size, PIXEL_FORMAT_RGB_888, 0, 0, 0, 0);
  int failures = 0;
  for (const auto *file : {&jpeg, &png}) {
    const bool is_jpeg = file == &jpeg;
    std::vector<std::vector<uint8_t>> variants;
    for (size_t n = 1; n < file->size(); n += 7)
      variants.emplace_back(file->begin(), file->begin() + n);
    for (size_t i = 2; i < std::min<size_t>(file->size(), 200); i += 3) {
      variants.push_back(*file);
      variants.back()[i] ^= 0x5A;
    }
    for (const auto &v : variants) {
      uint32_t w, h, size;
      int32_t c;
      if (is_jpeg) {
        (void)acldvppJpegGetImageInfo(v.data(), v.size(), &w, &h, &c);
        (void)acldvppJpegPredictDecSize(v.data(), v.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size);
      } else {
        (void)acldvppPngGetImageInfo(v.data(), v.size(), &w, &h, &c);
        (void)acldvppPngPredictDecSize(v.data(), v.size(), PIXEL_FORMAT_RGB_888, &size);
      }
      ASSERT_EQ(aclrtMemcpy(in, v.size(), v.data(), v.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
      aclrtStream s = nullptr;
      ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);  // a failed stream stays failed: one each
      aclError e = is_jpeg ? acldvppJpegDecodeAsync(channel_, in, v.size(), jd, s)
                           : acldvppPngDecodeAsync(channel_, in, v.size(), pd, s);
      if (e == ACL_SUCCESS) failures += aclrtSynchronizeStream(s) != ACL_SUCCESS;
      ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    }
  }
  EXPECT_GT(failures, 0);  // most prefixes fail their task
}

}  // namespace
