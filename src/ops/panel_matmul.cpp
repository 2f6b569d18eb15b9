// The panel matmul of panel_matmul.h, blocked as BLIS blocks its GEMM. x is packed once, in
// slivers of 16 rows stored depth-major (a vector holds 16 rows of x at one depth). The output
// columns go to the AI cores in chunks; a chunk walks k in blocks of kDepth, and each block in
// groups of 12 weight rows (6 for AVX2, 4 for the baseline): the group's rows are converted to
// f32 (the panel, in L1), then every sliver of x (the block of x stays in L2) runs through a tile
// of 16 or 32 rows x the group's columns of sums in registers: a vector of x times a broadcast
// weight, no horizontal sums. The sums of a chunk are kept column-major, added to per depth
// block, and written to y once at the end.
#include "ops/panel_matmul.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <vector>

#include "ops/kernel.h"
#include "ops/transpose16.h"

namespace openacl::ops {
namespace {

constexpr int64_t kSliver = 16;
// Depth of a block: the x block (m x kDepth f32, 256 KB for 128 rows) stays in L2, a group's
// panel rows (12 x kDepth f32, 24 KB) in L1 (256 and 1,024 were 2-10% slower for 128 rows of
// x against 4,096 x 4,096, 768 x 2,048 and 2,048 x 768). A compile-time row stride also makes
// each weight of a group an immediate offset from one pointer.
constexpr int64_t kDepth = 512;
// Columns of a tile: AVX-512 12 (2 x 12 accumulators of its 32 registers), AVX2 6 (2 x 6 of
// its 16), the baseline 4. A chunk is a multiple of all three.
constexpr int64_t kChunkUnit = 12;

// c[j * ldc + r] += sum over t < d of a[t * 16 + r] * b[j * kDepth + t], for j < C and r < 16:
// one sliver against C panel rows. The same order of sums in every build.
template <int C>
void tile_generic(const float *a, const float *b, int64_t d, float *c, int64_t ldc) {
  for (int j = 0; j < C; ++j) {
    float acc[kSliver];
    for (int r = 0; r < kSliver; ++r) acc[r] = c[j * ldc + r];
    for (int64_t t = 0; t < d; ++t)
      for (int r = 0; r < kSliver; ++r) acc[r] += a[t * kSliver + r] * b[j * kDepth + t];
    for (int r = 0; r < kSliver; ++r) c[j * ldc + r] = acc[r];
  }
}

#if defined(__x86_64__)
// tile_generic with a sliver as two vectors of 8 rows.
template <int C>
__attribute__((target("avx2,fma"))) void tile_avx2(const float *a, const float *b, int64_t d,
                                                   float *c, int64_t ldc) {
  __m256 acc[C][2];
  for (int j = 0; j < C; ++j)
    for (int h = 0; h < 2; ++h) acc[j][h] = _mm256_loadu_ps(c + j * ldc + 8 * h);
  for (int64_t t = 0; t < d; ++t) {
    const __m256 a0 = _mm256_loadu_ps(a + t * kSliver), a1 = _mm256_loadu_ps(a + t * kSliver + 8);
    for (int j = 0; j < C; ++j) {
      const __m256 bv = _mm256_broadcast_ss(b + j * kDepth + t);
      acc[j][0] = _mm256_fmadd_ps(a0, bv, acc[j][0]);
      acc[j][1] = _mm256_fmadd_ps(a1, bv, acc[j][1]);
    }
  }
  for (int j = 0; j < C; ++j)
    for (int h = 0; h < 2; ++h) _mm256_storeu_ps(c + j * ldc + 8 * h, acc[j][h]);
}

// S slivers `as` floats apart, each one vector of 16 rows.
template <int S, int C>
__attribute__((target("avx512f"))) void tile_avx512(const float *a, int64_t as, const float *b,
                                                    int64_t d, float *c, int64_t ldc) {
  __m512 acc[C][S];
  for (int j = 0; j < C; ++j)
    for (int s = 0; s < S; ++s) acc[j][s] = _mm512_loadu_ps(c + j * ldc + s * kSliver);
  for (int64_t t = 0; t < d; ++t) {
    __m512 av[S];
    for (int s = 0; s < S; ++s) av[s] = _mm512_loadu_ps(a + s * as + t * kSliver);
    for (int j = 0; j < C; ++j) {
      const __m512 bv = _mm512_set1_ps(b[j * kDepth + t]);
      for (int s = 0; s < S; ++s) acc[j][s] = _mm512_fmadd_ps(av[s], bv, acc[j][s]);
    }
  }
  for (int j = 0; j < C; ++j)
    for (int s = 0; s < S; ++s) _mm512_storeu_ps(c + j * ldc + s * kSliver, acc[j][s]);
}
#endif

// Columns of a tile on this machine.
int64_t tile_cols() { return use_avx512() ? 12 : use_avx2() ? 6 : 4; }

// Slivers [0, slivers) of x against the panel rows of one group, with the best build.
void group_product(const float *a, int64_t as, int64_t slivers, const float *b, int64_t d, float *c,
                   int64_t ldc) {
  int64_t s = 0;
#if defined(__x86_64__)
  if (use_avx512()) {
    for (; s + 2 <= slivers; s += 2) tile_avx512<2, 12>(a + s * as, as, b, d, c + s * kSliver, ldc);
    if (s < slivers) tile_avx512<1, 12>(a + s * as, as, b, d, c + s * kSliver, ldc);
    return;
  }
  if (use_avx2()) {
    for (; s < slivers; ++s) tile_avx2<6>(a + s * as, b, d, c + s * kSliver, ldc);
    return;
  }
#endif
  for (; s < slivers; ++s) tile_generic<4>(a + s * as, b, d, c + s * kSliver, ldc);
}

// x [m, k] f32 into slivers: xp[(s * k + t) * 16 + r] = x[(s * 16 + r) * k + t], rows past m
// zero. A block of 64 of depth at a time, whose 4 KB stay in L1 (one row after the other over
// all of k, each store touched another line: 8% of a 128 x 2,048 x 768 product).
void pack_generic(const float *x, int64_t rows, int64_t k, float *out) {
  constexpr int64_t kBlock = 64;
  for (int64_t t0 = 0; t0 < k; t0 += kBlock) {
    const int64_t t1 = std::min(k, t0 + kBlock);
    for (int64_t r = 0; r < kSliver; ++r)
      for (int64_t t = t0; t < t1; ++t) out[t * kSliver + r] = r < rows ? x[r * k + t] : 0.0f;
  }
}

#if defined(__x86_64__)
// sliver_rows with 16 x 16 blocks transposed in registers (scalar, the output took 3% of a
// llama prompt's matmuls).
__attribute__((target("avx512f"))) void sliver_rows_avx512(const float *sums, int64_t ldc,
                                                           int64_t h, int64_t cols,
                                                           const float *bias, float *out) {
  for (int64_t j0 = 0; j0 < cols; j0 += kSliver) {
    const int64_t w = std::min(kSliver, cols - j0);
    const auto mask = static_cast<__mmask16>(w == kSliver ? 0xffff : (1u << w) - 1);
    __m512 r[kSliver];
    for (int64_t c = 0; c < kSliver; ++c)
      r[c] = c < w ? _mm512_loadu_ps(sums + (j0 + c) * ldc) : _mm512_setzero_ps();
    transpose16(r);
    const __m512 add = bias ? _mm512_maskz_loadu_ps(mask, bias + j0) : _mm512_setzero_ps();
    for (int64_t i = 0; i < kSliver; ++i)
      if (i < h) _mm512_mask_storeu_ps(out + i * cols + j0, mask, _mm512_add_ps(r[i], add));
  }
}
#endif

// out[r * cols + j] = sums[j * ldc + r] + bias[j] for the rows r < h of one sliver.
void sliver_rows(const float *sums, int64_t ldc, int64_t h, int64_t cols, const float *bias,
                 float *out) {
#if defined(__x86_64__)
  if (use_avx512()) return sliver_rows_avx512(sums, ldc, h, cols, bias, out);
#endif
  for (int64_t j = 0; j < cols; ++j) {
    const float add = bias ? bias[j] : 0.0f;
    for (int64_t r = 0; r < h; ++r) out[r * cols + j] = sums[j * ldc + r] + add;
  }
}

void pack_sliver(const float *x, int64_t m, int64_t k, int64_t s, float *xp) {
  const int64_t rows = std::min(kSliver, m - s * kSliver);
#if defined(__x86_64__)
  // 16 x 16 blocks transposed in registers (a gather a depth took 5% of that product, the
  // transposes 10 times less).
  if (use_avx512()) return rows_to_lanes(x + s * kSliver * k, k, rows, k, xp + s * k * kSliver);
#endif
  pack_generic(x + s * kSliver * k, rows, k, xp + s * k * kSliver);
}

// Starts loading the weight rows [j, j + rows) over [t0, t0 + d) while the group before runs:
// a group's rows are short runs (1 KB of f16) far apart, which the hardware prefetcher
// follows late: their conversion took 8.6-9% of a 128 x 2,048 x 768 product without this,
// 6-7.6% with it (a part before each tile instead was no better).
void prefetch_rows(const uint8_t *w, size_t es, int64_t k, int64_t j, int64_t rows, int64_t t0,
                   int64_t d) {
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t *p = w + ((j + r) * k + t0) * es;
    for (size_t at = 0; at < static_cast<size_t>(d) * es; at += 64) __builtin_prefetch(p + at);
  }
}

// Columns [j0, j1) of y from the packed x.
void run_columns(const float *xp, int64_t slivers, const uint8_t *w, DType wt, const float *bias,
                 void *y, DType yt, int64_t m, int64_t k, int64_t n, int64_t j0, int64_t j1) {
  const int64_t cols = j1 - j0, nr = tile_cols();
  const int64_t rows = (cols + kChunkUnit - 1) / kChunkUnit * kChunkUnit, ldc = slivers * kSliver;
  const size_t es = dtype_size(wt);
  // A group's rows past j1 keep the previous group's values: they only reach sums' padding.
  std::vector<float> panel(static_cast<size_t>(kChunkUnit * kDepth), 0.0f);
  std::vector<float> sums(static_cast<size_t>(rows * ldc), 0.0f);
  for (int64_t t0 = 0; t0 < k; t0 += kDepth) {
    const int64_t d = std::min(kDepth, k - t0);
    for (int64_t g = 0; g < cols; g += nr) {
      if (g + nr < cols) prefetch_rows(w, es, k, j0 + g + nr, std::min(nr, cols - g - nr), t0, d);
      for (int64_t j = g; j < std::min(cols, g + nr); ++j)
        to_f32(wt, w + ((j0 + j) * k + t0) * es, &panel[(j - g) * kDepth], static_cast<size_t>(d));
      group_product(xp + t0 * kSliver, k * kSliver, slivers, panel.data(), d, &sums[g * ldc], ldc);
    }
  }
  // y's rows a sliver at a time: each line of sums read once, the rows' segments in L1 (row by
  // row, the strided reads of sums took 8.6% of a 128 x 768 x 2,048 product).
  std::vector<float> out(static_cast<size_t>(kSliver * cols));
  for (int64_t i0 = 0; i0 < m; i0 += kSliver) {
    const int64_t h = std::min(kSliver, m - i0);
    sliver_rows(&sums[i0], ldc, h, cols, bias ? bias + j0 : nullptr, out.data());
    for (int64_t r = 0; r < h; ++r)
      from_f32(yt, &out[r * cols], static_cast<uint8_t *>(y) + ((i0 + r) * n + j0) * dtype_size(yt),
               cols);
  }
}

}  // namespace

std::unique_ptr<PreparedOp> panel_matmul_op(DType xt, DType wt, int64_t m, int64_t k, int64_t n,
                                            bool bias) {
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &o,
                     backend::AiCores &cores) {
    std::vector<float> xs, bs;
    const float *x = static_cast<const float *>(in[0].data);
    const float *b = bias ? static_cast<const float *>(in[2].data) : nullptr;
    if (xt != DType::f32) {
      xs.resize(m * k);
      to_f32(xt, in[0].data, xs.data(), xs.size());
      x = xs.data();
      if (bias) {
        bs.resize(n);
        to_f32(xt, in[2].data, bs.data(), bs.size());
        b = bs.data();
      }
    }
    const int64_t slivers = (m + kSliver - 1) / kSliver;
    // Every sliver is written by pack_sliver: no zeroing first.
    const std::unique_ptr<float[]> xp(new float[slivers * k * kSliver]);
    const auto *w = static_cast<const uint8_t *>(in[1].data);
    // Four chunks a core, taken by whichever core is free (a descheduled core holds back
    // only its chunk), rounded up to whole tiles so that the cores get equal shares (rounded
    // down, 2,048 columns made 9 chunks for 2 cores); more when a chunk's sums would not stay
    // in L2 (256 KB). Each chunk reads all of x again, from L3.
    const int64_t per = std::min((n + 4 * cores.count() - 1) / (4 * cores.count()),
                                 std::max(kChunkUnit, (64 << 10) / (slivers * kSliver)));
    const int64_t cols = (per + kChunkUnit - 1) / kChunkUnit * kChunkUnit;
    const auto chunks = static_cast<size_t>((n + cols - 1) / cols);
    auto pack = [&](size_t s) { pack_sliver(x, m, k, static_cast<int64_t>(s), xp.get()); };
    auto body = [&](size_t c) {
      const auto j0 = static_cast<int64_t>(c) * cols;
      run_columns(xp.get(), slivers, w, wt, b, o[0].data, xt, m, k, n, j0, std::min(n, j0 + cols));
    };
    if (cores.count() > 1) {
      cores.parallel_for(static_cast<size_t>(slivers), pack);
      cores.parallel_for(chunks, body);
    } else {
      for (size_t s = 0; s < static_cast<size_t>(slivers); ++s) pack(s);
      for (size_t c = 0; c < chunks; ++c) body(c);
    }
  });
}

}  // namespace openacl::ops
