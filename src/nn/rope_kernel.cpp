#include "nn/rope_kernel.h"

#include "nn/rows.h"
#include "ops/kernel.h"

namespace openacl::nn {

namespace {

// The rotation's pairs: (i, i + h) for halves, (2i, 2i + 1) interleaved; y = x * c + r * s with
// r = (-x_b, x_a), as the composed form's Neg, Mul, Mul and Add compute it.
OPENACL_SIMD_KERNEL void rotate_row(const float *x, const float *c, const float *s, float *y,
                                    int64_t n, bool interleave) {
  const int64_t h = n / 2;
  if (interleave) {
    for (int64_t i = 0; i < h; ++i) {
      const float a = x[2 * i], b = x[2 * i + 1];
      y[2 * i] = a * c[2 * i] + -b * s[2 * i];
      y[2 * i + 1] = b * c[2 * i + 1] + a * s[2 * i + 1];
    }
    return;
  }
  for (int64_t i = 0; i < h; ++i) {
    const float a = x[i], b = x[i + h];
    y[i] = a * c[i] + -b * s[i];
    y[i + h] = b * c[i + h] + a * s[i + h];
  }
}

class Rope final : public StridedKernel {
 public:
  explicit Rope(RopeShape s) : s_(std::move(s)) {
    for (int64_t d : s_.lead) rows_ *= d;
  }

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    if (rows_ == 0 || s_.cols == 0) return;
    const size_t grain = static_cast<size_t>(std::max<int64_t>(1, 16384 / s_.cols));
    ops::parallel_range(cores, static_cast<size_t>(rows_), grain, [&](size_t lo, size_t hi) {
      float *x = kernel_scratch(static_cast<size_t>(4 * s_.cols)), *c = x + s_.cols,
            *s = c + s_.cols, *y = s + s_.cols;
      const size_t n = static_cast<size_t>(s_.cols);
      for (size_t r = lo; r < hi; ++r) {
        ops::to_f32(in[0].value->desc.dtype, row_at(in[0], s_.lead, r), x, n);
        ops::to_f32(in[1].value->desc.dtype, row_at(in[1], s_.lead, r), c, n);
        ops::to_f32(in[2].value->desc.dtype, row_at(in[2], s_.lead, r), s, n);
        ops::simd(OPENACL_SIMD_LAMBDA { rotate_row(x, c, s, y, s_.cols, s_.interleave); });
        ops::from_f32(out[0].value->desc.dtype, y, row_at(out[0], s_.lead, r), n);
      }
    });
  }

 private:
  RopeShape s_;
  int64_t rows_ = 1;
};

}  // namespace

std::shared_ptr<const StridedKernel> rope_kernel(RopeShape shape) {
  return std::make_shared<Rope>(std::move(shape));
}

}  // namespace openacl::nn
