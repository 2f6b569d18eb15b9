// A picture as the DVPP units see it: a buffer in DVPP memory, a pixel format (acldvppPixelFormat
// values), the visible size and the strides of its planes. For semi-planar YUV the width stride
// counts pixels (= bytes of a luma row); for packed RGB and YUV it counts bytes, as CANN defines
// it.
#pragma once

#include <cstdint>
#include <string>

namespace openacl::dvpp {

struct Image {
  uint8_t *data = nullptr;
  uint32_t size = 0;    // bytes of the buffer the caller declared
  uint32_t format = 0;  // acldvppPixelFormat
  uint32_t width = 0, height = 0;
  uint32_t width_stride = 0, height_stride = 0;
};

constexpr uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

bool is_yuv420sp(uint32_t format);  // NV12 or NV21
// The chroma plane of NV21 stores V before U.
bool v_first(uint32_t format);
// Semi-planar YUV other than YUV420SP: 422, 444, 440, YUV or YVU order (JPEGD's native outputs).
// h and v get the chroma's horizontal and vertical subsampling (2 or 1).
bool yuv_sp_subsampling(uint32_t format, uint32_t *h, uint32_t *v);
// YUYV, UYVY, YVYU, VYUY: two pixels in four bytes (width stride in bytes, at least width * 2).
bool is_yuv422_packed(uint32_t format);
// Bytes per pixel of packed RGB formats (RGB888, BGR888: 3; the 8888 formats: 4), else 0.
uint32_t packed_bytes(uint32_t format);
// Bytes a picture of this format needs for these strides; 0 for formats openacl does not lay out.
uint64_t buffer_bytes(uint32_t format, uint32_t width_stride, uint32_t height_stride);
// buffer_bytes of a picture's own format and strides (what a task reads or writes of it).
uint32_t image_bytes(const Image &img);
// "PIXEL_FORMAT_YUV_SEMIPLANAR_420" for messages, or the number.
std::string format_name(uint32_t format);

}  // namespace openacl::dvpp
