#include "dvpp/images.h"

#include <jpeglib.h>
#include <png.h>

#include <cstdio>
#include <cstring>
#include <random>

namespace dvt {

std::string recent_msg() {
  const char *m = aclGetRecentErrMsg();
  return m ? m : "";
}

void DvppTest::SetUp() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
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

}  // namespace dvt
