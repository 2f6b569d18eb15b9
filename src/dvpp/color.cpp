#include "dvpp/color.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "acl/ops/acl_dvpp.h"

namespace openacl::dvpp {
namespace {

struct Matrix {
  double kr, kb;
  bool full;  // wide: full range
};

Matrix matrix(uint32_t csc) {
  switch (csc) {
    case ACL_DVPP_CSC_MATRIX_BT601_NARROW:
      return {0.299, 0.114, false};
    case ACL_DVPP_CSC_MATRIX_BT709_WIDE:
      return {0.2126, 0.0722, true};
    case ACL_DVPP_CSC_MATRIX_BT709_NARROW:
      return {0.2126, 0.0722, false};
    case ACL_DVPP_CSC_MATRIX_BT2020_WIDE:
      return {0.2627, 0.0593, true};
    case ACL_DVPP_CSC_MATRIX_BT2020_NARROW:
      return {0.2627, 0.0593, false};
    default:
      return {0.299, 0.114, true};
  }
}

uint8_t clamp8(double v) { return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

bool is_rgb(uint32_t f) { return packed_bytes(f) != 0; }

// Where R, G, B and alpha (-1: none) sit in a packed pixel of `bytes` bytes.
struct Layout {
  int r, g, b, a, bytes;
};

Layout layout(uint32_t f) {
  switch (f) {
    case PIXEL_FORMAT_BGR_888:
      return {2, 1, 0, -1, 3};
    case PIXEL_FORMAT_ARGB_8888:
      return {1, 2, 3, 0, 4};
    case PIXEL_FORMAT_ABGR_8888:
      return {3, 2, 1, 0, 4};
    case PIXEL_FORMAT_RGBA_8888:
      return {0, 1, 2, 3, 4};
    case PIXEL_FORMAT_BGRA_8888:
      return {2, 1, 0, 3, 4};
    default:
      return {0, 1, 2, -1, 3};
  }
}

// Alpha written where the source has none: opaque, as OpenCV's YUV-to-RGBA conversions write it
// (CANN's documents at hand do not say).
constexpr uint8_t kOpaque = 255;

void yuv_to_rgb(const Image &in, const Image &out, const Matrix &m) {
  const double kg = 1 - m.kr - m.kb;
  const bool vu = v_first(in.format);
  const Layout L = layout(out.format);
  const uint8_t *uv = in.data + size_t{in.width_stride} * in.height_stride;
  for (uint32_t y = 0; y < in.height; ++y) {
    uint8_t *o = out.data + size_t{y} * out.width_stride;
    const uint8_t *c = uv + size_t{y / 2} * in.width_stride;
    for (uint32_t x = 0; x < in.width; ++x, o += L.bytes) {
      double l = in.data[size_t{y} * in.width_stride + x];
      double cb = c[(x & ~1u) + (vu ? 1 : 0)] - 128.0, cr = c[(x & ~1u) + (vu ? 0 : 1)] - 128.0;
      if (!m.full) l = (l - 16) * 255 / 219, cb = cb * 255 / 224, cr = cr * 255 / 224;
      double r = l + 2 * (1 - m.kr) * cr;
      double g = l - 2 * m.kb * (1 - m.kb) / kg * cb - 2 * m.kr * (1 - m.kr) / kg * cr;
      double b = l + 2 * (1 - m.kb) * cb;
      o[L.r] = clamp8(r);
      o[L.g] = clamp8(g);
      o[L.b] = clamp8(b);
      if (L.a >= 0) o[L.a] = kOpaque;
    }
  }
}

void rgb_to_yuv(const Image &in, const Image &out, const Matrix &m) {
  const double kg = 1 - m.kr - m.kb;
  const Layout L = layout(in.format);
  const bool vu = v_first(out.format);
  uint8_t *uv = out.data + size_t{out.width_stride} * out.height_stride;
  auto pixel = [&](uint32_t x, uint32_t y, double &l, double &cb, double &cr) {
    const uint8_t *p = in.data + size_t{y} * in.width_stride + size_t{x} * L.bytes;
    double r = p[L.r], g = p[L.g], b = p[L.b];
    l = m.kr * r + kg * g + m.kb * b;
    cb = (b - l) / (2 * (1 - m.kb));
    cr = (r - l) / (2 * (1 - m.kr));
    if (!m.full) l = 16 + l * 219 / 255, cb = cb * 224 / 255, cr = cr * 224 / 255;
  };
  for (uint32_t y = 0; y < in.height; y += 2) {
    for (uint32_t x = 0; x < in.width; x += 2) {
      double sum_cb = 0, sum_cr = 0;
      for (uint32_t k = 0; k < 4; ++k) {
        double l, cb, cr;
        pixel(x + k % 2, y + k / 2, l, cb, cr);
        out.data[size_t{y + k / 2} * out.width_stride + x + k % 2] = clamp8(l);
        sum_cb += cb;
        sum_cr += cr;
      }
      uint8_t *c = uv + size_t{y / 2} * out.width_stride + x;
      c[vu ? 1 : 0] = clamp8(128 + sum_cb / 4);
      c[vu ? 0 : 1] = clamp8(128 + sum_cr / 4);
    }
  }
}

// Same family: packed RGB to packed RGB, each channel to its place (alpha kept, or opaque when
// the source has none), or YUV420SP copied with U and V swapped when the formats differ.
void swap_copy(const Image &in, const Image &out) {
  const bool swap = in.format != out.format;
  if (is_rgb(in.format)) {
    const Layout li = layout(in.format), lo = layout(out.format);
    for (uint32_t y = 0; y < in.height; ++y) {
      const uint8_t *i = in.data + size_t{y} * in.width_stride;
      uint8_t *o = out.data + size_t{y} * out.width_stride;
      for (uint32_t x = 0; x < in.width; ++x, i += li.bytes, o += lo.bytes) {
        o[lo.r] = i[li.r];
        o[lo.g] = i[li.g];
        o[lo.b] = i[li.b];
        if (lo.a >= 0) o[lo.a] = li.a >= 0 ? i[li.a] : kOpaque;
      }
    }
    return;
  }
  for (uint32_t y = 0; y < in.height; ++y)
    std::copy_n(in.data + size_t{y} * in.width_stride, in.width,
                out.data + size_t{y} * out.width_stride);
  const uint8_t *iu = in.data + size_t{in.width_stride} * in.height_stride;
  uint8_t *ou = out.data + size_t{out.width_stride} * out.height_stride;
  for (uint32_t y = 0; y < in.height / 2; ++y)
    for (uint32_t x = 0; x < in.width; x += 2) {
      ou[size_t{y} * out.width_stride + x] = iu[size_t{y} * in.width_stride + x + (swap ? 1 : 0)];
      ou[size_t{y} * out.width_stride + x + 1] =
          iu[size_t{y} * in.width_stride + x + (swap ? 0 : 1)];
    }
}

// cv::borderInterpolate for the border types of acldvppBorderType; -1 for a constant border.
int64_t source_index(int64_t i, int64_t n, uint32_t type) {
  if (i >= 0 && i < n) return i;
  if (type == BORDER_CONSTANT) return -1;
  if (type == BORDER_REPLICATE || n == 1) return i < 0 ? 0 : n - 1;
  const int64_t delta = type == BORDER_REFLECT_101 ? 1 : 0;
  while (i < 0 || i >= n) {
    if (i < 0) i = -i - 1 + delta;
    else i = n - 1 - (i - n) - delta;
  }
  return i;
}

void border_plane(const uint8_t *src, size_t sstride, int64_t w, int64_t h, uint8_t *dst,
                  size_t dstride, int64_t top, int64_t left, int64_t ow, int64_t oh, int channels,
                  const uint8_t *fill, uint32_t type) {
  for (int64_t y = 0; y < oh; ++y) {
    int64_t sy = source_index(y - top, h, type);
    uint8_t *o = dst + size_t(y) * dstride;
    for (int64_t x = 0; x < ow; ++x) {
      int64_t sx = source_index(x - left, w, type);
      for (int k = 0; k < channels; ++k)
        o[x * channels + k] =
            sy < 0 || sx < 0 ? fill[k] : src[size_t(sy) * sstride + size_t(sx) * channels + k];
    }
  }
}

}  // namespace

bool convertible(uint32_t from, uint32_t to) {
  return (is_yuv420sp(from) || is_rgb(from)) && (is_yuv420sp(to) || is_rgb(to));
}

void convert_color(const Image &in, const Image &out, uint32_t csc_matrix) {
  const Matrix m = matrix(csc_matrix);
  if (is_yuv420sp(in.format) && is_rgb(out.format)) return yuv_to_rgb(in, out, m);
  if (is_rgb(in.format) && is_yuv420sp(out.format)) return rgb_to_yuv(in, out, m);
  swap_copy(in, out);
}

void make_border(const Image &in, const Image &out, const Border &b) {
  const bool vu = v_first(out.format);
  const uint8_t y_fill = clamp8(b.value[0]);
  const uint8_t uv_fill[2] = {clamp8(b.value[vu ? 2 : 1]), clamp8(b.value[vu ? 1 : 2])};
  border_plane(in.data, in.width_stride, in.width, in.height, out.data, out.width_stride, b.top,
               b.left, out.width, out.height, 1, &y_fill, b.type);
  // The chroma plane takes half the border; a constant fill goes in the plane's U/V order.
  border_plane(in.data + size_t{in.width_stride} * in.height_stride, in.width_stride, in.width / 2,
               in.height / 2, out.data + size_t{out.width_stride} * out.height_stride,
               out.width_stride, b.top / 2, b.left / 2, out.width / 2, out.height / 2, 2, uv_fill,
               b.type);
}

}  // namespace openacl::dvpp
