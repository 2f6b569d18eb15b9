#include "dvpp/image.h"

#include "acl/ops/acl_dvpp.h"

namespace openacl::dvpp {

bool is_yuv420sp(uint32_t format) {
  return format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

bool v_first(uint32_t format) { return format == PIXEL_FORMAT_YVU_SEMIPLANAR_420; }

bool is_yuv422_packed(uint32_t format) {
  return format >= PIXEL_FORMAT_YUYV_PACKED_422 && format <= PIXEL_FORMAT_VYUY_PACKED_422;
}

uint32_t packed_bytes(uint32_t format) {
  switch (format) {
    case PIXEL_FORMAT_RGB_888:
    case PIXEL_FORMAT_BGR_888:
      return 3;
    case PIXEL_FORMAT_ARGB_8888:
    case PIXEL_FORMAT_ABGR_8888:
    case PIXEL_FORMAT_RGBA_8888:
    case PIXEL_FORMAT_BGRA_8888:
      return 4;
    default:
      return 0;
  }
}

uint64_t buffer_bytes(uint32_t format, uint32_t width_stride, uint32_t height_stride) {
  uint64_t plane = uint64_t{width_stride} * height_stride;
  if (is_yuv420sp(format)) return plane * 3 / 2;
  if (format == PIXEL_FORMAT_YUV_400 || packed_bytes(format) != 0 || is_yuv422_packed(format))
    return plane;
  return 0;
}

uint32_t image_bytes(const Image &img) {
  return static_cast<uint32_t>(buffer_bytes(img.format, img.width_stride, img.height_stride));
}

std::string format_name(uint32_t format) {
  switch (format) {
    case PIXEL_FORMAT_YUV_400:
      return "PIXEL_FORMAT_YUV_400";
    case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
      return "PIXEL_FORMAT_YUV_SEMIPLANAR_420";
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
      return "PIXEL_FORMAT_YVU_SEMIPLANAR_420";
    case PIXEL_FORMAT_YUYV_PACKED_422:
      return "PIXEL_FORMAT_YUYV_PACKED_422";
    case PIXEL_FORMAT_UYVY_PACKED_422:
      return "PIXEL_FORMAT_UYVY_PACKED_422";
    case PIXEL_FORMAT_YVYU_PACKED_422:
      return "PIXEL_FORMAT_YVYU_PACKED_422";
    case PIXEL_FORMAT_VYUY_PACKED_422:
      return "PIXEL_FORMAT_VYUY_PACKED_422";
    case PIXEL_FORMAT_RGB_888:
      return "PIXEL_FORMAT_RGB_888";
    case PIXEL_FORMAT_BGR_888:
      return "PIXEL_FORMAT_BGR_888";
    case PIXEL_FORMAT_RGBA_8888:
      return "PIXEL_FORMAT_RGBA_8888";
    case PIXEL_FORMAT_UNKNOWN:
      return "PIXEL_FORMAT_UNKNOWN";
    default:
      return "pixel format " + std::to_string(format);
  }
}

}  // namespace openacl::dvpp
