#include "nn/rms_norm_kernel.h"

#include <cmath>

#include "nn/rows.h"
#include "ops/kernel.h"

namespace openacl::nn {

namespace {

OPENACL_SIMD_KERNEL float sum_squares(const float *x, int64_t n) {
  constexpr int L = 16;
  float s[L] = {};
  int64_t k = 0;
  for (; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) s[j] += x[k + j] * x[k + j];
  float sum = 0;
  for (int j = 0; j < L; ++j) sum += s[j];
  for (; k < n; ++k) sum += x[k] * x[k];
  return sum;
}

// x * rs * g in place, in the composed form's order.
OPENACL_SIMD_KERNEL void scale_row(float *x, float rs, const float *g, int64_t n) {
  for (int64_t k = 0; k < n; ++k) x[k] = x[k] * rs * g[k];
}

class RmsNorm final : public StridedKernel {
 public:
  explicit RmsNorm(RmsNormShape s) : s_(std::move(s)) {
    for (int64_t d : s_.lead) rows_ *= d;
  }

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    if (rows_ == 0 || s_.cols == 0) return;
    const size_t grain = static_cast<size_t>(std::max<int64_t>(1, 16384 / s_.cols));
    ops::parallel_range(cores, static_cast<size_t>(rows_), grain, [&](size_t lo, size_t hi) {
      float *row = kernel_scratch(static_cast<size_t>(2 * s_.cols)), *g = row + s_.cols;
      const size_t n = static_cast<size_t>(s_.cols);
      ops::to_f32(in[1].value->desc.dtype, in[1].data, g, n);
      for (size_t r = lo; r < hi; ++r) {
        ops::to_f32(in[0].value->desc.dtype, row_at(in[0], s_.lead, r), row, n);
        float ss = 0;
        ops::simd(OPENACL_SIMD_LAMBDA { ss = sum_squares(row, s_.cols); });
        const float rs = 1.0f / std::sqrt(ss / static_cast<float>(s_.cols) + s_.eps);
        ops::simd(OPENACL_SIMD_LAMBDA { scale_row(row, rs, g, s_.cols); });
        ops::from_f32(out[0].value->desc.dtype, row, row_at(out[0], s_.lead, r), n);
        if (s_.rstd) ops::from_f32(out[1].value->desc.dtype, &rs, row_at(out[1], s_.lead, r), 1);
      }
    });
  }

 private:
  RmsNormShape s_;
  int64_t rows_ = 1;
};

}  // namespace

std::shared_ptr<const StridedKernel> rms_norm_kernel(RmsNormShape shape) {
  return std::make_shared<RmsNorm>(std::move(shape));
}

}  // namespace openacl::nn
