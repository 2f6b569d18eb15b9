// WeightQuantBatchMatmulV2's kernel over the caller's views (ops/quant_matmul.h): the quantized
// weight is read where it lies, as ggml's CANN backend hands it over (the transpose of its dense
// [n, k] rows, int8 or int4 with a float16 scale per 32 values).
#pragma once

#include <memory>

#include "nn/plan.h"
#include "ops/quant_matmul.h"

namespace openacl::nn {

// Inputs: x [m, k], the weight [n, k] (i8, or u8 holding two int4 values a byte), the scales
// [n, k / group], optionally the bias (f32, n values); output y [m, n]. Each row's elements
// contiguous, rows at any stride.
std::shared_ptr<const StridedKernel> quant_matmul_kernel(ops::QuantMatmulShape shape, bool bias);

// Inputs: the weight and the scales as above; output: the weight dequantized to float16 [n, k],
// dense.
std::shared_ptr<const StridedKernel> quant_dequantize_kernel(ops::QuantMatmulShape shape);

}  // namespace openacl::nn
