#include "dvpp/vpc.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dvpp/resize_simd.h"
#include "dvpp/rows.h"
#include "ops/isa.h"

namespace openacl::dvpp {
namespace {

constexpr int kBits = kWeightBits;
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

// The horizontal taps of a plane as flat arrays, for loops the compiler can unroll: each
// destination pixel blends the adjacent source pixels at `offset` (bytes) and the next one. A
// tap that reads one pixel (an edge clamped, nearest) becomes the pair that holds it, with weight
// 0 on the other, so every tap has the same shape.
struct ColumnTaps {
  std::vector<uint32_t> offset;
  std::vector<int32_t> w0, w1;
  ColumnTaps(const std::vector<Tap> &t, uint32_t src, int channels)
      : offset(t.size()), w0(t.size()), w1(t.size()) {
    for (size_t d = 0; d < t.size(); ++d) {
      uint32_t i0 = t[d].i0;
      int32_t b = t[d].w1;
      if (t[d].i1 == i0) {        // one pixel: weight 0 on its neighbour
        if (i0 + 1 < src) b = 0;  // the pair that starts at it
        else i0 -= 1, b = kOne;   // the last pixel: the pair that ends at it
      }
      offset[d] = i0 * channels, w0[d] = kOne - b, w1[d] = b;
    }
  }
};

// One source row resized horizontally into h (values scaled by kOne).
template <int C>
void horizontal(const uint8_t *row, const ColumnTaps &xs, uint32_t dw, int32_t *h) {
  const uint32_t *o = xs.offset.data();
  const int32_t *w0 = xs.w0.data(), *w1 = xs.w1.data();
  for (uint32_t d = 0; d < dw; ++d)
    for (int k = 0; k < C; ++k) h[d * C + k] = row[o[d] + k] * w0[d] + row[o[d] + C + k] * w1[d];
}

// Stores a blended value (scaled by kOne * kOne), rounded, NV12 <-> NV21 swapping the two
// chroma bytes when asked.
template <int C, bool Swap>
void store(uint8_t *out, size_t x, int k, int32_t v) {
  const size_t at = Swap ? x + (k ^ 1) : x + k;
  out[at] = static_cast<uint8_t>((v + kHalf) >> (2 * kBits));
}

// Rows [begin, end) of the destination region when it is not smaller than the source's
// (enlarging: consecutive destination rows share source rows): each from two horizontally
// resized source rows, kept while the next destination row needs them.
// `resize_row(row, h)` makes one such row.
template <int C, bool Swap, class ResizeRow>
[[gnu::always_inline]] inline void enlarge_rows(const Plane &p, const std::vector<Tap> &ys,
                                                uint32_t begin, uint32_t end,
                                                ResizeRow &&resize_row) {
  const size_t n = size_t{p.dw} * C;
  std::vector<int32_t> buffers((n + 16) * 2);  // 16: PackedColumns::horizontal stores whole blocks
  int32_t *h0 = buffers.data(), *h1 = h0 + n + 16;
  auto row = [&](uint32_t i) { return p.src + (p.sy + i) * p.src_stride + size_t{p.sx} * C; };
  int64_t r0 = -1, r1 = -1;  // the source rows h0 and h1 hold
  for (uint32_t d = begin; d < end; ++d) {
    const Tap &t = ys[d];
    if (r0 != t.i0) {
      if (r1 == t.i0) std::swap(h0, h1), std::swap(r0, r1);
      else resize_row(row(t.i0), h0), r0 = t.i0;
    }
    // A zero weight leaves h1 out (its values, from an earlier row or zero, count for nothing).
    if (t.w1 != 0 && r1 != t.i1) resize_row(row(t.i1), h1), r1 = t.i1;
    const int32_t a = kOne - t.w1, b = t.w1;
    uint8_t *out = p.dst + (p.dy + d) * p.dst_stride + size_t{p.dx} * C;
    for (size_t x = 0; x < n; x += C)
      for (int k = 0; k < C; ++k) store<C, Swap>(out, x, k, h0[x + k] * a + h1[x + k] * b);
  }
}

// Rows [begin, end) of the destination region when it is smaller than the source's
// (shrinking: destination rows rarely share source rows). Each destination row first gathers,
// for every destination pixel, its pair of source pixels from each of its two source rows (one
// unaligned load each), and then blends them in a loop over contiguous arrays that the compiler
// vectorizes: rows, then columns, the same integer sum as the enlarging path.
template <int C, bool Swap>
[[gnu::always_inline]] inline void shrink_rows(const Plane &p, const ColumnTaps &xs,
                                               const std::vector<Tap> &ys, uint32_t begin,
                                               uint32_t end) {
  static_assert(std::endian::native == std::endian::little,
                "pairs are read as little-endian words");
  using Pair = std::conditional_t<C == 1, uint16_t, uint32_t>;  // a pixel and the next
  const uint32_t *o = xs.offset.data();
  const int32_t *w1 = xs.w1.data();
  const uint32_t dw = p.dw;
  std::vector<Pair> pairs(size_t{dw} * 2);
  Pair *g0 = pairs.data(), *g1 = g0 + dw;
  // One source row at a time: a single ascending stream of reads for the prefetcher.
  auto gather = [&](const uint8_t *row, Pair *g) {
#pragma GCC unroll 4
    for (uint32_t x = 0; x < dw; ++x) std::memcpy(&g[x], row + o[x], sizeof(Pair));
  };
  for (uint32_t d = begin; d < end; ++d) {
    const Tap &t = ys[d];
    const int32_t b = t.w1;
    gather(p.src + (p.sy + t.i0) * p.src_stride + size_t{p.sx} * C, g0);
    gather(p.src + (p.sy + t.i1) * p.src_stride + size_t{p.sx} * C, g1);
    uint8_t *out = p.dst + (p.dy + d) * p.dst_stride + size_t{p.dx} * C;
    for (uint32_t x = 0; x < dw; ++x)
      for (int k = 0; k < C; ++k) {
        auto byte = [](Pair v, int i) { return static_cast<int32_t>((v >> (8 * i)) & 0xff); };
        // x * (kOne - w) + y * w as x * kOne + (y - x) * w: the same integer, half the products.
        const int32_t l = byte(g0[x], k), r = byte(g0[x], C + k);
        const int32_t left = (l << kBits) + (byte(g1[x], k) - l) * b;
        const int32_t right = (r << kBits) + (byte(g1[x], C + k) - r) * b;
        store<C, Swap>(out, size_t{x} * C, k, (left << kBits) + (right - left) * w1[x]);
      }
  }
}

template <int C, bool Swap>
[[gnu::always_inline]] inline void portable_rows(const Plane &p, const ColumnTaps &xs,
                                                 const std::vector<Tap> &ys, uint32_t begin,
                                                 uint32_t end) {
  if (p.dh < p.sh) return shrink_rows<C, Swap>(p, xs, ys, begin, end);
  enlarge_rows<C, Swap>(p, ys, begin, end,
                        [&](const uint8_t *row, int32_t *h) { horizontal<C>(row, xs, p.dw, h); });
}

// portable_rows built for AVX2 too, taken when the CPU has it and OPENACL_MAX_ISA (ops/isa.h)
// does not cap the kernels at sse41: its blend loops are then twice as wide.
#if defined(__x86_64__) && defined(__GNUC__)
template <int C, bool Swap>
__attribute__((target("avx2"))) void portable_rows_avx2(const Plane &p, const ColumnTaps &xs,
                                                        const std::vector<Tap> &ys, uint32_t begin,
                                                        uint32_t end) {
  portable_rows<C, Swap>(p, xs, ys, begin, end);
}
#endif

template <int C, bool Swap>
void portable(const Plane &p, const ColumnTaps &xs, const std::vector<Tap> &ys, uint32_t begin,
              uint32_t end) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (ops::use_avx2()) return portable_rows_avx2<C, Swap>(p, xs, ys, begin, end);
#endif
  portable_rows<C, Swap>(p, xs, ys, begin, end);
}

// The shuffle kernels; the channel swap is in the packed taps. Built for AVX2 and AVX-512
// (enlarge_rows' blend loop), taken as the CPU and OPENACL_MAX_ISA allow.
template <int C>
[[gnu::always_inline]] inline void packed_rows(const Plane &p, const PackedColumns &packed,
                                               const std::vector<Tap> &ys, uint32_t begin,
                                               uint32_t end) {
  if (p.dh >= p.sh)
    return enlarge_rows<C, false>(
        p, ys, begin, end, [&](const uint8_t *row, int32_t *h) { packed.horizontal(row, h); });
  auto row = [&](uint32_t i) { return p.src + (p.sy + i) * p.src_stride + size_t{p.sx} * C; };
  for (uint32_t d = begin; d < end; ++d)
    packed.blend(row(ys[d].i0), row(ys[d].i1), ys[d].w1,
                 p.dst + (p.dy + d) * p.dst_stride + size_t{p.dx} * C);
}

#if defined(__x86_64__) && defined(__GNUC__)
template <int C>
__attribute__((target("avx2"))) void packed_rows_avx2(const Plane &p, const PackedColumns &packed,
                                                      const std::vector<Tap> &ys, uint32_t begin,
                                                      uint32_t end) {
  packed_rows<C>(p, packed, ys, begin, end);
}

template <int C>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void packed_rows_avx512(
    const Plane &p, const PackedColumns &packed, const std::vector<Tap> &ys, uint32_t begin,
    uint32_t end) {
  packed_rows<C>(p, packed, ys, begin, end);
}
#endif

// Only for a PackedColumns that is not empty: the CPU has AVX2 at least.
template <int C>
void packed(const Plane &p, const PackedColumns &columns, const std::vector<Tap> &ys,
            uint32_t begin, uint32_t end) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (ops::use_avx512()) return packed_rows_avx512<C>(p, columns, ys, begin, end);
  packed_rows_avx2<C>(p, columns, ys, begin, end);
#endif
}

void resize_plane(const Plane &p, Interpolation interpolation, backend::AiCores *cores) {
  const auto ys = taps(p.sh, p.dh, interpolation);
  const ColumnTaps xs(taps(p.sw, p.dw, interpolation), p.sw, p.channels);
  const PackedColumns columns(xs.offset.data(), xs.w1.data(), p.dw, p.channels, p.swap,
                              size_t{p.sw} * p.channels);
  auto rows = [&](uint32_t begin, uint32_t end) {
    if (!columns.empty()) {
      if (p.channels == 1) packed<1>(p, columns, ys, begin, end);
      else packed<2>(p, columns, ys, begin, end);
    } else if (p.channels == 1) {
      portable<1, false>(p, xs, ys, begin, end);
    } else if (p.swap) {
      portable<2, true>(p, xs, ys, begin, end);
    } else {
      portable<2, false>(p, xs, ys, begin, end);
    }
  };
  for_rows(cores, p.dh, rows);
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
