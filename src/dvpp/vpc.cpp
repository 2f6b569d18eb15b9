#include "dvpp/vpc.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace openacl::dvpp {
namespace {

constexpr int kBits = 11;  // weights in 1/2048: the result stays within 1 of exact arithmetic
constexpr int kOne = 1 << kBits;
constexpr int32_t kHalf = 1 << (2 * kBits - 1);

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

// The horizontal taps of a plane as flat arrays, for loops the compiler can unroll: byte
// offsets of both source pixels and both weights of each destination pixel.
struct ColumnTaps {
  std::vector<uint32_t> o0, o1;
  std::vector<int32_t> w0, w1;
  ColumnTaps(const std::vector<Tap> &t, int channels)
      : o0(t.size()), o1(t.size()), w0(t.size()), w1(t.size()) {
    for (size_t d = 0; d < t.size(); ++d)
      o0[d] = t[d].i0 * channels, o1[d] = t[d].i1 * channels, w0[d] = kOne - t[d].w1,
      w1[d] = t[d].w1;
  }
};

// One source row resized horizontally into h (values scaled by kOne).
template <int C>
void horizontal(const uint8_t *row, const ColumnTaps &xs, uint32_t dw, int32_t *h) {
  const uint32_t *o0 = xs.o0.data(), *o1 = xs.o1.data();
  const int32_t *w0 = xs.w0.data(), *w1 = xs.w1.data();
  for (uint32_t d = 0; d < dw; ++d)
    for (int k = 0; k < C; ++k) h[d * C + k] = row[o0[d] + k] * w0[d] + row[o1[d] + k] * w1[d];
}

// Rows [begin, end) of the destination region: each from two horizontally resized source
// rows, kept while consecutive destination rows share them.
template <int C, bool Swap>
void resize_rows(const Plane &p, const ColumnTaps &xs, const std::vector<Tap> &ys, uint32_t begin,
                 uint32_t end) {
  const size_t n = size_t{p.dw} * C;
  std::vector<int32_t> buffers(n * 2);
  int32_t *h0 = buffers.data(), *h1 = h0 + n;
  int64_t r0 = -1, r1 = -1;  // the source rows h0 and h1 hold
  auto source = [&](uint32_t sy) { return p.src + (p.sy + sy) * p.src_stride + size_t{p.sx} * C; };
  for (uint32_t d = begin; d < end; ++d) {
    const Tap &t = ys[d];
    if (r0 != t.i0) {
      if (r1 == t.i0) std::swap(h0, h1), std::swap(r0, r1);
      else horizontal<C>(source(t.i0), xs, p.dw, h0), r0 = t.i0;
    }
    // A zero weight leaves h1 out (its values, from an earlier row or zero, count for nothing).
    if (t.w1 != 0 && r1 != t.i1) horizontal<C>(source(t.i1), xs, p.dw, h1), r1 = t.i1;
    const int32_t a = kOne - t.w1, b = t.w1;
    uint8_t *out = p.dst + (p.dy + d) * p.dst_stride + size_t{p.dx} * C;
    if constexpr (Swap) {
      for (size_t x = 0; x < n; x += 2) {
        out[x] = static_cast<uint8_t>((h0[x + 1] * a + h1[x + 1] * b + kHalf) >> (2 * kBits));
        out[x + 1] = static_cast<uint8_t>((h0[x] * a + h1[x] * b + kHalf) >> (2 * kBits));
      }
    } else {
      for (size_t x = 0; x < n; ++x)
        out[x] = static_cast<uint8_t>((h0[x] * a + h1[x] * b + kHalf) >> (2 * kBits));
    }
  }
}

// Destination rows a core takes at least: fewer would cost more in hand-over than they save.
constexpr uint32_t kRowsPerPart = 32;

void resize_plane(const Plane &p, Interpolation interpolation, backend::AiCores *cores) {
  const auto ys = taps(p.sh, p.dh, interpolation);
  const ColumnTaps xs(taps(p.sw, p.dw, interpolation), p.channels);
  auto rows = [&](uint32_t begin, uint32_t end) {
    if (p.channels == 1) resize_rows<1, false>(p, xs, ys, begin, end);
    else if (p.swap) resize_rows<2, true>(p, xs, ys, begin, end);
    else resize_rows<2, false>(p, xs, ys, begin, end);
  };
  const uint32_t parts =
      cores == nullptr ? 1 : std::min<uint32_t>(cores->count(), std::max(1u, p.dh / kRowsPerPart));
  if (parts <= 1) return rows(0, p.dh);
  cores->parallel_for(parts, [&](size_t i) {
    rows(static_cast<uint32_t>(p.dh * i / parts), static_cast<uint32_t>(p.dh * (i + 1) / parts));
  });
}

// Chroma samples covering n pixels: a whole picture of odd size has a last, half-covered one
// (within the strides, which are even); regions have even sizes.
uint32_t half(uint32_t n) { return (n + 1) / 2; }

}  // namespace

void crop_resize_paste(const Image &in, const Rect &crop, const Image &out, const Rect &paste,
                       Interpolation interpolation, backend::AiCores *cores) {
  Plane luma{in.data,
             in.width_stride,
             crop.left,
             crop.top,
             crop.width(),
             crop.height(),
             out.data,
             out.width_stride,
             paste.left,
             paste.top,
             paste.width(),
             paste.height(),
             1,
             false};
  resize_plane(luma, interpolation, cores);
  Plane chroma{in.data + size_t{in.width_stride} * in.height_stride,
               in.width_stride,
               crop.left / 2,
               crop.top / 2,
               half(crop.width()),
               half(crop.height()),
               out.data + size_t{out.width_stride} * out.height_stride,
               out.width_stride,
               paste.left / 2,
               paste.top / 2,
               half(paste.width()),
               half(paste.height()),
               2,
               v_first(in.format) != v_first(out.format)};
  resize_plane(chroma, interpolation, cores);
}

void crop_resize_border(const Image &in, const Rect &crop, const Image &out, const Border &border,
                        Interpolation interpolation, backend::AiCores *cores) {
  Image inner = out;
  inner.width = out.width - border.left - border.right;
  inner.height = out.height - border.top - border.bottom;
  inner.width_stride = align_up(inner.width, 16);
  inner.height_stride = align_up(inner.height, 2);
  std::vector<uint8_t> scratch(buffer_bytes(inner.format, inner.width_stride, inner.height_stride));
  inner.data = scratch.data();
  inner.size = static_cast<uint32_t>(scratch.size());
  crop_resize_paste(in, crop, inner, {0, inner.width - 1, 0, inner.height - 1}, interpolation,
                    cores);
  make_border(inner, out, border);
}

}  // namespace openacl::dvpp
