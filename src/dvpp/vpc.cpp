#include "dvpp/vpc.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace openacl::dvpp {
namespace {

constexpr int kBits = 11;  // weights in 1/2048: the result stays within 1 of exact arithmetic
constexpr int kOne = 1 << kBits;

// One plane of `channels` interleaved bytes a pixel; `swap` exchanges the two channels
// (NV12 <-> NV21).
struct Plane {
  const uint8_t *src;
  size_t src_stride;
  uint32_t sx, sy, sw, sh;  // source region
  uint8_t *dst;
  size_t dst_stride;
  uint32_t dx, dy, dw, dh;  // destination region
  int channels;
  bool swap;
};

struct Tap {
  uint32_t i0, i1;
  int32_t w1;  // weight of i1, in 1/kOne
};

std::vector<Tap> taps(uint32_t src, uint32_t dst, Interpolation interpolation) {
  std::vector<Tap> t(dst);
  const double scale = static_cast<double>(src) / dst;
  for (uint32_t d = 0; d < dst; ++d) {
    if (interpolation == Interpolation::nearest) {
      uint32_t s = std::min(static_cast<uint32_t>(std::floor(d * scale)), src - 1);
      t[d] = {s, s, 0};
      continue;
    }
    double f = (d + 0.5) * scale - 0.5;
    double base = std::floor(f);
    double frac = f - base;
    auto s = static_cast<int64_t>(base);
    if (s < 0) s = 0, frac = 0;
    if (s >= static_cast<int64_t>(src) - 1) s = src - 1, frac = 0;
    auto i0 = static_cast<uint32_t>(s);
    t[d] = {i0, std::min(i0 + 1, src - 1), static_cast<int32_t>(std::lround(frac * kOne))};
  }
  return t;
}

void resize_plane(const Plane &p, Interpolation interpolation) {
  const auto xs = taps(p.sw, p.dw, interpolation), ys = taps(p.sh, p.dh, interpolation);
  const int c = p.channels;
  std::vector<int32_t> rows(size_t{p.dw} * c * 2);
  int32_t *h0 = rows.data(), *h1 = h0 + size_t{p.dw} * c;
  // Horizontal pass of one source row into h (values scaled by kOne).
  auto horizontal = [&](uint32_t sy, int32_t *h) {
    const uint8_t *row = p.src + (p.sy + sy) * p.src_stride + size_t{p.sx} * c;
    for (uint32_t d = 0; d < p.dw; ++d) {
      const Tap &t = xs[d];
      for (int k = 0; k < c; ++k) {
        int a = row[t.i0 * c + k], b = row[t.i1 * c + k];
        h[d * c + k] = a * (kOne - t.w1) + b * t.w1;
      }
    }
  };
  for (uint32_t d = 0; d < p.dh; ++d) {
    const Tap &t = ys[d];
    horizontal(t.i0, h0);
    if (t.w1 != 0) horizontal(t.i1, h1);
    uint8_t *out = p.dst + (p.dy + d) * p.dst_stride + size_t{p.dx} * c;
    for (uint32_t x = 0; x < p.dw; ++x) {
      for (int k = 0; k < c; ++k) {
        int32_t a = h0[x * c + k], b = t.w1 != 0 ? h1[x * c + k] : 0;
        int32_t v = (a * (kOne - t.w1) + b * t.w1 + (1 << (2 * kBits - 1))) >> (2 * kBits);
        out[x * c + (p.swap ? 1 - k : k)] = static_cast<uint8_t>(v);
      }
    }
  }
}

// Chroma samples covering n pixels: a whole picture of odd size has a last, half-covered one
// (within the strides, which are even); regions have even sizes.
uint32_t half(uint32_t n) { return (n + 1) / 2; }

}  // namespace

void crop_resize_paste(const Image &in, const Rect &crop, const Image &out, const Rect &paste,
                       Interpolation interpolation) {
  Plane luma{in.data, in.width_stride, crop.left, crop.top, crop.width(), crop.height(),
             out.data, out.width_stride, paste.left, paste.top, paste.width(), paste.height(), 1, false};
  resize_plane(luma, interpolation);
  Plane chroma{in.data + size_t{in.width_stride} * in.height_stride, in.width_stride,
               crop.left / 2, crop.top / 2, half(crop.width()), half(crop.height()),
               out.data + size_t{out.width_stride} * out.height_stride, out.width_stride,
               paste.left / 2, paste.top / 2, half(paste.width()), half(paste.height()), 2,
               v_first(in.format) != v_first(out.format)};
  resize_plane(chroma, interpolation);
}

void crop_resize_border(const Image &in, const Rect &crop, const Image &out, const Border &border,
                        Interpolation interpolation) {
  Image inner = out;
  inner.width = out.width - border.left - border.right;
  inner.height = out.height - border.top - border.bottom;
  inner.width_stride = align_up(inner.width, 16);
  inner.height_stride = align_up(inner.height, 2);
  std::vector<uint8_t> scratch(buffer_bytes(inner.format, inner.width_stride, inner.height_stride));
  inner.data = scratch.data();
  inner.size = static_cast<uint32_t>(scratch.size());
  crop_resize_paste(in, crop, inner, {0, inner.width - 1, 0, inner.height - 1}, interpolation);
  make_border(inner, out, border);
}

}  // namespace openacl::dvpp
