// y = x w^T (+ bias) against a weight of int8 or int4 values stored [n, k] with a float scale for
// each group of `group` values of k: w[j][t] = q[j][t] * scale[j][t / group]. ggml's Q8_0 and
// Q4_0 weights, as its CANN backend hands them to aclnnWeightQuantBatchMatmulV2 (groups of 32).
// Dequantizing the whole weight for every call wrote it again four times its size; this kernel
// reads the quantized rows where they lie. A few rows of x take each weight vector converted in
// registers, scaled once per group; more rows get the weight dequantized to f32 a chunk of
// columns at a time, in cache, for the skinny matmul (skinny_matmul.h). The output columns go to
// the AI cores in chunks, taken by whichever core is free. A prompt's many rows take the weight
// dequantized to float16 (quant_dequantize_f16) into the panel matmul.
#pragma once

#include <cstdint>

#include "backend/ai_cores.h"
#include "ops/op.h"

namespace openacl::ops {

struct QuantMatmulShape {
  int64_t m = 0, k = 0, n = 0;
  int64_t group = 0;  // values of k that share a scale (k: one scale a weight row)
  bool int4 = false;  // two values a byte, the even one in the low nibble (ACL_INT4)
  DType xt = DType::f32, st = DType::f16, yt = DType::f32;  // x and y: Float; scales: Float
};

// Row strides in elements, the weight's in bytes; every row's own elements are contiguous.
struct QuantMatmulData {
  const void *x = nullptr;
  int64_t ldx = 0;
  const uint8_t *w = nullptr;  // n rows of k values
  int64_t ldw = 0;
  const void *scale = nullptr;  // n rows of k / group scales
  int64_t lds = 0;
  const float *bias = nullptr;  // n values, or none
  void *y = nullptr;
  int64_t ldy = 0;
};

// Sums in f32, in the order sum over groups of scale * (sum over the group of x q); y rounded
// once. group must divide k.
void quant_matmul(const QuantMatmulShape &s, const QuantMatmulData &d, backend::AiCores &cores);

// More rows of x than this are better served by the panel matmul (panel_matmul.h) on the weight
// dequantized to float16, as CANN's kernel dequantizes it (bench_ops BM_WeightQuantMatMul).
constexpr int64_t kQuantPanelRows = 64;

// The weight of d (w, scale) dequantized to float16 rows: out [n, k], dense.
void quant_dequantize_f16(const QuantMatmulShape &s, const QuantMatmulData &d, uint16_t *out,
                          backend::AiCores &cores);

}  // namespace openacl::ops
