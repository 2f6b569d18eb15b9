#include "dvpp/images.h"

#include <jpeglib.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

namespace dvt {

std::string recent_msg() {
  const char *m = aclGetRecentErrMsg();
  return m ? m : "";
}

void DvppTest::SetUp() {
  ASSERT_EQ(init(), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  channel_ = acldvppCreateChannelDesc();
  ASSERT_NE(channel_, nullptr);
  ASSERT_EQ(acldvppCreateChannel(channel_), ACL_SUCCESS);
}

void DvppTest::TearDown() {
  for (auto *p : pics_) EXPECT_EQ(acldvppDestroyPicDesc(p), ACL_SUCCESS);
  for (void *b : buffers_) EXPECT_EQ(acldvppFree(b), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannel(channel_), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyChannelDesc(channel_), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

void *DvppTest::dvpp_buffer(size_t size, const std::vector<uint8_t> &bytes) {
  void *p = nullptr;
  EXPECT_EQ(acldvppMalloc(&p, size), ACL_SUCCESS);
  buffers_.push_back(p);
  if (!bytes.empty()) {
    EXPECT_EQ(aclrtMemcpy(p, size, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  return p;
}

std::vector<uint8_t> DvppTest::read_back(const void *dev, size_t size) {
  std::vector<uint8_t> host(size);
  EXPECT_EQ(aclrtMemcpy(host.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return host;
}

acldvppPicDesc *DvppTest::pic(void *data, uint32_t size, acldvppPixelFormat format, uint32_t width,
                              uint32_t height, uint32_t width_stride, uint32_t height_stride) {
  acldvppPicDesc *d = acldvppCreatePicDesc();
  acldvppSetPicDescData(d, data);
  acldvppSetPicDescSize(d, size);
  acldvppSetPicDescFormat(d, format);
  acldvppSetPicDescWidth(d, width);
  acldvppSetPicDescHeight(d, height);
  acldvppSetPicDescWidthStride(d, width_stride);
  acldvppSetPicDescHeightStride(d, height_stride);
  pics_.push_back(d);
  return d;
}

std::vector<uint8_t> nv_noise(uint32_t width_stride, uint32_t height_stride, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(size_t{width_stride} * height_stride * 3 / 2);
  for (auto &b : v) b = static_cast<uint8_t>(gen());
  return v;
}

namespace {

std::vector<uint8_t> decode(const std::vector<uint8_t> &jpeg, J_COLOR_SPACE space, bool fancy,
                            uint32_t *width, uint32_t *height, int *components) {
  jpeg_decompress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, jpeg.data(), jpeg.size());
  jpeg_read_header(&c, TRUE);
  c.out_color_space = c.num_components == 1 ? JCS_GRAYSCALE : space;
  c.do_fancy_upsampling = fancy;
  jpeg_start_decompress(&c);
  *width = c.output_width;
  *height = c.output_height;
  *components = c.output_components;
  std::vector<uint8_t> out(size_t{c.output_width} * c.output_height * c.output_components);
  while (c.output_scanline < c.output_height) {
    JSAMPROW row = &out[size_t{c.output_scanline} * c.output_width * c.output_components];
    jpeg_read_scanlines(&c, &row, 1);
  }
  jpeg_finish_decompress(&c);
  jpeg_destroy_decompress(&c);
  return out;
}

}  // namespace

std::vector<uint8_t> reference_nv12(const std::vector<uint8_t> &jpeg, bool nv21, uint32_t *width,
                                    uint32_t *height) {
  uint32_t w, h;
  int n;
  std::vector<uint8_t> ycc = decode(jpeg, JCS_YCbCr, false, &w, &h, &n);
  *width = w & ~1u;
  *height = h & ~1u;
  uint32_t ws = (*width + 127) / 128 * 128, hs = (*height + 15) / 16 * 16;
  std::vector<uint8_t> out(size_t{ws} * hs * 3 / 2, 0);
  auto at = [&](uint32_t x, uint32_t y, int k) { return ycc[(size_t{y} * w + x) * n + k]; };
  for (uint32_t y = 0; y < *height; ++y)
    for (uint32_t x = 0; x < *width; ++x) out[size_t{y} * ws + x] = at(x, y, 0);
  uint8_t *uv = out.data() + size_t{ws} * hs;
  for (uint32_t y = 0; y < *height; y += 2)
    for (uint32_t x = 0; x < *width; x += 2) {
      int cb = 128, cr = 128;
      if (n == 3) {
        cb = (at(x, y, 1) + at(x + 1, y, 1) + at(x, y + 1, 1) + at(x + 1, y + 1, 1) + 2) / 4;
        cr = (at(x, y, 2) + at(x + 1, y, 2) + at(x, y + 1, 2) + at(x + 1, y + 1, 2) + 2) / 4;
      }
      uv[size_t{y / 2} * ws + x] = static_cast<uint8_t>(nv21 ? cr : cb);
      uv[size_t{y / 2} * ws + x + 1] = static_cast<uint8_t>(nv21 ? cb : cr);
    }
  return out;
}

std::vector<uint8_t> reference_native(const std::vector<uint8_t> &jpeg, uint32_t h_sub,
                                      uint32_t v_sub, uint32_t width_stride,
                                      uint32_t height_stride) {
  uint32_t dw, dh;
  int n;
  // Unsmoothed upsampling replicates each stored chroma sample, so any copy of it is the sample.
  std::vector<uint8_t> ycc = decode(jpeg, JCS_YCbCr, false, &dw, &dh, &n);
  const uint32_t w = dw & ~1u, h = dh & ~1u;
  auto at = [&](uint32_t x, uint32_t y, int k) { return ycc[(size_t{y} * dw + x) * n + k]; };
  const size_t plane = size_t{width_stride} * height_stride;
  std::vector<uint8_t> out(n == 1 ? plane : plane + plane * 2 / (h_sub * v_sub), 0);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) out[size_t{y} * width_stride + x] = at(x, y, 0);
  if (n == 1) return out;
  uint8_t *uv = out.data() + plane;
  const size_t chroma_stride = size_t{width_stride} * 2 / h_sub;
  for (uint32_t y = 0; y < h / v_sub; ++y)
    for (uint32_t x = 0; x < w / h_sub; ++x) {
      uv[y * chroma_stride + 2 * x] = at(x * h_sub, y * v_sub, 1);
      uv[y * chroma_stride + 2 * x + 1] = at(x * h_sub, y * v_sub, 2);
    }
  return out;
}

std::vector<uint8_t> decode_ycbcr(const std::vector<uint8_t> &jpeg, uint32_t *width,
                                  uint32_t *height) {
  int n;
  return decode(jpeg, JCS_YCbCr, true, width, height, &n);
}

std::vector<uint8_t> make_png(const std::vector<uint8_t> &pixels, uint32_t width, uint32_t height,
                              int channels) {
  png_image img;
  std::memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = width;
  img.height = height;
  img.format = channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  png_image_write_to_memory(&img, nullptr, &size, 0, pixels.data(), 0, nullptr);
  std::vector<uint8_t> out(size);
  png_image_write_to_memory(&img, out.data(), &size, 0, pixels.data(), 0, nullptr);
  out.resize(size);
  return out;
}

void reference_plane(const uint8_t *src, uint32_t sstride, Region s, uint8_t *dst, uint32_t dstride,
                     Region d, int c, bool nearest, bool swap) {
  const double sx = double(s.w()) / d.w(), sy = double(s.h()) / d.h();
  for (uint32_t y = 0; y < d.h(); ++y)
    for (uint32_t x = 0; x < d.w(); ++x)
      for (int k = 0; k < c; ++k) {
        auto at = [&](uint32_t xx, uint32_t yy) {
          return double(src[(s.top + yy) * sstride + (s.left + xx) * c + k]);
        };
        double v;
        if (nearest) {
          v = at(std::min<uint32_t>(uint32_t(std::floor(x * sx)), s.w() - 1),
                 std::min<uint32_t>(uint32_t(std::floor(y * sy)), s.h() - 1));
        } else {
          double fx = std::clamp((x + 0.5) * sx - 0.5, 0.0, double(s.w() - 1));
          double fy = std::clamp((y + 0.5) * sy - 0.5, 0.0, double(s.h() - 1));
          uint32_t x0 = uint32_t(fx), y0 = uint32_t(fy);
          uint32_t x1 = std::min(x0 + 1, s.w() - 1), y1 = std::min(y0 + 1, s.h() - 1);
          double ax = fx - x0, ay = fy - y0;
          v = (at(x0, y0) * (1 - ax) + at(x1, y0) * ax) * (1 - ay) +
              (at(x0, y1) * (1 - ax) + at(x1, y1) * ax) * ay;
        }
        dst[(d.top + y) * dstride + (d.left + x) * c + (swap ? 1 - k : k)] =
            uint8_t(std::lround(v));
      }
}

std::vector<uint8_t> reference_resize_nv12(const std::vector<uint8_t> &in, uint32_t width,
                                           uint32_t height, uint32_t iws, uint32_t ihs, uint32_t ow,
                                           uint32_t oh, uint32_t ows, uint32_t ohs) {
  std::vector<uint8_t> out(size_t{ows} * ohs * 3 / 2, 0);
  reference_plane(in.data(), iws, {0, width - 1, 0, height - 1}, out.data(), ows,
                  {0, ow - 1, 0, oh - 1}, 1, false, false);
  auto half = [](uint32_t n) { return (n + 1) / 2; };
  reference_plane(in.data() + size_t{iws} * ihs, iws, {0, half(width) - 1, 0, half(height) - 1},
                  out.data() + size_t{ows} * ohs, ows, {0, half(ow) - 1, 0, half(oh) - 1}, 2, false,
                  false);
  return out;
}

int max_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  int worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
  return worst;
}

}  // namespace dvt
