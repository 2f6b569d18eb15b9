// Layout: the rows' q, scores and sums are stored transposed, element-major with the 16 rows
// side by side ([d][16], [keys][16]), so that a row vector is one load; rows past n are zeros.
#include "nn/attention_avx512.h"

#include "ops/isa.h"
#include "ops/kernel.h"
#include "ops/transpose16.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#endif

namespace openacl::nn {

namespace {
constexpr int64_t kLanes = kAvx512QueryRows;
}  // namespace

bool attention_avx512(int64_t d) {
#if defined(__x86_64__)
  return ops::use_avx512() && d % kLanes == 0;
#else
  (void)d;
  return false;
#endif
}

size_t attention_avx512_scratch(int64_t keys, int64_t d) {
  return static_cast<size_t>(kLanes * (2 * d + keys));
}

#if defined(__x86_64__)
namespace {

#define OPENACL_AVX512_TARGET __attribute__((target("avx512f,avx2,fma,f16c")))

// st[j] = scale * q . k_j + st[j] (the bias) for the keys j < K of k (rows of d): K
// accumulators, each multiply-add a row vector of q by one broadcast key element.
template <int K>
OPENACL_AVX512_TARGET void scores(const float *qt, const float *k, int64_t d, __m512 scale,
                                  float *st) {
  __m512 acc[K];
  for (int i = 0; i < K; ++i) acc[i] = _mm512_setzero_ps();
  for (int64_t c = 0; c < d; ++c) {
    const __m512 qv = _mm512_loadu_ps(qt + c * kLanes);
    for (int i = 0; i < K; ++i) acc[i] = _mm512_fmadd_ps(qv, _mm512_set1_ps(k[i * d + c]), acc[i]);
  }
  for (int i = 0; i < K; ++i)
    _mm512_storeu_ps(st + i * kLanes,
                     _mm512_fmadd_ps(acc[i], scale, _mm512_loadu_ps(st + i * kLanes)));
}

// dst[r * ld + c] = src[c][r] for r < n and c < cols (a multiple of 16).
OPENACL_AVX512_TARGET void lanes_to_rows(const float *src, int64_t cols, int64_t n, float *dst,
                                         int64_t ld) {
  for (int64_t c0 = 0; c0 < cols; c0 += kLanes) {
    __m512 r[kLanes];
    for (int64_t j = 0; j < kLanes; ++j) r[j] = _mm512_loadu_ps(src + (c0 + j) * kLanes);
    ops::transpose16(r);
    for (int64_t i = 0; i < kLanes; ++i)
      if (i < n) _mm512_storeu_ps(dst + i * ld + c0, r[i]);
  }
}

// ot[c] = inv * sum over j of st[j] v[j][c] for the 16 columns c of v from c0.
OPENACL_AVX512_TARGET void weigh(const float *st, const float *v, int64_t keys, int64_t d,
                                 int64_t c0, __m512 inv, float *ot) {
  __m512 acc[kLanes];
  for (auto &a : acc) a = _mm512_setzero_ps();
  for (int64_t j = 0; j < keys; ++j) {
    const __m512 p = _mm512_loadu_ps(st + j * kLanes);
    const float *vr = v + j * d + c0;
    for (int i = 0; i < kLanes; ++i) acc[i] = _mm512_fmadd_ps(p, _mm512_set1_ps(vr[i]), acc[i]);
  }
  for (int i = 0; i < kLanes; ++i)
    _mm512_storeu_ps(ot + (c0 + i) * kLanes, _mm512_mul_ps(acc[i], inv));
}

// exp(st[j] - max) in place, per row over the keys (fast_exp8 on each half of a row vector,
// as the other softmaxes compute it); returns the rows' sums.
OPENACL_AVX512_TARGET __m512 exp_rows(float *st, int64_t keys) {
  __m512 mx = _mm512_set1_ps(-__builtin_inff());
  for (int64_t j = 0; j < keys; ++j) mx = _mm512_max_ps(mx, _mm512_loadu_ps(st + j * kLanes));
  alignas(64) float m[kLanes], s[kLanes];
  _mm512_store_ps(m, mx);
  ops::f32x8 top[2], sum[2] = {};
  std::memcpy(top, m, sizeof top);
  for (int64_t j = 0; j < keys; ++j) {
    ops::f32x8 e[2];
    std::memcpy(e, st + j * kLanes, sizeof e);
    for (int h = 0; h < 2; ++h) {
      e[h] -= top[h];
      ops::fast_exp8(e[h]);
      sum[h] += e[h];
    }
    std::memcpy(st + j * kLanes, e, sizeof e);
  }
  std::memcpy(s, sum, sizeof s);
  return _mm512_load_ps(s);
}

}  // namespace

OPENACL_AVX512_TARGET void attention_block_avx512(const float *q, int64_t n, const float *bias,
                                                  int64_t ld, const float *k, const float *v,
                                                  int64_t keys, int64_t d, float scale, float *out,
                                                  float *scratch) {
  float *qt = scratch, *ot = qt + kLanes * d, *st = ot + kLanes * d;
  if (keys == 0) return std::fill(out, out + n * d, 0.0f);
  ops::rows_to_lanes(q, d, n, d, qt);
  ops::rows_to_lanes(bias, ld, n, keys, st);
  const __m512 sv = _mm512_set1_ps(scale);
  constexpr int kTile = 12;  // 12 accumulators and the row vector: no spills, loads 13 a 12 FMAs
  int64_t j = 0;
  for (; j + kTile <= keys; j += kTile) scores<kTile>(qt, k + j * d, d, sv, st + j * kLanes);
  for (; j + 4 <= keys; j += 4) scores<4>(qt, k + j * d, d, sv, st + j * kLanes);
  for (; j < keys; ++j) scores<1>(qt, k + j * d, d, sv, st + j * kLanes);
  const __m512 inv = _mm512_div_ps(_mm512_set1_ps(1.0f), exp_rows(st, keys));
  for (int64_t c0 = 0; c0 < d; c0 += kLanes) weigh(st, v, keys, d, c0, inv, ot);
  lanes_to_rows(ot, d, n, out, d);
}
#endif

}  // namespace openacl::nn
