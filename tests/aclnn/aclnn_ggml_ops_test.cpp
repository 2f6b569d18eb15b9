// The aclnn functions issue 13 adds for ggml's CANN backend, each against a naive reference
// (some on strided views), with the codes of rejected arguments; and the functions declared
// for ggml's sake but not planned yet, which must fail by name rather than do nothing.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "fixture.h"

namespace {

class AclnnGgml : public AclnnTest {
 protected:
  static std::vector<float> ramp(size_t n, float from, float step) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = from + step * static_cast<float>(i);
    return v;
  }
  static void expect_near(const std::vector<float> &got, const std::vector<float> &want,
                          float tol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], tol * std::max(1.0f, std::fabs(want[i]))) << "at " << i;
  }
};

TEST_F(AclnnGgml, InPlaceUnaryOnATransposedView) {
  // selfRef is the transpose of a 3x4 matrix: the result lands in the same strided places.
  const std::vector<float> x = ramp(12, -1.5f, 0.25f);
  for (int which = 0; which < 3; ++which) {
    aclTensor *self = tensor(x, {4, 3}, {1, 4});
    const auto plan = which == 0   ? aclnnInplaceSinGetWorkspaceSize
                      : which == 1 ? aclnnInplaceCosGetWorkspaceSize
                                   : aclnnInplaceExpGetWorkspaceSize;
    const auto exec = which == 0 ? aclnnInplaceSin : which == 1 ? aclnnInplaceCos : aclnnInplaceExp;
    ASSERT_EQ(run(plan, exec, self), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want(x);
    for (float &v : want) v = which == 0 ? std::sin(v) : which == 1 ? std::cos(v) : std::exp(v);
    expect_near(read<float>(self), want, 1e-5f);
  }
}

TEST_F(AclnnGgml, Activations) {
  const std::vector<float> x = ramp(16, -4.0f, 0.55f);
  auto apply = [&](auto plan, auto exec, auto f, auto... extra) {
    aclTensor *self = tensor(x, {4, 4});
    aclTensor *out = tensor(std::vector<float>(16, 0), {4, 4});
    ASSERT_EQ(run(plan, exec, self, extra..., out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want(x);
    for (float &v : want) v = f(v);
    expect_near(read<float>(out), want, 1e-5f);
  };
  apply(aclnnSignGetWorkspaceSize, aclnnSign,
        [](float v) { return static_cast<float>((v > 0) - (v < 0)); });
  apply(aclnnHardsigmoidGetWorkspaceSize, aclnnHardsigmoid,
        [](float v) { return std::clamp(v / 6 + 0.5f, 0.0f, 1.0f); });
  apply(aclnnHardswishGetWorkspaceSize, aclnnHardswish,
        [](float v) { return v * std::clamp(v + 3, 0.0f, 6.0f) / 6; });
  apply(
      aclnnLeakyReluGetWorkspaceSize, aclnnLeakyRelu, [](float v) { return v >= 0 ? v : 0.1f * v; },
      scalar(0.1f));
  apply(
      aclnnEluGetWorkspaceSize, aclnnElu,
      [](float v) { return 2.0f * (v > 0 ? v : 0.5f * (std::exp(1.5f * v) - 1)); }, scalar(0.5f),
      scalar(2.0f), scalar(1.5f));
  apply(
      aclnnSoftplusGetWorkspaceSize, aclnnSoftplus,
      [](float v) { return 2 * v > 1 ? v : std::log1p(std::exp(2 * v)) / 2; }, scalar(2.0f),
      scalar(1.0f));
  apply(
      aclnnGeluV2GetWorkspaceSize, aclnnGeluV2,
      [](float v) { return 0.5f * v * (1 + std::erf(v / std::sqrt(2.0f))); }, int64_t{0});
  apply(
      aclnnGeluV2GetWorkspaceSize, aclnnGeluV2,
      [](float v) {
        return 0.5f * v * (1 + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
      },
      int64_t{1});
  apply(
      aclnnClampMinGetWorkspaceSize, aclnnClampMin, [](float v) { return std::max(v, -1.0f); },
      scalar(-1.0f));
  apply(
      aclnnThresholdGetWorkspaceSize, aclnnThreshold, [](float v) { return v > 0.5f ? v : -7.0f; },
      scalar(0.5f), scalar(-7.0f));
}

TEST_F(AclnnGgml, InPlaceScalarForms) {
  // The chain ggml's rope runs for its YaRN ramp: subs, divs, threshold, clamp max, adds.
  const std::vector<float> x = ramp(8, -2.0f, 0.7f);
  aclTensor *self = tensor(x, {8});
  ASSERT_EQ(
      run(aclnnInplaceSubsGetWorkspaceSize, aclnnInplaceSubs, self, scalar(1.0f), scalar(2.0f)),
      ACLNN_SUCCESS);
  ASSERT_EQ(run(aclnnInplaceDivsGetWorkspaceSize, aclnnInplaceDivs, self, scalar(4.0f)),
            ACLNN_SUCCESS);
  ASSERT_EQ(run(aclnnInplaceThresholdGetWorkspaceSize, aclnnInplaceThreshold, self, scalar(0.0f),
                scalar(0.0f)),
            ACLNN_SUCCESS);
  ASSERT_EQ(run(aclnnInplaceClampMaxGetWorkspaceSize, aclnnInplaceClampMax, self, scalar(0.5f)),
            ACLNN_SUCCESS);
  ASSERT_EQ(
      run(aclnnInplaceAddsGetWorkspaceSize, aclnnInplaceAdds, self, scalar(3.0f), scalar(0.5f)),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want(x);
  for (float &v : want) {
    v = (v - 2.0f) / 4.0f;
    v = v > 0 ? v : 0;
    v = std::min(v, 0.5f) + 1.5f;
  }
  expect_near(read<float>(self), want, 1e-6f);
  // Divs on integers is true division.
  aclTensor *ints_in = tensor(std::vector<int32_t>{1, 2, 3}, {3});
  aclTensor *out = tensor(std::vector<float>(3, 0), {3});
  ASSERT_EQ(run(aclnnDivsGetWorkspaceSize, aclnnDivs, ints_in, scalar(2.0f), out), ACLNN_SUCCESS);
  expect_near(read<float>(out), {0.5f, 1.0f, 1.5f}, 1e-6f);
  EXPECT_EQ(
      plan_only(aclnnInplaceClampMaxGetWorkspaceSize, self, static_cast<aclScalar *>(nullptr)),
      ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(AclnnGgml, InplacePowTensorTensorBroadcastsTheExponent) {
  aclTensor *self = tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  aclTensor *e = tensor(std::vector<float>{2, 0.5f, 3}, {3});
  ASSERT_EQ(run(aclnnInplacePowTensorTensorGetWorkspaceSize, aclnnInplacePowTensorTensor, self, e),
            ACLNN_SUCCESS);
  expect_near(read<float>(self), {1, std::sqrt(2.0f), 27, 16, std::sqrt(5.0f), 216}, 1e-5f);
}

TEST_F(AclnnGgml, GeGluV3ActivatesEitherHalf) {
  const std::vector<float> x = ramp(12, -2.0f, 0.4f);  // [2, 6]: halves of 3 along dim 1
  auto gelu = [](float v) {
    return 0.5f * v * (1 + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
  };
  for (bool left : {true, false}) {
    aclTensor *self = tensor(x, {2, 6});
    aclTensor *out = tensor(std::vector<float>(6, 0), {2, 3});
    aclTensor *g = tensor(std::vector<float>(6, 0), {2, 3});
    ASSERT_EQ(run(aclnnGeGluV3GetWorkspaceSize, aclnnGeGluV3, self, int64_t{-1}, int64_t{1}, left,
                  out, g),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> want_out, want_g;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) {
        const float a = x[r * 6 + c], b = x[r * 6 + 3 + c];
        want_g.push_back(gelu(left ? a : b));
        want_out.push_back(left ? gelu(a) * b : a * gelu(b));
      }
    expect_near(read<float>(out), want_out, 1e-5f);
    expect_near(read<float>(g), want_g, 1e-5f);
  }
  aclTensor *odd = tensor(std::vector<float>(10, 0), {2, 5});
  aclTensor *o = tensor(std::vector<float>(4, 0), {2, 2});
  EXPECT_EQ(plan_only(aclnnGeGluV3GetWorkspaceSize, odd, int64_t{1}, int64_t{0}, false, o, o),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, MvAndTheNzWeightCalls) {
  // self is the transpose of a stored 3x2 matrix.
  aclTensor *self = tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, {1, 2});
  aclTensor *vec = tensor(std::vector<float>{1, -1, 2}, {3});
  aclTensor *out = tensor(std::vector<float>(2, 0), {2});
  ASSERT_EQ(run(aclnnMvGetWorkspaceSize, aclnnMv, self, vec, out, int8_t{1}), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_near(read<float>(out), {1 - 3 + 10, 2 - 4 + 12}, 1e-6f);

  uint64_t size = 0;
  const std::vector<int64_t> shape = {100, 70};
  aclIntArray *s = ints(shape);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(s, ACL_FLOAT16, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 112u * 80u);
  ASSERT_EQ(aclnnCalculateMatmulWeightSizeV2(s, ACL_INT8, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 112u * 96u);
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(nullptr, ACL_FLOAT16, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnCalculateMatmulWeightSizeV2(ints({5}), ACL_FLOAT16, &size),
            ACLNN_ERR_PARAM_INVALID);

  // The sim's NZ weight keeps the ND bytes its matmuls read.
  const std::vector<float> w = ramp(6, 0, 1);
  aclTensor *weight = tensor(w, {2, 3});
  ASSERT_EQ(run(aclnnTransMatmulWeightGetWorkspaceSize, aclnnTransMatmulWeight, weight),
            ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(weight), w);
  EXPECT_EQ(plan_only(aclnnTransMatmulWeightGetWorkspaceSize, tensor(w, {6})),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, TriangularSolveBothTrianglesAndTransposed) {
  // A batch of two 3x3 matrices; the triangle not used holds junk that must not be read.
  const std::vector<float> a = {2, 9, 9, 1, 3, 9, 4, -1, 5, 1, 7, 7, 2, -2, 7, 0.5f, 3, 4};
  const std::vector<float> b = {1, 2, 3, 4, 5, 6, -1, 0, 2, 1, 0.5f, 3};  // [2, 3, 2]
  for (bool upper : {false, true})
    for (bool transpose : {false, true}) {
      aclTensor *bt = tensor(b, {2, 3, 2}), *at = tensor(a, {2, 3, 3});
      aclTensor *x = tensor(std::vector<float>(12, 0), {2, 3, 2}),
                *m = tensor(std::vector<float>(18, 0), {2, 3, 3});
      ASSERT_EQ(run(aclnnTriangularSolveGetWorkspaceSize, aclnnTriangularSolve, bt, at, upper,
                    transpose, false, x, m),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      // Check op(A) x == b with the triangle's entries only.
      const std::vector<float> got = read<float>(x);
      for (int bi = 0; bi < 2; ++bi)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 2; ++j) {
            double s = 0;
            for (int q = 0; q < 3; ++q) {
              const int r = transpose ? q : i, c = transpose ? i : q;
              if (upper ? c >= r : c <= r) s += a[bi * 9 + r * 3 + c] * got[bi * 6 + q * 2 + j];
            }
            EXPECT_NEAR(s, b[bi * 6 + i * 2 + j], 1e-4)
                << upper << transpose << " at " << bi << i << j;
          }
      EXPECT_EQ(read<float>(m), a);
    }
  aclTensor *bt = tensor(b, {2, 3, 2}), *at = tensor(a, {2, 3, 3});
  EXPECT_EQ(plan_only(aclnnTriangularSolveGetWorkspaceSize, bt, at, false, false, true, bt, at),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnTriangularSolveGetWorkspaceSize, at, bt, false, false, false, at, bt),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, Pools) {
  const int64_t h = 5, w = 6;
  const std::vector<float> x = ramp(2 * h * w, -3, 0.37f);  // [1, 2, 5, 6]
  auto at = [&](int64_t c, int64_t i, int64_t j) { return x[(c * h + i) * w + j]; };
  // AvgPool2d 3x3, stride 2, padding 1, both padding counts.
  for (bool include : {true, false}) {
    aclTensor *self = tensor(x, {1, 2, h, w});
    aclTensor *out = tensor(std::vector<float>(2 * 3 * 3, 0), {1, 2, 3, 3});
    ASSERT_EQ(run(aclnnAvgPool2dGetWorkspaceSize, aclnnAvgPool2d, self, ints({3, 3}), ints({2, 2}),
                  ints({1, 1}), false, include, int64_t{0}, int8_t{0}, out),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<float> want;
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t oi = 0; oi < 3; ++oi)
        for (int64_t oj = 0; oj < 3; ++oj) {
          float sum = 0;
          int n = 0;
          for (int64_t di = 0; di < 3; ++di)
            for (int64_t dj = 0; dj < 3; ++dj) {
              const int64_t i = oi * 2 - 1 + di, j = oj * 2 - 1 + dj;
              if (i >= 0 && i < h && j >= 0 && j < w) {
                sum += at(c, i, j);
                ++n;
              }
            }
          want.push_back(sum / (include ? 9 : n));
        }
    expect_near(read<float>(out), want, 1e-5f);
  }
  // MaxPool 2x2 stride 2, no padding.
  aclTensor *self = tensor(x, {1, 2, h, w});
  aclTensor *out = tensor(std::vector<float>(2 * 2 * 3, 0), {1, 2, 2, 3});
  ASSERT_EQ(run(aclnnMaxPoolGetWorkspaceSize, aclnnMaxPool, self, ints({2, 2}), ints({2, 2}),
                int64_t{0}, ints({0, 0, 0, 0}), ints({1, 1}), int64_t{0}, out),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t oi = 0; oi < 2; ++oi)
      for (int64_t oj = 0; oj < 3; ++oj)
        want.push_back(std::max({at(c, 2 * oi, 2 * oj), at(c, 2 * oi, 2 * oj + 1),
                                 at(c, 2 * oi + 1, 2 * oj), at(c, 2 * oi + 1, 2 * oj + 1)}));
  expect_near(read<float>(out), want, 0);
  EXPECT_EQ(plan_only(aclnnMaxPoolGetWorkspaceSize, self, ints({2, 2}), ints({2, 2}), int64_t{0},
                      ints({0, 0, 0, 0}), ints({2, 2}), int64_t{0}, out),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnAvgPool2dGetWorkspaceSize, self, ints({2, 2}), ints({2, 2}),
                      ints({0, 0}), false, true, int64_t{3}, int8_t{0}, out),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, UpsampleNearest2dAndIm2col) {
  const std::vector<float> x = ramp(2 * 3 * 4, 0, 1);  // [1, 2, 3, 4]
  aclTensor *self = tensor(x, {1, 2, 3, 4});
  aclTensor *up = tensor(std::vector<float>(2 * 7 * 5, 0), {1, 2, 7, 5});
  ASSERT_EQ(
      run(aclnnUpsampleNearest2dGetWorkspaceSize, aclnnUpsampleNearest2d, self, ints({7, 5}), up),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t i = 0; i < 7; ++i)
      for (int64_t j = 0; j < 5; ++j) want.push_back(x[(c * 3 + i * 3 / 7) * 4 + j * 4 / 5]);
  expect_near(read<float>(up), want, 0);

  // 2x2 kernel, dilation (1, 2), padding (1, 0), stride (2, 1): out [1, 2 * 4, L].
  const int64_t oh = (3 + 2 - 1 - 1) / 2 + 1, ow = (4 - 2 - 1) / 1 + 1, l = oh * ow;
  aclTensor *cols = tensor(std::vector<float>(2 * 4 * l, -1), {1, 8, l});
  ASSERT_EQ(run(aclnnIm2colGetWorkspaceSize, aclnnIm2col, self, ints({2, 2}), ints({1, 2}),
                ints({1, 0}), ints({2, 1}), cols),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  want.clear();
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t ki = 0; ki < 2; ++ki)
      for (int64_t kj = 0; kj < 2; ++kj)
        for (int64_t oi = 0; oi < oh; ++oi)
          for (int64_t oj = 0; oj < ow; ++oj) {
            const int64_t i = oi * 2 - 1 + ki, j = oj + kj * 2;
            want.push_back(i >= 0 && i < 3 ? x[(c * 3 + i) * 4 + j] : 0);
          }
  expect_near(read<float>(cols), want, 0);
  aclTensor *wrong = tensor(std::vector<float>(10, 0), {1, 10, 1});
  EXPECT_EQ(plan_only(aclnnIm2colGetWorkspaceSize, self, ints({2, 2}), ints({1, 2}), ints({1, 0}),
                      ints({2, 1}), wrong),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, ReflectionPadTriuAndIndexFill) {
  aclTensor *self = tensor(ramp(8, 0, 1), {2, 4});
  aclTensor *out = tensor(std::vector<float>(2 * 9, 0), {2, 9});
  ASSERT_EQ(
      run(aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad1d, self, ints({3, 2}), out),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_near(read<float>(out), {3, 2, 1, 0, 1, 2, 3, 2, 1, 7, 6, 5, 4, 5, 6, 7, 6, 5}, 0);
  EXPECT_EQ(plan_only(aclnnReflectionPad1dGetWorkspaceSize, self, ints({4, 0}), out),
            ACLNN_ERR_PARAM_INVALID);

  aclTensor *m = tensor(std::vector<float>(9, 1), {3, 3});
  ASSERT_EQ(run(aclnnInplaceTriuGetWorkspaceSize, aclnnInplaceTriu, m, int64_t{1}), ACLNN_SUCCESS);
  expect_near(read<float>(m), {0, 1, 1, 0, 0, 1, 0, 0, 0}, 0);

  aclTensor *f = tensor(std::vector<float>(12, 0), {3, 4});
  ASSERT_EQ(run(aclnnInplaceIndexFillTensorGetWorkspaceSize, aclnnInplaceIndexFillTensor, f,
                int64_t{1}, ints({0, -1}), scalar(5)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_near(read<float>(f), {5, 0, 0, 5, 5, 0, 0, 5, 5, 0, 0, 5}, 0);
  EXPECT_EQ(
      plan_only(aclnnInplaceIndexFillTensorGetWorkspaceSize, f, int64_t{1}, ints({4}), scalar(5)),
      ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, Reductions) {
  const std::vector<float> x = ramp(12, -2.5f, 0.45f);  // [3, 4]
  aclTensor *self = tensor(x, {3, 4});
  aclTensor *cs = tensor(std::vector<float>(12, 0), {3, 4});
  ASSERT_EQ(run(aclnnCumsumGetWorkspaceSize, aclnnCumsum, self, int64_t{0}, ACL_FLOAT, cs),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want(x);
  for (int i = 4; i < 12; ++i) want[i] += want[i - 4];
  expect_near(read<float>(cs), want, 1e-6f);

  for (float order : {1.0f, 2.0f, 3.0f}) {
    aclTensor *n = tensor(std::vector<float>(3, 0), {3, 1});
    ASSERT_EQ(run(aclnnNormGetWorkspaceSize, aclnnNorm, self, scalar(order), ints({1}), true, n),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    want.clear();
    for (int r = 0; r < 3; ++r) {
      double s = 0;
      for (int c = 0; c < 4; ++c) s += std::pow(std::fabs(x[r * 4 + c]), order);
      want.push_back(static_cast<float>(std::pow(s, 1.0 / order)));
    }
    expect_near(read<float>(n), want, 1e-5f);
  }

  aclTensor *ls = tensor(std::vector<float>(12, 0), {3, 4});
  ASSERT_EQ(run(aclnnLogSoftmaxGetWorkspaceSize, aclnnLogSoftmax, self, int64_t{-1}, ls),
            ACLNN_SUCCESS);
  std::vector<float> lsm(12);
  for (int r = 0; r < 3; ++r) {
    double s = 0;
    for (int c = 0; c < 4; ++c) s += std::exp(x[r * 4 + c]);
    for (int c = 0; c < 4; ++c) lsm[r * 4 + c] = x[r * 4 + c] - static_cast<float>(std::log(s));
  }
  expect_near(read<float>(ls), lsm, 1e-5f);

  const std::vector<float> labels = {0, 1, 0, 0, 0.5f, 0.5f, 0, 0, 0, 0, 0, 1};
  aclTensor *lab = tensor(labels, {3, 4});
  aclTensor *loss = tensor(std::vector<float>(3, 0), {3});
  aclTensor *back = tensor(std::vector<float>(12, 0), {3, 4});
  ASSERT_EQ(run(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize,
                aclnnSoftmaxCrossEntropyWithLogits, self, lab, loss, back),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want_loss(3, 0), want_back(12);
  for (int i = 0; i < 12; ++i) {
    want_loss[i / 4] -= labels[i] * lsm[i];
    want_back[i] = std::exp(lsm[i]) - labels[i];
  }
  expect_near(read<float>(loss), want_loss, 1e-5f);
  expect_near(read<float>(back), want_back, 1e-5f);
}

TEST_F(AclnnGgml, AddRmsNorm) {
  const std::vector<float> a = ramp(8, -1, 0.3f), b = ramp(8, 0.5f, -0.2f), g = {1, 2, 0.5f, -1};
  aclTensor *x1 = tensor(a, {2, 4}), *x2 = tensor(b, {2, 4}), *gamma = tensor(g, {4});
  aclTensor *y = tensor(std::vector<float>(8, 0), {2, 4});
  aclTensor *rstd = tensor(std::vector<float>(2, 0), {2, 1});
  aclTensor *xo = tensor(std::vector<float>(8, 0), {2, 4});
  ASSERT_EQ(run(aclnnAddRmsNormGetWorkspaceSize, aclnnAddRmsNorm, x1, x2, gamma, 1e-6, y, rstd, xo),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want_x(8), want_y(8), want_r(2);
  for (int r = 0; r < 2; ++r) {
    double ss = 0;
    for (int c = 0; c < 4; ++c) {
      want_x[r * 4 + c] = a[r * 4 + c] + b[r * 4 + c];
      ss += want_x[r * 4 + c] * want_x[r * 4 + c];
    }
    want_r[r] = static_cast<float>(1 / std::sqrt(ss / 4 + 1e-6));
    for (int c = 0; c < 4; ++c) want_y[r * 4 + c] = want_x[r * 4 + c] * want_r[r] * g[c];
  }
  expect_near(read<float>(xo), want_x, 1e-6f);
  expect_near(read<float>(y), want_y, 1e-5f);
  expect_near(read<float>(rstd), want_r, 1e-5f);
}

TEST_F(AclnnGgml, GroupNorm) {
  // N 2, C 4, HxW 3, 2 groups, no affine.
  const std::vector<float> x = ramp(24, -3, 0.31f);
  aclTensor *self = tensor(x, {2, 4, 3});
  aclTensor *out = tensor(std::vector<float>(24, 0), {2, 4, 3});
  aclTensor *mean = tensor(std::vector<float>(4, 0), {2, 2});
  aclTensor *rs = tensor(std::vector<float>(4, 0), {2, 2});
  ASSERT_EQ(run(aclnnGroupNormGetWorkspaceSize, aclnnGroupNorm, self,
                static_cast<aclTensor *>(nullptr), static_cast<aclTensor *>(nullptr), int64_t{2},
                int64_t{4}, int64_t{3}, int64_t{2}, 1e-5, out, mean, rs),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want(24), want_mean(4), want_rs(4);
  for (int grp = 0; grp < 4; ++grp) {  // each group: 6 consecutive values
    double m = 0, v = 0;
    for (int i = 0; i < 6; ++i) m += x[grp * 6 + i];
    m /= 6;
    for (int i = 0; i < 6; ++i) v += (x[grp * 6 + i] - m) * (x[grp * 6 + i] - m);
    v /= 6;
    want_mean[grp] = static_cast<float>(m);
    want_rs[grp] = static_cast<float>(1 / std::sqrt(v + 1e-5));
    for (int i = 0; i < 6; ++i)
      want[grp * 6 + i] = static_cast<float>((x[grp * 6 + i] - m) / std::sqrt(v + 1e-5));
  }
  expect_near(read<float>(out), want, 1e-5f);
  expect_near(read<float>(mean), want_mean, 1e-5f);
  expect_near(read<float>(rs), want_rs, 1e-5f);
  EXPECT_EQ(plan_only(aclnnGroupNormGetWorkspaceSize, self, static_cast<aclTensor *>(nullptr),
                      static_cast<aclTensor *>(nullptr), int64_t{2}, int64_t{4}, int64_t{3},
                      int64_t{3}, 1e-5, out, mean, rs),
            ACLNN_ERR_PARAM_INVALID);
}

// An empty output view with stride-0 dims (ggml's SET_ROWS makes one) has no elements to
// overlap: accepted, and nothing is written.
TEST_F(AclnnGgml, AnEmptyOutputViewIsNotAnOverlap) {
  aclTensor *src = tensor(std::vector<float>(4, 1), {3, 1, 0, 4}, {0, 0, 4, 1});
  aclTensor *dst = tensor(std::vector<uint16_t>(4, 7), {3, 1, 0, 4}, {0, 0, 4, 1});
  ASSERT_EQ(run(aclnnCastGetWorkspaceSize, aclnnCast, src, ACL_FLOAT16, dst), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<uint16_t>(dst), std::vector<uint16_t>(4, 7));
  aclTensor *overlap = tensor(std::vector<uint16_t>(4, 7), {3, 4}, {0, 1});
  EXPECT_EQ(plan_only(aclnnCastGetWorkspaceSize, tensor(std::vector<float>(12, 1), {3, 4}),
                      ACL_FLOAT16, overlap),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnGgml, DeclaredOnlyFunctionsFailByName) {
  aclTensor *v = tensor(std::vector<float>{1, 2}, {2});
  aclTensor *out = tensor(std::vector<float>(4, 0), {2, 2});
  EXPECT_EQ(plan_only(aclnnGerGetWorkspaceSize, v, v, out), ACLNN_ERR_INNER);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("aclnnGerGetWorkspaceSize"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Ger is not implemented"), std::string::npos) << msg;
}

}  // namespace

// ggml's ALiBi softmax frees its slope and bias buffers back to its stream-ordered pool before
// the Mul and InplaceAdd that use them, so a workspace those calls asked for would land on them.
// CANN's Add and Mul take f16 or bf16 with f32 as they are, and an in-place add on a dense
// tensor needs no copy: neither asks for a workspace.
TEST_F(AclnnGgml, MixedFloatMulAndAddNeedNoWorkspace) {
  const std::vector<float> mask = {1.5f, -2.0f, 0.25f, 8.0f, -0.5f, 3.0f};
  aclTensor *slope = tensor(std::vector<float>{0.5f}, {1, 1});
  aclTensor *half = tensor(to_f16(mask), {2, 3});
  std::vector<uint16_t> bf(mask.size());
  for (size_t i = 0; i < mask.size(); ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &mask[i], sizeof bits);
    bf[i] = static_cast<uint16_t>(bits >> 16);  // these values are exact in bf16
  }
  aclTensor *bhalf = tensor(bf, {2, 3}, {}, 0, ACL_BF16);
  for (aclTensor *m : {half, bhalf}) {
    aclTensor *out = tensor(std::vector<float>(6, 0.0f), {2, 3});
    uint64_t ws = 1;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnMulGetWorkspaceSize(slope, m, out, &ws, &e), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(ws, 0u);
    ASSERT_EQ(aclnnMul(nullptr, 0, e, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> want;
    for (float v : mask) want.push_back(0.5f * v);
    EXPECT_EQ(read<float>(out), want);

    aclTensor *sum = tensor(std::vector<float>(6, 1.0f), {2, 3});
    ASSERT_EQ(aclnnAddGetWorkspaceSize(m, sum, scalar(1.0f), sum, &ws, &e), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(ws, 0u);
    ASSERT_EQ(aclnnAdd(nullptr, 0, e, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    want.clear();
    for (float v : mask) want.push_back(v + 1.0f);
    EXPECT_EQ(read<float>(sum), want);
  }
}

TEST_F(AclnnGgml, InPlaceBinaryOnADenseTensorNeedsNoWorkspace) {
  aclTensor *self = tensor(ramp(6, 1.0f, 1.0f), {2, 3});
  aclTensor *row = tensor(std::vector<float>{10.0f, 20.0f, 30.0f}, {3});
  uint64_t ws = 1;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(self, row, scalar(1.0f), &ws, &e), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnInplaceAdd(nullptr, 0, e, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnInplaceMulGetWorkspaceSize(self, row, &ws, &e), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnInplaceMul(nullptr, 0, e, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(self), (std::vector<float>{110, 440, 990, 140, 500, 1080}));
}

// ggml's F16 weights: an f32 row against a float16 weight stored [N, K] and viewed as [K, N].
// The weight is read as it is: no f32 copy of it in a workspace.
TEST_F(AclnnGgml, MmOfAnF32RowAgainstAnF16WeightNeedsNoWorkspace) {
  // 2 rows: one block of the skinny kernel (f16 converted in registers); 9: weight panels.
  for (int64_t m : {2, 9}) {
    const int64_t k = 37, n = 5;
    const std::vector<float> x = ramp(m * k, -1.0f, 0.03f), w = ramp(n * k, 0.5f, -0.01f);
    const std::vector<uint16_t> w16 = to_f16(w);
    const std::vector<float> wr = from_f16(w16);
    aclTensor *self = tensor(x, {m, k});
    aclTensor *mat2 = tensor(w16, {k, n}, {1, k});
    aclTensor *out = tensor(std::vector<float>(m * n, 0.0f), {m, n});
    uint64_t ws = 1;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnMmGetWorkspaceSize(self, mat2, out, 1, &ws, &e), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(ws, 0u) << m << " rows";
    ASSERT_EQ(aclnnMm(nullptr, 0, e, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> want;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t q = 0; q < k; ++q) acc += double(x[i * k + q]) * wr[j * k + q];
        want.push_back(static_cast<float>(acc));
      }
    expect_near(read<float>(out), want, 1e-5f);
  }
}
