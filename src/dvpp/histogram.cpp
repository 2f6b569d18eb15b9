#include "dvpp/histogram.h"

#include <cstddef>

#include "acl/ops/acl_dvpp.h"

namespace openacl::dvpp {
namespace {

// A plane of `channels` interleaved samples a pixel, and the component each channel is.
struct Plane {
  uint8_t *data;
  size_t stride;
  uint32_t width, height;  // in pixels of the plane
  int channels;
  std::array<uint32_t, 3> component;
};

// The planes of a picture, at most two.
int planes(const Image &img, Plane out[2]) {
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

}  // namespace

bool lut_format(uint32_t format) {
  return format == PIXEL_FORMAT_YUV_400 || is_yuv420sp(format) || format == PIXEL_FORMAT_RGB_888 ||
         format == PIXEL_FORMAT_BGR_888;
}

void remap(const Image &in, const Image &out, const Lut &lut) {
  Plane ip[2], op[2];
  const int n = planes(in, ip);
  planes(out, op);
  for (int p = 0; p < n; ++p) {
    const int c = ip[p].channels;
    for (uint32_t y = 0; y < ip[p].height; ++y) {
      const uint8_t *s = ip[p].data + y * ip[p].stride;
      uint8_t *d = op[p].data + y * op[p].stride;
      for (uint32_t x = 0; x < ip[p].width; ++x)
        for (int k = 0; k < c; ++k) d[x * c + k] = lut.maps[ip[p].component[k]][s[x * c + k]];
    }
  }
}

void add_histogram(const Image &in, Histogram &hist) {
  Plane ip[2];
  const int n = planes(in, ip);
  for (int p = 0; p < n; ++p) {
    const int c = ip[p].channels;
    for (uint32_t y = 0; y < ip[p].height; ++y) {
      const uint8_t *s = ip[p].data + y * ip[p].stride;
      for (uint32_t x = 0; x < ip[p].width; ++x)
        for (int k = 0; k < c; ++k) ++hist.bins[ip[p].component[k]][s[x * c + k]];
    }
  }
  hist.ret_code.store(0, std::memory_order_relaxed);
}

}  // namespace openacl::dvpp
