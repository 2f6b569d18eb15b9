// A 16 x 16 block of floats transposed in AVX-512 registers, for kernels that pack or unpack
// rows (panel_matmul.cpp's x, the attention's query rows): about 10 times faster than the
// gather or the scalar copies it replaced.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace openacl::ops {

// r[i][j] -> r[j][i] for 16 vectors of 16: pairs of rows, then 4 x 4 blocks in each 128-bit lane,
// then the lanes.
__attribute__((target("avx512f"))) inline void transpose16(__m512 (&r)[16]) {
  __m512 t[16];
  for (int a = 0; a < 8; ++a) {
    t[2 * a] = _mm512_unpacklo_ps(r[2 * a], r[2 * a + 1]);
    t[2 * a + 1] = _mm512_unpackhi_ps(r[2 * a], r[2 * a + 1]);
  }
  // u[4b + c], lane L: rows 4b..4b+3 at column 4L + c.
  __m512 u[16];
  for (int b = 0; b < 4; ++b)
    for (int h = 0; h < 2; ++h) {
      const __m512d lo = _mm512_castps_pd(t[4 * b + h]), hi = _mm512_castps_pd(t[4 * b + 2 + h]);
      u[4 * b + 2 * h] = _mm512_castpd_ps(_mm512_unpacklo_pd(lo, hi));
      u[4 * b + 2 * h + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(lo, hi));
    }
  for (int c = 0; c < 4; ++c) {
    const __m512 p0 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0x44),
                 p1 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0xEE),
                 q0 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0x44),
                 q1 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0xEE);
    r[c] = _mm512_shuffle_f32x4(p0, q0, 0x88);
    r[4 + c] = _mm512_shuffle_f32x4(p0, q0, 0xDD);
    r[8 + c] = _mm512_shuffle_f32x4(p1, q1, 0x88);
    r[12 + c] = _mm512_shuffle_f32x4(p1, q1, 0xDD);
  }
}

// dst[c][r] = src[r * ld + c] for r < 16 and c < cols (dst: cols rows of 16): rows from n on
// read as zeros. Packs 16 rows of x (the panel matmul) or of queries and biases (the attention).
__attribute__((target("avx512f"))) inline void rows_to_lanes(const float *src, int64_t ld,
                                                             int64_t n, int64_t cols, float *dst) {
  constexpr int64_t kLanes = 16;
  for (int64_t c0 = 0; c0 < cols; c0 += kLanes) {
    const int64_t w = std::min(kLanes, cols - c0);
    const auto mask = static_cast<__mmask16>(w == kLanes ? 0xffff : (1u << w) - 1);
    __m512 r[kLanes];
    for (int64_t i = 0; i < kLanes; ++i)
      r[i] = i < n ? _mm512_maskz_loadu_ps(mask, src + i * ld + c0) : _mm512_setzero_ps();
    transpose16(r);
    // The last block through a buffer: r indexed by a variable made the compiler keep it in
    // memory for every block.
    alignas(64) float tail[kLanes * kLanes];
    float *to = w == kLanes ? dst + c0 * kLanes : tail;
    for (int64_t j = 0; j < kLanes; ++j) _mm512_storeu_ps(to + j * kLanes, r[j]);
    if (w < kLanes) std::copy(tail, tail + w * kLanes, dst + c0 * kLanes);
  }
}

}  // namespace openacl::ops
#endif
