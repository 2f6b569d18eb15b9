// The quantized matmul of quant_matmul.h. Sums go by sub-groups of 32 values of k (16 when the
// group is 16 long): a sub-group's products are summed, then scaled by its group's scale and
// added to the row's total. Groups longer than 32 (one scale a row) are cut into sub-groups with
// the same scale, so that no chain of dependent multiply-adds runs the whole row long.
#include "ops/quant_matmul.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <vector>

#include "ops/kernel.h"
#include "ops/skinny_matmul.h"

namespace openacl::ops {
namespace {

// Up to this many rows of x (one block of the kernels' accumulators) the weight is converted in
// registers; more rows take dequantized chunks through the skinny matmul, where each weight is
// converted once: bench_ops BM_WeightQuantMatMul 8 x 4,096 x 4,096 took 5.2-5.8 (Q8_0) and
// 4.2-5.7 ms (Q4_0) so against 7.1-8.0 and 5.8-5.9 ms as two blocks in registers (alternating
// builds, two AI cores, load 6.4).
constexpr int kDirectRows = 4;
// A chunk of the many-rows path: about this many weights dequantized to f32 (512 KB, in L2),
// whole rows of them, a multiple of the skinny matmul's 4-row panel.
constexpr int64_t kChunkWeights = 128 << 10;

// Value t of a quantized weight row.
inline int quant_at(const uint8_t *w, bool int4, int64_t t) {
  if (!int4) return static_cast<int8_t>(w[t]);
  const int nib = (w[t / 2] >> (4 * (t & 1))) & 0xf;
  return nib >= 8 ? nib - 16 : nib;
}

// Rows [0, rows) of x against one weight row: out[r] = sum over sub-groups u of sc[u] * (sum
// over the sub-group of x q).
void dot_generic(int rows, const float *x, int64_t ldx, const uint8_t *w, bool int4,
                 const float *sc, int64_t sg, int64_t k, float *out) {
  for (int r = 0; r < rows; ++r) {
    float tot = 0;
    for (int64_t t0 = 0; t0 < k; t0 += sg) {
      float p = 0;
      for (int64_t t = t0; t < t0 + sg; ++t)
        p += x[r * ldx + t] * static_cast<float>(quant_at(w, int4, t));
      tot += p * sc[t0 / sg];
    }
    out[r] = tot;
  }
}

#if defined(__x86_64__)
// 32 int4 values (16 bytes) as int8 in order: lo, values 0-15, and hi, 16-31. A table lookup
// sign-extends each nibble.
__attribute__((target("avx2"))) inline void unpack_int4(__m128i b, __m128i &lo, __m128i &hi) {
  const __m128i mask = _mm_set1_epi8(0x0f);
  const __m128i sign = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
  const __m128i even = _mm_shuffle_epi8(sign, _mm_and_si128(b, mask));
  const __m128i odd = _mm_shuffle_epi8(sign, _mm_and_si128(_mm_srli_epi16(b, 4), mask));
  lo = _mm_unpacklo_epi8(even, odd);
  hi = _mm_unpackhi_epi8(even, odd);
}

// The 16 int8 values of `b` as int8 in v[0] (values 0-15) and, for 32 values, v[1] (16-31);
// one sub-group of SG values from t0 (a multiple of 16) on.
template <int SG, bool I4>
__attribute__((target("avx2"))) inline void quant_bytes(const uint8_t *w, int64_t t0,
                                                        __m128i (&v)[SG / 16]) {
  for (int i = 0; i < SG / 16; ++i) {
    if constexpr (!I4) {
      v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(w + t0 + 16 * i));
    } else if (SG == 16) {
      __m128i unused;
      unpack_int4(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(w + t0 / 2)), v[0], unused);
    } else if (i % 2 == 0) {
      const auto *p = reinterpret_cast<const __m128i *>(w + (t0 + 16 * i) / 2);
      unpack_int4(_mm_loadu_si128(p), v[i], v[(i + 1) % (SG / 16)]);
    }
  }
}

// A sub-group's weights as f32, 8 a vector.
template <int SG, bool I4>
__attribute__((target("avx2,fma"))) inline void quant_avx2(const uint8_t *w, int64_t t0,
                                                           __m256 (&v)[SG / 8]) {
  __m128i b[SG / 16];
  quant_bytes<SG, I4>(w, t0, b);
  for (int i = 0; i < SG / 16; ++i) {
    v[2 * i] = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b[i]));
    v[2 * i + 1] = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(b[i], 8)));
  }
}

// One sub-group of SG values from t0 into acc: the products summed, then scaled by s.
template <int R, int SG, bool I4>
__attribute__((target("avx2,fma"))) inline void sub_avx2(const float *x, int64_t ldx,
                                                         const uint8_t *w, int64_t t0, float s,
                                                         __m256 (&acc)[R]) {
  __m256 wv[SG / 8], p[R];
  quant_avx2<SG, I4>(w, t0, wv);
  for (int r = 0; r < R; ++r) p[r] = _mm256_mul_ps(_mm256_loadu_ps(x + r * ldx + t0), wv[0]);
  for (int i = 1; i < SG / 8; ++i)
    for (int r = 0; r < R; ++r)
      p[r] = _mm256_fmadd_ps(_mm256_loadu_ps(x + r * ldx + t0 + 8 * i), wv[i], p[r]);
  const __m256 sv = _mm256_set1_ps(s);
  for (int r = 0; r < R; ++r) acc[r] = _mm256_fmadd_ps(p[r], sv, acc[r]);
}

__attribute__((target("avx2,fma"))) inline float hsum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// dot_generic with 8 lanes, SG a compile-time length so that the sums stay in registers. Two
// sets of totals, even and odd sub-groups: a single chain would wait on each multiply-add.
template <int R, int SG, bool I4>
__attribute__((target("avx2,fma"))) void dot_avx2(const float *x, int64_t ldx, const uint8_t *w,
                                                  const float *sc, int64_t k, float *out) {
  __m256 even[R], odd[R];
  for (int r = 0; r < R; ++r) even[r] = odd[r] = _mm256_setzero_ps();
  const int64_t subs = k / SG;
  int64_t u = 0;
  for (; u + 2 <= subs; u += 2) {
    sub_avx2<R, SG, I4>(x, ldx, w, u * SG, sc[u], even);
    sub_avx2<R, SG, I4>(x, ldx, w, (u + 1) * SG, sc[u + 1], odd);
  }
  if (u < subs) sub_avx2<R, SG, I4>(x, ldx, w, u * SG, sc[u], even);
  for (int r = 0; r < R; ++r) out[r] = hsum8(_mm256_add_ps(even[r], odd[r]));
}

// The sum of v's lanes. Masked extracts: GCC 12's plain one, and so the 512-to-256 cast and
// _mm512_reduce_add_ps, read an undefined vector (-Wuninitialized).
__attribute__((target("avx512f,avx2,fma"))) inline float hsum16(__m512 v) {
  const __m512d d = _mm512_castps_pd(v);
  const __m256d lo = _mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), 0xf, d, 0);
  const __m256d hi = _mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), 0xf, d, 1);
  return hsum8(_mm256_add_ps(_mm256_castpd_ps(lo), _mm256_castpd_ps(hi)));
}

// The AVX-512 build: 16 weights a vector.
template <int SG, bool I4>
__attribute__((target("avx512f,avx2"))) inline void quant_avx512(const uint8_t *w, int64_t t0,
                                                                 __m512 (&v)[SG / 16]) {
  __m128i b[SG / 16];
  quant_bytes<SG, I4>(w, t0, b);
  // The masked forms: GCC 12 warns that the plain ones read an undefined vector.
  for (int i = 0; i < SG / 16; ++i)
    v[i] = _mm512_maskz_cvtepi32_ps(0xffff, _mm512_maskz_cvtepi8_epi32(0xffff, b[i]));
}

// 32 int4 values (16 bytes) as f32, v[0] the even ones and v[1] the odd ones, for x whose
// blocks of 32 are split the same way (split_x): each byte widened to a lane once, and a
// permute of a table of the 16 values picks the low nibble (it reads 4 bits of each lane) and,
// after a shift, the high one. Against quant_avx512's interleave and conversions, 5
// instructions for 12.
__attribute__((target("avx512f,avx2"))) inline void quant_split_avx512(const uint8_t *w, int64_t t0,
                                                                       __m512 (&v)[2]) {
  const __m512 table = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
  const __m512i z = _mm512_maskz_cvtepu8_epi32(
      0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i *>(w + t0 / 2)));
  v[0] = _mm512_maskz_permutexvar_ps(0xffff, z, table);
  v[1] = _mm512_maskz_permutexvar_ps(0xffff, _mm512_maskz_srli_epi32(0xffff, z, 4), table);
}

template <int R, int SG, bool I4>
__attribute__((target("avx512f,avx2"))) inline void sub_avx512(const float *x, int64_t ldx,
                                                               const uint8_t *w, int64_t t0,
                                                               float s, __m512 (&acc)[R]) {
  __m512 wv[SG / 16], p[R];
  if constexpr (I4 && SG == 32) quant_split_avx512(w, t0, wv);
  else quant_avx512<SG, I4>(w, t0, wv);
  for (int r = 0; r < R; ++r) p[r] = _mm512_mul_ps(_mm512_loadu_ps(x + r * ldx + t0), wv[0]);
  for (int i = 1; i < SG / 16; ++i)
    for (int r = 0; r < R; ++r)
      p[r] = _mm512_fmadd_ps(_mm512_loadu_ps(x + r * ldx + t0 + 16 * i), wv[i], p[r]);
  const __m512 sv = _mm512_set1_ps(s);
  for (int r = 0; r < R; ++r) acc[r] = _mm512_fmadd_ps(p[r], sv, acc[r]);
}

template <int R, int SG, bool I4>
__attribute__((target("avx512f,avx2,fma"))) void dot_avx512(const float *x, int64_t ldx,
                                                            const uint8_t *w, const float *sc,
                                                            int64_t k, float *out) {
  __m512 even[R], odd[R];
  for (int r = 0; r < R; ++r) even[r] = odd[r] = _mm512_setzero_ps();
  const int64_t subs = k / SG;
  int64_t u = 0;
  for (; u + 2 <= subs; u += 2) {
    sub_avx512<R, SG, I4>(x, ldx, w, u * SG, sc[u], even);
    sub_avx512<R, SG, I4>(x, ldx, w, (u + 1) * SG, sc[u + 1], odd);
  }
  if (u < subs) sub_avx512<R, SG, I4>(x, ldx, w, u * SG, sc[u], even);
  for (int r = 0; r < R; ++r) out[r] = hsum16(_mm512_add_ps(even[r], odd[r]));
}

// One weight row dequantized: out[t] = q[t] * sc[t / SG].
template <int SG, bool I4>
__attribute__((target("avx512f,avx2"))) void dequant_avx512(const uint8_t *w, const float *sc,
                                                            int64_t k, float *out) {
  for (int64_t t0 = 0; t0 < k; t0 += SG) {
    const __m512 sv = _mm512_set1_ps(sc[t0 / SG]);
    __m512 v[SG / 16];
    quant_avx512<SG, I4>(w, t0, v);
    for (int i = 0; i < SG / 16; ++i) _mm512_storeu_ps(out + t0 + 16 * i, _mm512_mul_ps(v[i], sv));
  }
}

template <int SG, bool I4>
__attribute__((target("avx2,fma"))) void dequant_avx2(const uint8_t *w, const float *sc, int64_t k,
                                                      float *out) {
  for (int64_t t0 = 0; t0 < k; t0 += SG) {
    const __m256 sv = _mm256_set1_ps(sc[t0 / SG]);
    __m256 v[SG / 8];
    quant_avx2<SG, I4>(w, t0, v);
    for (int i = 0; i < SG / 8; ++i) _mm256_storeu_ps(out + t0 + 8 * i, _mm256_mul_ps(v[i], sv));
  }
}
#endif

// The sub-group length: 32 or 16 for the vector builds (k and the group multiples of 16), else
// the group itself for the generic loops.
int64_t sub_group(const QuantMatmulShape &s) {
  if (s.k % 16 != 0 || s.group % 16 != 0) return s.group;
  return s.group % 32 == 0 ? 32 : 16;
}

// f.template operator()<SG, I4>() for the sub-group lengths the vector builds take (32, 16);
// false for other lengths.
template <class F>
bool with_sub_group(int64_t sg, bool int4, F &&f) {
  if (sg == 32) int4 ? f.template operator()<32, true>() : f.template operator()<32, false>();
  else if (sg == 16) int4 ? f.template operator()<16, true>() : f.template operator()<16, false>();
  return sg == 32 || sg == 16;
}

// Rows [0, rows <= kDirectRows) of x against one weight row, with the best build.
void dot(int rows, const float *x, int64_t ldx, const uint8_t *w, bool int4, const float *sc,
         int64_t sg, int64_t k, float *out) {
#if defined(__x86_64__)
  auto vector = [&]<int SG, bool I4>() {
    if (use_avx512()) {
      if (rows == 4) return dot_avx512<4, SG, I4>(x, ldx, w, sc, k, out);
      if (rows == 3) return dot_avx512<3, SG, I4>(x, ldx, w, sc, k, out);
      if (rows == 2) return dot_avx512<2, SG, I4>(x, ldx, w, sc, k, out);
      return dot_avx512<1, SG, I4>(x, ldx, w, sc, k, out);
    }
    if (rows == 4) return dot_avx2<4, SG, I4>(x, ldx, w, sc, k, out);
    if (rows == 3) return dot_avx2<3, SG, I4>(x, ldx, w, sc, k, out);
    if (rows == 2) return dot_avx2<2, SG, I4>(x, ldx, w, sc, k, out);
    return dot_avx2<1, SG, I4>(x, ldx, w, sc, k, out);
  };
  if (use_avx2() && with_sub_group(sg, int4, vector)) return;
#endif
  dot_generic(rows, x, ldx, w, int4, sc, sg, k, out);
}

// One weight row dequantized: out[t] = q[t] * sc[t / sg].
void dequant_row(const uint8_t *w, bool int4, const float *sc, int64_t sg, int64_t k, float *out) {
#if defined(__x86_64__)
  auto vector = [&]<int SG, bool I4>() {
    if (use_avx512()) return dequant_avx512<SG, I4>(w, sc, k, out);
    dequant_avx2<SG, I4>(w, sc, k, out);
  };
  if (use_avx2() && with_sub_group(sg, int4, vector)) return;
#endif
  for (int64_t t = 0; t < k; ++t) out[t] = static_cast<float>(quant_at(w, int4, t)) * sc[t / sg];
}

// The scale of each sub-group of weight rows [j0, j0 + cols), as f32, k / sg a row: each row's
// group scales, repeated for the sub-groups of a group (from the end, so that none is
// overwritten before it is read). One conversion for the chunk when its scales are dense.
std::vector<float> chunk_scales(const QuantMatmulShape &s, const QuantMatmulData &d, int64_t j0,
                                int64_t cols, int64_t sg) {
  const int64_t groups = s.k / s.group, subs = s.k / sg, per = s.group / sg;
  const size_t es = dtype_size(s.st);
  const auto *src = static_cast<const uint8_t *>(d.scale) + j0 * d.lds * es;
  std::vector<float> out(static_cast<size_t>(cols * subs));
  if (per == 1 && (d.lds == groups || cols == 1)) {
    to_f32(s.st, src, out.data(), out.size());
    return out;
  }
  for (int64_t c = 0; c < cols; ++c) {
    float *row = &out[c * subs];
    to_f32(s.st, src + c * d.lds * es, row, static_cast<size_t>(groups));
    for (int64_t u = subs - 1; u > 0 && per > 1; --u) row[u] = row[u / per];
  }
  return out;
}

// y's rows [0, m) over columns [j0, j0 + cols) from f32 sums (row i at sums + i * ld), plus bias.
void write_rows(const QuantMatmulShape &s, const QuantMatmulData &d, int64_t j0, int64_t cols,
                float *sums, int64_t ld, int64_t i0, int64_t m) {
  const size_t es = dtype_size(s.yt);
  for (int64_t i = 0; i < m; ++i) {
    float *row = sums + i * ld;
    if (d.bias)
      for (int64_t c = 0; c < cols; ++c) row[c] += d.bias[j0 + c];
    from_f32(s.yt, row, static_cast<uint8_t *>(d.y) + ((i0 + i) * d.ldy + j0) * es,
             static_cast<size_t>(cols));
  }
}

// A few rows: columns [j0, j1), weight row after weight row (one stream in address order), each
// against all rows of x at once.
void direct_columns(const QuantMatmulShape &s, const QuantMatmulData &d, const float *x,
                    int64_t ldx, int64_t sg, int64_t j0, int64_t j1) {
  const int64_t cols = j1 - j0, subs = s.k / sg;
  const int m = static_cast<int>(s.m);
  const std::vector<float> sc = chunk_scales(s, d, j0, cols, sg);
  std::vector<float> sums(static_cast<size_t>(m * cols));
  float out[kDirectRows];
  for (int64_t j = j0; j < j1; ++j) {
    dot(m, x, ldx, d.w + j * d.ldw, s.int4, &sc[(j - j0) * subs], sg, s.k, out);
    for (int r = 0; r < m; ++r) sums[r * cols + (j - j0)] = out[r];
  }
  write_rows(s, d, j0, cols, sums.data(), cols, 0, s.m);
}

// The skinny matmul's work inside one chunk, on the core that runs the chunk.
struct OneCore final : backend::AiCores {
  unsigned count() const override { return 1; }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override {
    for (size_t i = 0; i < n; ++i) body(i);
  }
};

// Many rows: columns [j0, j1) dequantized to f32, then x against them in blocks of the skinny
// matmul's rows. ops[a][b]: its kernels for full (a = 0) or last row blocks and full (b = 0) or
// last chunks.
void chunk_columns(const QuantMatmulShape &s, const QuantMatmulData &d, const float *x, int64_t sg,
                   int64_t j0, int64_t j1, const PreparedOp *const (&ops)[2][2],
                   int64_t full_cols) {
  const int64_t cols = j1 - j0, k = s.k;
  const std::vector<float> sc = chunk_scales(s, d, j0, cols, sg);
  std::vector<float> w(static_cast<size_t>(cols * k));
  for (int64_t c = 0; c < cols; ++c)
    dequant_row(d.w + (j0 + c) * d.ldw, s.int4, &sc[c * (k / sg)], sg, k, &w[c * k]);
  std::vector<float> sums(static_cast<size_t>(kSkinnyMaxRows * cols));
  std::vector<Tensor> in(2), out(1);
  in[1].data = w.data();
  out[0].data = sums.data();
  OneCore core;
  for (int64_t i0 = 0; i0 < s.m; i0 += kSkinnyMaxRows) {
    const int64_t rows = std::min(kSkinnyMaxRows, s.m - i0);
    in[0].data = const_cast<float *>(x + i0 * k);
    ops[rows == kSkinnyMaxRows ? 0 : 1][cols == full_cols ? 0 : 1]->run(in, out, core);
    write_rows(s, d, j0, cols, sums.data(), cols, i0, rows);
  }
}

}  // namespace

void quant_matmul(const QuantMatmulShape &s, const QuantMatmulData &d, backend::AiCores &cores) {
  if (s.m == 0 || s.n == 0) return;
  if (s.k == 0) {  // empty sums: y is the bias, or 0
    std::vector<float> zeros(static_cast<size_t>(s.m * s.n), 0.0f);
    return write_rows(s, d, 0, s.n, zeros.data(), s.n, 0, s.m);
  }
  const int64_t sg = sub_group(s), k = s.k;
  // x in f32, rows k apart.
  std::vector<float> xs;
  const float *x = static_cast<const float *>(d.x);
  int64_t ldx = d.ldx;
  if (s.xt != DType::f32 || (s.m > kDirectRows && ldx != k)) {
    xs.resize(static_cast<size_t>(s.m * k));
    const size_t es = dtype_size(s.xt);
    for (int64_t i = 0; i < s.m; ++i)
      to_f32(s.xt, static_cast<const uint8_t *>(d.x) + i * d.ldx * es, &xs[i * k],
             static_cast<size_t>(k));
    x = xs.data();
    ldx = k;
  }
  // The AVX-512 kernel's int4 sub-groups of 32 take x's blocks of 32 split into their even and
  // odd values (quant_split_avx512).
  if (s.m <= kDirectRows && s.int4 && sg == 32 && use_avx512()) {
    std::vector<float> split(static_cast<size_t>(s.m * k));
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t t = 0; t < k; ++t)
        split[i * k + t / 32 * 32 + t % 2 * 16 + t % 32 / 2] = x[i * ldx + t];
    xs = std::move(split);
    x = xs.data();
    ldx = k;
  }
  const int64_t workers = std::max<int64_t>(1, cores.count());
  int64_t cols;
  std::unique_ptr<PreparedOp> skinny[2][2];
  const PreparedOp *ops[2][2] = {};
  if (s.m <= kDirectRows) {
    // Eight chunks a core, taken by whichever core is free; at least 32K multiply-adds a chunk.
    cols = std::max({int64_t{4}, 32768 / std::max<int64_t>(1, s.m * k),
                     (s.n + 8 * workers - 1) / (8 * workers)});
  } else {
    // Whole 4-row panels, at most kChunkWeights, at least four chunks a core when n allows.
    cols = std::min(std::max<int64_t>(4, kChunkWeights / std::max<int64_t>(1, k)),
                    (s.n + 4 * workers - 1) / (4 * workers));
    cols = (cols + 3) / 4 * 4;
    const int64_t tail_rows = s.m % kSkinnyMaxRows, tail_cols = s.n % cols;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const int64_t rows = a == 0 ? kSkinnyMaxRows : tail_rows, c = b == 0 ? cols : tail_cols;
        if (rows == 0 || c == 0 || (a == 0 && s.m < kSkinnyMaxRows)) continue;
        skinny[a][b] = skinny_matmul_op(DType::f32, DType::f32, rows, k, c, false);
        ops[a][b] = skinny[a][b].get();
      }
  }
  const auto chunks = static_cast<size_t>((s.n + cols - 1) / cols);
  auto body = [&](size_t c) {
    const int64_t j0 = static_cast<int64_t>(c) * cols, j1 = std::min(s.n, j0 + cols);
    if (s.m <= kDirectRows) direct_columns(s, d, x, ldx, sg, j0, j1);
    else chunk_columns(s, d, x, sg, j0, j1, ops, cols);
  };
  if (workers > 1 && chunks > 1) cores.parallel_for(chunks, body);
  else
    for (size_t c = 0; c < chunks; ++c) body(c);
}

void quant_dequantize_f16(const QuantMatmulShape &s, const QuantMatmulData &d, uint16_t *out,
                          backend::AiCores &cores) {
  if (s.n == 0 || s.k == 0) return;
  const int64_t sg = sub_group(s);
  // Rows of about 64K weights a part.
  const auto grain = static_cast<size_t>(std::max<int64_t>(1, (64 << 10) / s.k));
  parallel_range(cores, static_cast<size_t>(s.n), grain, [&](size_t lo, size_t hi) {
    const auto j0 = static_cast<int64_t>(lo), cols = static_cast<int64_t>(hi - lo);
    const std::vector<float> sc = chunk_scales(s, d, j0, cols, sg);
    std::vector<float> row(static_cast<size_t>(s.k));
    for (int64_t c = 0; c < cols; ++c) {
      dequant_row(d.w + (j0 + c) * d.ldw, s.int4, &sc[c * (s.k / sg)], sg, s.k, row.data());
      from_f32(DType::f16, row.data(), out + (j0 + c) * s.k, row.size());
    }
  });
}

}  // namespace openacl::ops
