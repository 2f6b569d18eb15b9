// RmsNorm's kernel: y = x * rsqrt(mean(x^2) + eps) * gamma, one pass over each row of the
// caller's views. The composed form (Square, ReduceMeanD, Add, Rsqrt, Mul, Mul) made six passes
// and five operator steps; ggml calls RmsNorm twice a layer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nn/plan.h"

namespace openacl::nn {

struct RmsNormShape {
  std::vector<int64_t> lead;  // the dims before the normalized ones
  int64_t cols = 0;           // elements normalized together (gamma's)
  float eps = 0;
  bool rstd = false;
};

// Inputs: x, whose normalized elements are contiguous in each row, and gamma (dense, cols
// elements). Outputs: y (rows contiguous as x's) and, when shape.rstd, rstd over the lead dims.
// Leading dims may have any strides. Float types f32, f16, bf16.
std::shared_ptr<const StridedKernel> rms_norm_kernel(RmsNormShape shape);

}  // namespace openacl::nn
