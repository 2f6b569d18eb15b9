// The skinny matmul of skinny_matmul.h. Loop order: the output columns go to the AI cores in
// chunks; a chunk is walked in groups of kGroup columns, each group over k in blocks of
// kDepth (x's block stays in L2 for up to 64 rows; all of k when x fits in L2), and each block in
// panels of kCols weight rows against all m rows of x, in registers, in as few blocks of rows as
// fit (3 rows for AVX2, 6 for AVX-512). One row of x takes the weight rows one at a time.
#include "ops/skinny_matmul.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <type_traits>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

// AVX2: 3 rows x 4 columns, 12 accumulators and 4 weight vectors fill the 16 registers, x comes
// from memory in each multiply-add (AVX-512: up to 6 rows, 24 accumulators of its 32 registers).
constexpr int64_t kRows = 3;
constexpr int64_t kRows512 = 6;
constexpr int64_t kCols = 4;
constexpr int64_t kDepth = 1024;
constexpr int64_t kGroup = 256;
// The longest weight row that one row of x takes alone rather than in panels (row_product).
constexpr int64_t kRowBytes = 8 << 10;

inline float as_float(float v) { return v; }
inline float as_float(uint16_t h) { return half_to_float(h); }

// out[r * C + c] = sum over t < d of x[r * ldx + t] * w[c][t], for r < R. Sixteen partial
// sums, as the vector builds keep, so that all builds round alike.
template <int R, int C, class W>
void block_generic(const float *x, int64_t ldx, const W *const *w, int64_t d, float *out) {
  constexpr int L = 16;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      float part[L] = {};
      int64_t t = 0;
      for (; t + L <= d; t += L)
        for (int l = 0; l < L; ++l) part[l] += x[r * ldx + t + l] * as_float(w[c][t + l]);
      float s = 0;
      for (float v : part) s += v;
      for (; t < d; ++t) s += x[r * ldx + t] * as_float(w[c][t]);
      out[r * C + c] = s;
    }
}

// Sets of sums over consecutive vectors of depth, where R x C accumulators leave registers for
// them: enough independent multiply-adds to hide their latency. AVX2's 16 registers hold one
// set of 3 x 4; AVX-512's 32 hold two of up to 2 x 4; one row against one column takes four.
constexpr int unroll(int r, int c, bool avx512) {
  return r * c == 1 ? 4 : avx512 && r <= 2 ? 2 : 1;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Eight weights as f32: loaded, or converted on the way (F16C).
__attribute__((target("avx2,fma,f16c"))) inline __m256 load8(const float *w) {
  return _mm256_loadu_ps(w);
}
__attribute__((target("avx2,fma,f16c"))) inline __m256 load8(const uint16_t *w) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(w)));
}

// One step of 8 values of depth at t into acc: each weight vector loaded once for R rows.
template <int R, int C, class W>
__attribute__((target("avx2,fma,f16c"))) inline void step8(const float *x, int64_t ldx,
                                                           const W *const *w, int64_t t,
                                                           __m256 (&acc)[R][C]) {
  __m256 wv[C];
  for (int c = 0; c < C; ++c) wv[c] = load8(w[c] + t);
  for (int r = 0; r < R; ++r) {
    const __m256 xv = _mm256_loadu_ps(x + r * ldx + t);
    for (int c = 0; c < C; ++c) acc[r][c] = _mm256_fmadd_ps(xv, wv[c], acc[r][c]);
  }
}

// block_generic with 8 lanes. W: float, or uint16_t for f16 weights converted in registers.
template <int R, int C, class W>
__attribute__((target("avx2,fma,f16c"))) void block_avx2(const float *x, int64_t ldx,
                                                         const W *const *w, int64_t d, float *out) {
  constexpr int U = unroll(R, C, false);
  __m256 acc[U][R][C];
  for (int u = 0; u < U; ++u)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) acc[u][r][c] = _mm256_setzero_ps();
  int64_t t = 0;
  for (; t + 8 * U <= d; t += 8 * U)
    for (int u = 0; u < U; ++u) step8<R, C>(x, ldx, w, t + 8 * u, acc[u]);
  for (; t + 8 <= d; t += 8) step8<R, C>(x, ldx, w, t, acc[0]);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      __m256 v = acc[0][r][c];
      for (int u = 1; u < U; ++u) v = _mm256_add_ps(v, acc[u][r][c]);
      float s = hsum(v);
      for (int64_t u = t; u < d; ++u) s += x[r * ldx + u] * as_float(w[c][u]);
      out[r * C + c] = s;
    }
}

// The AVX-512 build: 16 lanes, and with 32 registers up to 6 rows x 4 columns of accumulators.
__attribute__((target("avx512f"))) inline __m512 load16(const float *w) {
  return _mm512_loadu_ps(w);
}
__attribute__((target("avx512f"))) inline __m512 load16(const uint16_t *w) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(w)));
}

// One step of 16 values of depth at t into acc.
template <int R, int C, class W>
__attribute__((target("avx512f"))) inline void step16(const float *x, int64_t ldx,
                                                      const W *const *w, int64_t t,
                                                      __m512 (&acc)[R][C]) {
  __m512 wv[C];
  for (int c = 0; c < C; ++c) wv[c] = load16(w[c] + t);
  for (int r = 0; r < R; ++r) {
    const __m512 xv = _mm512_loadu_ps(x + r * ldx + t);
    for (int c = 0; c < C; ++c) acc[r][c] = _mm512_fmadd_ps(xv, wv[c], acc[r][c]);
  }
}

template <int R, int C, class W>
__attribute__((target("avx512f"))) void block_avx512(const float *x, int64_t ldx, const W *const *w,
                                                     int64_t d, float *out) {
  constexpr int U = unroll(R, C, true);
  __m512 acc[U][R][C];
  for (int u = 0; u < U; ++u)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) acc[u][r][c] = _mm512_setzero_ps();
  int64_t t = 0;
  for (; t + 16 * U <= d; t += 16 * U)
    for (int u = 0; u < U; ++u) step16<R, C>(x, ldx, w, t + 16 * u, acc[u]);
  for (; t + 16 <= d; t += 16) step16<R, C>(x, ldx, w, t, acc[0]);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      __m512 v = acc[0][r][c];
      for (int u = 1; u < U; ++u) v = _mm512_add_ps(v, acc[u][r][c]);
      float s = _mm512_reduce_add_ps(v);
      for (int64_t u = t; u < d; ++u) s += x[r * ldx + u] * as_float(w[c][u]);
      out[r * C + c] = s;
    }
}
#endif

// Rows of x a block takes at once on this machine.
int64_t block_rows() { return use_avx512() ? kRows512 : kRows; }

// One block of `rows` rows (at most block_rows()) against C weight rows with the best build.
template <int C, class W>
void block(int rows, const float *x, int64_t ldx, const W *const *w, int64_t d, float *out) {
#if defined(__x86_64__)
  if (use_avx512()) {
    if (rows == 6) return block_avx512<6, C>(x, ldx, w, d, out);
    if (rows == 5) return block_avx512<5, C>(x, ldx, w, d, out);
    if (rows == 4) return block_avx512<4, C>(x, ldx, w, d, out);
    if (rows == 3) return block_avx512<3, C>(x, ldx, w, d, out);
    if (rows == 2) return block_avx512<2, C>(x, ldx, w, d, out);
    return block_avx512<1, C>(x, ldx, w, d, out);
  }
  if (use_avx2()) {
    if (rows == 3) return block_avx2<3, C>(x, ldx, w, d, out);
    if (rows == 2) return block_avx2<2, C>(x, ldx, w, d, out);
    return block_avx2<1, C>(x, ldx, w, d, out);
  }
#endif
  if (rows == 3) return block_generic<3, C>(x, ldx, w, d, out);
  if (rows == 2) return block_generic<2, C>(x, ldx, w, d, out);
  block_generic<1, C>(x, ldx, w, d, out);
}

// The weight panel of columns [j, j + kCols) over k's block [t0, t0 + d): f32 rows in place,
// f16 rows in place when `direct` (converted in the kernel), bf16 rows converted into `panel`.
// Columns from `end` on read zeros.
template <class W>
void panel_rows(const uint8_t *w, DType wt, int64_t k, int64_t j, int64_t end, int64_t t0,
                int64_t d, std::vector<float> &panel, const std::vector<float> &zeros,
                const W **p) {
  const size_t es = dtype_size(wt);
  for (int64_t c = 0; c < kCols; ++c) {
    const uint8_t *src = w + ((j + c) * k + t0) * es;
    if (j + c >= end) {
      p[c] = reinterpret_cast<const W *>(zeros.data());
    } else if (wt == DType::f32 || !std::is_same_v<W, float>) {
      p[c] = reinterpret_cast<const W *>(src);
    } else {
      to_f32(wt, src, &panel[c * d], d);
      p[c] = reinterpret_cast<const W *>(&panel[c * d]);
    }
  }
}

// Rows [0, m) of x against one panel: adds the sums to acc (rows of kGroup). Each block of rows
// reads and converts the panel again, so the rows go in as few blocks as the registers allow,
// of even sizes: 5 rows as one block of 5, not 4 and 1 (ggml's MUL_MAT, f16 weight, 5 rows ran
// at twice the time of 4).
template <class W>
void panel_product(const float *x, int64_t m, int64_t k, const W *const *p, int64_t d,
                   int64_t valid, float *acc) {
  float out[kRows512 * kCols];
  const int64_t most = block_rows(), blocks = (m + most - 1) / most;
  for (int64_t b = 0, i = 0; b < blocks; ++b) {
    const int rows = static_cast<int>((m - i) / (blocks - b));
    block<kCols>(rows, x + i * k, k, p, d, out);
    for (int r = 0; r < rows; ++r)
      for (int64_t c = 0; c < valid; ++c) acc[(i + r) * kGroup + c] += out[r * kCols + c];
    i += rows;
  }
}

// Rows [0, m) of x against the weight rows [g0, g1), panel after panel, over k in blocks of
// `depth`: adds the sums to acc (rows of kGroup).
void panels_product(const float *x, const uint8_t *w, DType wt, int64_t m, int64_t k, int64_t g0,
                    int64_t g1, int64_t depth, std::vector<float> &panel,
                    const std::vector<float> &zeros, float *acc) {
  for (int64_t t0 = 0; t0 < k; t0 += depth) {
    const int64_t d = std::min(depth, k - t0);
    for (int64_t j = g0; j < g1; j += kCols) {
      const int64_t valid = std::min(kCols, g1 - j);
      if (wt == DType::f16) {
        const uint16_t *p[kCols];
        panel_rows(w, wt, k, j, g1, t0, d, panel, zeros, p);
        panel_product(x + t0, m, k, p, d, valid, &acc[j - g0]);
      } else {
        const float *p[kCols];
        panel_rows(w, wt, k, j, g1, t0, d, panel, zeros, p);
        panel_product(x + t0, m, k, p, d, valid, &acc[j - g0]);
      }
    }
  }
}

// One row of x against the weight rows [g0, g1), one whole weight row after the other: the
// weight is read in address order, one stream the hardware prefetcher follows. Four short rows
// side by side are four streams that end every few cache lines: f16 rows of 768 and 2,048 (1.5
// and 4 KB, llama's) ran at 17-20 GB/s that way and 24-30 GB/s one by one. Long rows are
// the other way round (f16 rows of 14,336: 24-27 against 19 GB/s), hence kRowBytes. (CPU time
// of one thread over 200 MB of weights, AMD EPYC Zen 4, load 7.)
template <class W>
void row_product(const float *x, const W *w, int64_t k, int64_t g0, int64_t g1, float *acc) {
  for (int64_t j = g0; j < g1; ++j) {
    const W *p[1] = {w + j * k};
    block<1>(1, x, k, p, k, &acc[j - g0]);
  }
}

// Columns [j0, j1) of y: acc (m x kGroup f32 sums) per group, then y's row segments in yt.
void run_columns(const float *x, const uint8_t *w, DType wt, const float *bias, void *y, DType yt,
                 int64_t m, int64_t k, int64_t n, int64_t j0, int64_t j1) {
  // f16 weights are converted in the kernel, again for each block of rows: the panel stays in
  // cache between blocks (L2 when all of k is one block), and a converted copy written and read
  // back ran 4x slower (ggml's MUL_MAT perf case, 8 rows).
  const bool direct = wt == DType::f16;
  // All of k at once while x fits in L2 (the weight's rows then stream whole), else blocks.
  const int64_t depth = m * k * 4 <= (512 << 10) ? k : kDepth;
  // Token generation: one row of x, short f32 or f16 weight rows read whole, one by one.
  const bool by_row = m == 1 && depth == k && wt != DType::bf16 &&
                      k * static_cast<int64_t>(dtype_size(wt)) <= kRowBytes;
  std::vector<float> panel(wt == DType::f32 || direct ? 0 : kCols * depth);
  std::vector<float> zeros(by_row ? 0 : depth, 0.0f), acc(static_cast<size_t>(m * kGroup));
  for (int64_t g0 = j0; g0 < j1; g0 += kGroup) {
    const int64_t g1 = std::min(j1, g0 + kGroup), cols = g1 - g0;
    std::fill(acc.begin(), acc.end(), 0.0f);
    if (by_row && direct)
      row_product(x, reinterpret_cast<const uint16_t *>(w), k, g0, g1, acc.data());
    else if (by_row) row_product(x, reinterpret_cast<const float *>(w), k, g0, g1, acc.data());
    else panels_product(x, w, wt, m, k, g0, g1, depth, panel, zeros, acc.data());
    for (int64_t i = 0; i < m; ++i) {
      float *row = &acc[i * kGroup];
      if (bias)
        for (int64_t c = 0; c < cols; ++c) row[c] += bias[g0 + c];
      from_f32(yt, row, static_cast<uint8_t *>(y) + (i * n + g0) * dtype_size(yt), cols);
    }
  }
}

}  // namespace

std::unique_ptr<PreparedOp> skinny_matmul_op(DType xt, DType wt, int64_t m, int64_t k, int64_t n,
                                             bool bias) {
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
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
        const auto *w = static_cast<const uint8_t *>(in[1].data);
        // Eight chunks a core, taken by whichever core is free: on a loaded host a core that
        // is descheduled holds back only its chunk. At least 32K multiply-adds a chunk: less is
        // not worth a hand-over to another core.
        const int64_t cols =
            std::max({kCols, 32768 / (m * k), (n + 8 * cores.count() - 1) / (8 * cores.count())});
        const auto chunks = static_cast<size_t>((n + cols - 1) / cols);
        auto body = [&](size_t c) {
          const auto j0 = static_cast<int64_t>(c) * cols;
          run_columns(x, w, wt, b, o[0].data, xt, m, k, n, j0, std::min(n, j0 + cols));
        };
        if (cores.count() > 1) cores.parallel_for(chunks, body);
        else
          for (size_t c = 0; c < chunks; ++c) body(c);
      });
}

}  // namespace openacl::ops
