// FusedInferAttentionScoreV2's block of up to 16 query rows on AVX-512, as a small GEMM: one
// vector holds the 16 rows, so scores and weighted sums are multiply-adds of a row vector by a
// broadcast key or value element, with no horizontal sums (the dot products of
// attention_kernel.cpp's AVX2 loops spend as much on those as on the products).
#pragma once

#include <cstddef>
#include <cstdint>

namespace openacl::nn {

constexpr int64_t kAvx512QueryRows = 16;

// Whether attention_block_avx512 runs for head size d on this machine (OPENACL_MAX_ISA caps it).
bool attention_avx512(int64_t d);

// Floats of scratch attention_block_avx512 needs for `keys` keys of head size d.
size_t attention_avx512_scratch(int64_t keys, int64_t d);

// out[r] = softmax(scale * q[r] . k^T + bias[r]) v for the n <= 16 rows q [n, d]: k and v
// [keys, d] f32 rows, bias rows `ld` apart (pse plus -inf where masked). A row whose biases are
// all -inf gives NaN, as a softmax of it does; no keys give 0.
void attention_block_avx512(const float *q, int64_t n, const float *bias, int64_t ld,
                            const float *k, const float *v, int64_t keys, int64_t d, float scale,
                            float *out, float *scratch);

}  // namespace openacl::nn
