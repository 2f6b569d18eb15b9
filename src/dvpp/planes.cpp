#include "dvpp/planes.h"

#include "acl/ops/acl_dvpp.h"

namespace openacl::dvpp {

bool plane_format(uint32_t format) {
  return format == PIXEL_FORMAT_YUV_400 || is_yuv420sp(format) || format == PIXEL_FORMAT_RGB_888 ||
         format == PIXEL_FORMAT_BGR_888;
}

int planes(const Image &img, PlaneView out[2]) {
  if (img.format == PIXEL_FORMAT_YUV_400) {
    out[0] = {img.data, img.width_stride, img.width, img.height, 1, {0, 0, 0}};
    return 1;
  }
  if (is_yuv420sp(img.format)) {
    out[0] = {img.data, img.width_stride, img.width, img.height, 1, {0, 0, 0}};
    const bool vu = v_first(img.format);
    out[1] = {img.data + size_t{img.width_stride} * img.height_stride,
              img.width_stride,
              (img.width + 1) / 2,
              (img.height + 1) / 2,
              2,
              {vu ? 2u : 1u, vu ? 1u : 2u, 0}};
    return 2;
  }
  const bool bgr = img.format == PIXEL_FORMAT_BGR_888;
  out[0] = {
      img.data, img.width_stride, img.width, img.height, 3, {bgr ? 2u : 0u, 1u, bgr ? 0u : 2u}};
  return 1;
}

}  // namespace openacl::dvpp
