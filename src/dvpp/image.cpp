#include "dvpp/image.h"

#include "acl/ops/acl_dvpp.h"

namespace openacl::dvpp {

bool is_yuv420sp(uint32_t format) {
  return format == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
}

bool v_first(uint32_t format) {
  return format == PIXEL_FORMAT_YVU_SEMIPLANAR_420 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_422 ||
         format == PIXEL_FORMAT_YVU_SEMIPLANAR_444 || format == PIXEL_FORMAT_YVU_SEMIPLANAR_440;
}

bool yuv_sp_subsampling(uint32_t format, uint32_t *h, uint32_t *v) {
  switch (format) {
    case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
      *h = 2, *v = 2;
      return true;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
      *h = 2, *v = 1;
      return true;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
      *h = 1, *v = 1;
      return true;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
      *h = 1, *v = 2;
      return true;
    default:
      return false;
  }
}

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
  uint32_t h = 0, v = 0;
  if (yuv_sp_subsampling(format, &h, &v)) return plane + plane * 2 / (h * v);
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
    case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
      return "PIXEL_FORMAT_YUV_SEMIPLANAR_422";
    case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
      return "PIXEL_FORMAT_YVU_SEMIPLANAR_422";
    case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
      return "PIXEL_FORMAT_YUV_SEMIPLANAR_444";
    case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
      return "PIXEL_FORMAT_YVU_SEMIPLANAR_444";
    case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
      return "PIXEL_FORMAT_YUV_SEMIPLANAR_440";
    case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
      return "PIXEL_FORMAT_YVU_SEMIPLANAR_440";
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
