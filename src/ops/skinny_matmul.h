// y = x w^T (+ bias) for a few rows of x [m, k] against a weight stored [n, k], as ggml stores
// every weight: the product of token generation and of short prompts. oneDNN's matmul runs this
// transposed layout at about half its speed for small m, and its f16 matmul is not split over
// the AI cores; this kernel streams the weight once (float16 converted in registers, F16C;
// bfloat16 a panel at a time), reuses each panel from L1 for all m rows, and splits the output
// columns over the AI cores.
#pragma once

#include <cstdint>
#include <memory>

#include "ops/op.h"

namespace openacl::ops {

// The most rows of x the kernel takes; more go to oneDNN (bench_ops BM_SkinnyMatMul).
constexpr int64_t kSkinnyMaxRows = 64;

// Inputs x [m, k] (dtype xt), w [n, k] (wt: xt, or f16 / bf16 with an f32 x), optional bias [n]
// (xt); output y [m, n] in xt. Sums in f32.
std::unique_ptr<PreparedOp> skinny_matmul_op(DType xt, DType wt, int64_t m, int64_t k, int64_t n,
                                             bool bias);

}  // namespace openacl::ops
