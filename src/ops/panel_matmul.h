// y = x w^T (+ bias) for many rows of x [m, k] against a float16 or bfloat16 weight stored
// [n, k], as ggml stores every weight: the product of prompt processing (more rows than the
// skinny kernel takes). oneDNN has no f16 matmul on CPUs without AVX512-FP16, and casting the
// whole weight to f32 on every call wrote and read it again; this kernel converts the weight
// a panel at a time, in cache, and runs an f32 GEMM on each panel, split over the AI cores.
#pragma once

#include <cstdint>
#include <memory>

#include "ops/op.h"

namespace openacl::ops {

// Inputs x [m, k] (dtype xt: f32, or f16 / bf16 as wt), w [n, k] (wt: f16 or bf16), optional
// bias [n] (xt); output y [m, n] in xt. Sums in f32.
std::unique_ptr<PreparedOp> panel_matmul_op(DType xt, DType wt, int64_t m, int64_t k, int64_t n,
                                            bool bias);

}  // namespace openacl::ops
