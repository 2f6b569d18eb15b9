// RotaryPositionEmbedding's kernel: y = x * cos + rotate(x) * sin, one pass over each row of
// the caller's views. The composed form (a dense copy of x, Neg, two strided copies, Mul, Mul,
// Add) made seven steps; ggml calls it twice a layer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nn/plan.h"

namespace openacl::nn {

struct RopeShape {
  std::vector<int64_t> lead;  // x's dims but the last
  int64_t cols = 0;           // the last dim, even
  bool interleave = false;    // mode 1: pairs (2i, 2i + 1); mode 0: halves (i, i + cols / 2)
};

// Inputs x, cos, sin and output y, all of x's dims (cos and sin with stride 0 where they
// broadcast) and a last dim of stride 1; leading dims of any strides. f32, f16, bf16.
std::shared_ptr<const StridedKernel> rope_kernel(RopeShape shape);

}  // namespace openacl::nn
