// Test pictures and references for the DVPP suite: a runtime fixture with a channel, DVPP
// buffers, synthetic pictures, and JPEG / PNG files made with libjpeg-turbo and libpng.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp/pictures.h"

namespace dvt {

std::string recent_msg();

// aclInit + device 0 + a stream and a created channel for each test; released after.
class DvppTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // aclInit; a suite on another backend initializes the runtime with it instead.
  virtual aclError init() { return aclInit(nullptr); }
  // A DVPP buffer holding `bytes` (freed at TearDown).
  void *dvpp_buffer(size_t size, const std::vector<uint8_t> &bytes = {});
  std::vector<uint8_t> read_back(const void *dev, size_t size);
  // A picture description (destroyed at TearDown).
  acldvppPicDesc *pic(void *data, uint32_t size, acldvppPixelFormat format, uint32_t width,
                      uint32_t height, uint32_t width_stride, uint32_t height_stride);

  aclrtStream stream_ = nullptr;
  acldvppChannelDesc *channel_ = nullptr;
  std::vector<void *> buffers_;
  std::vector<acldvppPicDesc *> pics_;
};

// A picture's bytes in an NV12/NV21 buffer with the given strides (noise, deterministic).
std::vector<uint8_t> nv_noise(uint32_t width_stride, uint32_t height_stride, uint32_t seed);

// libjpeg-turbo's decode converted to CANN's YUV420SP layout as docs/dvpp.md documents it:
// luma rows as decoded, chroma the rounded mean of each 2x2 block of unsmoothed chroma; the
// buffer has the JPEGD strides (128, 16), its padding zero.
std::vector<uint8_t> reference_nv12(const std::vector<uint8_t> &jpeg, bool nv21, uint32_t *width,
                                    uint32_t *height);
// The same in the source's own sampling (h_sub x v_sub: 2x1 4:2:2, 1x1 4:4:4, 1x2 4:4:0; grey:
// luma only): the stored chroma samples, interleaved U V, rows of width_stride * 2 / h_sub.
std::vector<uint8_t> reference_native(const std::vector<uint8_t> &jpeg, uint32_t h_sub,
                                      uint32_t v_sub, uint32_t width_stride,
                                      uint32_t height_stride);
// Decodes a JPEG to interleaved YCbCr (for encoder tests).
std::vector<uint8_t> decode_ycbcr(const std::vector<uint8_t> &jpeg, uint32_t *width,
                                  uint32_t *height);
// PNG of an RGB(A) picture of `channels` 3 or 4.
std::vector<uint8_t> make_png(const std::vector<uint8_t> &pixels, uint32_t width, uint32_t height,
                              int channels);

// A region of a picture, bounds included (acldvppRoiConfig's form).
struct Region {
  uint32_t left, right, top, bottom;
  uint32_t w() const { return right - left + 1; }
  uint32_t h() const { return bottom - top + 1; }
};

// VPC's documented resize of one plane of `c` interleaved channels, region to region, in
// doubles: bilinear with pixel centres at +0.5 (source positions clamped to the region), or
// nearest (floor(dst * scale)); `swap` exchanges two channels (NV12 <-> NV21).
void reference_plane(const uint8_t *src, uint32_t sstride, Region s, uint8_t *dst, uint32_t dstride,
                     Region d, int c, bool nearest, bool swap);
// The whole NV12 picture `in` (width x height, strides iws x ihs) resized bilinearly to an NV12
// picture of ow x oh with strides ows x ohs (padding 0): luma, then chroma at half the size
// (rounded up).
std::vector<uint8_t> reference_resize_nv12(const std::vector<uint8_t> &in, uint32_t width,
                                           uint32_t height, uint32_t iws, uint32_t ihs, uint32_t ow,
                                           uint32_t oh, uint32_t ows, uint32_t ohs);
// The largest difference between two byte strings of the same size.
int max_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b);

}  // namespace dvt
