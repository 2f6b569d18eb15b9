// The aclnn operators against naive references: dense and strided (transposed, sliced,
// offset) views, broadcasting, dtype conversion, and bad arguments with their exact codes.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_zero.h"
#include "fixture.h"

namespace {

class Ops : public AclnnTest {
 protected:
  aclScalar *f(float v) { return scalar(v); }
};

std::vector<float> iota(size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

void expect_near(const std::vector<float> &got, const std::vector<float> &want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << "at " << i;
}

// ---- elementwise ----------------------------------------------------------------------------

TEST_F(Ops, AddBroadcastsAndScalesOtherByAlpha) {
  aclTensor *x = tensor(iota(6), {2, 3});
  aclTensor *o = tensor<float>({10, 20, 30}, {3});
  aclTensor *y = tensor(std::vector<float>(6), {2, 3});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, o, f(0.5f), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{5, 11, 17, 8, 14, 20}));
}

TEST_F(Ops, AddReadsATransposedViewAndWritesAStridedOne) {
  // x is the transpose of a dense [3,2]; y is every other element of an [2,6] buffer.
  aclTensor *x = tensor(iota(6), {2, 3}, {1, 2});
  aclTensor *o = tensor<float>({1, 1, 1, 1, 1, 1}, {2, 3});
  aclTensor *y = tensor(std::vector<float>(12, -1), {2, 3}, {6, 2}, 1);
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, o, f(1), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // x = [[0,2,4],[1,3,5]]
  EXPECT_EQ(read<float>(y), (std::vector<float>{-1, 1, -1, 3, -1, 5, -1, 2, -1, 4, -1, 6}));
}

TEST_F(Ops, AddPromotesF16AndF32ToOut) {
  aclTensor *x = tensor(to_f16({1.5f, 2.5f}), {2});
  aclTensor *o = tensor<float>({0.25f, 0.25f}, {2});
  aclTensor *y = tensor(std::vector<float>(2), {2});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, o, f(1), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{1.75f, 2.75f}));
}

TEST_F(Ops, AddRefusesShapesThatDoNotBroadcastAndAWrongOut) {
  aclTensor *x = tensor(iota(6), {2, 3});
  aclTensor *o = tensor(iota(2), {2});
  aclTensor *y = tensor(std::vector<float>(6), {2, 3});
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, o, f(1), y), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("do not broadcast"), std::string::npos)
      << aclGetRecentErrMsg();
  aclTensor *small = tensor(std::vector<float>(3), {3});
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, x, f(1), small), ACLNN_ERR_PARAM_INVALID);
  // an output whose elements overlap (stride 0)
  aclTensor *overlap = tensor(std::vector<float>(3), {2, 3}, {0, 1});
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, x, f(1), overlap), ACLNN_ERR_PARAM_INVALID);
  aclTensor *flags = tensor(std::vector<float>(6), {2, 3}, {}, 0, ACL_BOOL);
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, flags, f(1), y), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, nullptr, f(1), y), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(Ops, InplaceAddSubMulDiv) {
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {4});
  aclTensor *o = tensor<float>({2, 2, 2, 2}, {4});
  ASSERT_EQ(run(aclnnInplaceAddGetWorkspaceSize, aclnnInplaceAdd, x, o, f(1)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(x), (std::vector<float>{3, 4, 5, 6}));
  ASSERT_EQ(run(aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMul, x, o), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(x), (std::vector<float>{6, 8, 10, 12}));
  ASSERT_EQ(run(aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDiv, x, o), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(x), (std::vector<float>{3, 4, 5, 6}));
  ASSERT_EQ(run(aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSub, x, o, f(3)), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(x), (std::vector<float>{-3, -2, -1, 0}));
  aclTensor *wide = tensor(iota(8), {2, 4});
  EXPECT_EQ(plan_only(aclnnInplaceAddGetWorkspaceSize, x, wide, f(1)),
            ACLNN_ERR_PARAM_INVALID);  // selfRef cannot grow
}

TEST_F(Ops, SubMulDivWithOut) {
  aclTensor *x = tensor<float>({8, 6, 4, 2}, {2, 2});
  aclTensor *o = tensor<float>({2, 4}, {1, 2});
  aclTensor *y = tensor(std::vector<float>(4), {2, 2});
  ASSERT_EQ(run(aclnnSubGetWorkspaceSize, aclnnSub, x, o, f(2), y), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(y), (std::vector<float>{4, -2, 0, -6}));
  ASSERT_EQ(run(aclnnMulGetWorkspaceSize, aclnnMul, x, o, y), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(y), (std::vector<float>{16, 24, 8, 8}));
  ASSERT_EQ(run(aclnnDivGetWorkspaceSize, aclnnDiv, x, o, y), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(y), (std::vector<float>{4, 1.5f, 2, 0.5f}));
}

TEST_F(Ops, DivOfIntegersIsTrueDivision) {
  aclTensor *x = tensor<int32_t>({7, -7, 1}, {3});
  aclTensor *o = tensor<int32_t>({2, 2, 4}, {3});
  aclTensor *y = tensor(std::vector<float>(3), {3});
  ASSERT_EQ(run(aclnnDivGetWorkspaceSize, aclnnDiv, x, o, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{3.5f, -3.5f, 0.25f}));
}

TEST_F(Ops, MulsAndInplaceMulsOnAF16SlicedView) {
  aclTensor *x = tensor(to_f16({1, 2, 3, 4, 5, 6}), {3}, {2}, 1);  // 2, 4, 6
  aclTensor *y = tensor(to_f16({0, 0, 0}), {3});
  ASSERT_EQ(run(aclnnMulsGetWorkspaceSize, aclnnMuls, x, f(0.5f), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(from_f16(read<uint16_t>(y)), (std::vector<float>{1, 2, 3}));
  ASSERT_EQ(run(aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceMuls, x, f(3)), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(from_f16(read<uint16_t>(x)), (std::vector<float>{1, 6, 3, 12, 5, 18}));
}

TEST_F(Ops, UnaryOpsMatchTheirFormulas) {
  const std::vector<float> v = {-2, -0.5f, 0, 0.5f, 1, 3};
  aclTensor *x = tensor(v, {2, 3});
  aclTensor *y = tensor(std::vector<float>(6), {2, 3});
  auto check = [&](auto plan, auto exec, float (*ref)(float)) {
    ASSERT_EQ(run(plan, exec, x, y), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want;
    for (float a : v) want.push_back(ref(a));
    expect_near(read<float>(y), want, 1e-5f);
  };
  check(aclnnSinGetWorkspaceSize, aclnnSin, [](float a) { return std::sin(a); });
  check(aclnnCosGetWorkspaceSize, aclnnCos, [](float a) { return std::cos(a); });
  check(aclnnSiluGetWorkspaceSize, aclnnSilu, [](float a) { return a / (1 + std::exp(-a)); });
  check(aclnnGeluGetWorkspaceSize, aclnnGelu, [](float a) {
    return 0.5f * a * (1 + std::tanh(0.7978845608f * (a + 0.044715f * a * a * a)));
  });
  aclTensor *wrong = tensor(std::vector<float>(3), {3});
  EXPECT_EQ(plan_only(aclnnSinGetWorkspaceSize, x, wrong), ACLNN_ERR_PARAM_INVALID);
  aclTensor *ints = tensor<int32_t>({1, 2, 3}, {3});
  EXPECT_EQ(plan_only(aclnnSiluGetWorkspaceSize, x, ints), ACLNN_ERR_PARAM_INVALID);  // int out
}

TEST_F(Ops, ClampWithOneOrBothBounds) {
  aclTensor *x = tensor<float>({-3, -1, 0, 2, 5}, {5});
  aclTensor *y = tensor(std::vector<float>(5), {5});
  ASSERT_EQ(run(aclnnClampGetWorkspaceSize, aclnnClamp, x, f(-1), f(2), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{-1, -1, 0, 2, 2}));
  ASSERT_EQ(
      run(aclnnClampGetWorkspaceSize, aclnnClamp, x, static_cast<aclScalar *>(nullptr), f(0), y),
      ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(y), (std::vector<float>{-3, -1, 0, 0, 0}));
  EXPECT_EQ(plan_only(aclnnClampGetWorkspaceSize, x, static_cast<aclScalar *>(nullptr),
                      static_cast<aclScalar *>(nullptr), y),
            ACLNN_ERR_PARAM_NULLPTR);
}

// ---- data movement --------------------------------------------------------------------------

TEST_F(Ops, CastConvertsAndChecksDtype) {
  aclTensor *x = tensor<float>({1.5f, -2.25f, 3}, {3});
  aclTensor *y = tensor(to_f16({0, 0, 0}), {3});
  ASSERT_EQ(run(aclnnCastGetWorkspaceSize, aclnnCast, x, ACL_FLOAT16, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(from_f16(read<uint16_t>(y)), (std::vector<float>{1.5f, -2.25f, 3}));
  EXPECT_EQ(plan_only(aclnnCastGetWorkspaceSize, x, ACL_INT32, y), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, InplaceCopyBroadcastsCastsAndWritesViews) {
  // dst: the transpose of a dense [3,2]; src: one f16 row of 3 broadcast over 2 rows.
  aclTensor *dst = tensor(std::vector<float>(6), {2, 3}, {1, 2});
  aclTensor *src = tensor(to_f16({1, 2, 3}), {3});
  ASSERT_EQ(run(aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, dst, src), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(dst), (std::vector<float>{1, 1, 2, 2, 3, 3}));
  aclTensor *bad = tensor(iota(4), {4});
  EXPECT_EQ(plan_only(aclnnInplaceCopyGetWorkspaceSize, dst, bad), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, FillAndZeroReachOnlyTheView) {
  aclTensor *x = tensor(iota(6, 1), {3}, {2});  // elements 0, 2, 4
  ASSERT_EQ(run(aclnnInplaceFillScalarGetWorkspaceSize, aclnnInplaceFillScalar, x, f(9)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(x), (std::vector<float>{9, 2, 9, 4, 9, 6}));
  ASSERT_EQ(run(aclnnInplaceZeroGetWorkspaceSize, aclnnInplaceZero, x), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(x), (std::vector<float>{0, 2, 0, 4, 0, 6}));
}

TEST_F(Ops, SliceTakesStepsAndClampsBounds) {
  aclTensor *x = tensor(iota(12), {3, 4});
  aclTensor *y = tensor(std::vector<float>(6), {3, 2});
  ASSERT_EQ(run(aclnnSliceGetWorkspaceSize, aclnnSlice, x, int64_t{1}, int64_t{1}, int64_t{100},
                int64_t{2}, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{1, 3, 5, 7, 9, 11}));
  aclTensor *t = tensor(iota(12), {4, 3}, {1, 4});  // a transposed view
  aclTensor *z = tensor(std::vector<float>(6), {2, 3});
  ASSERT_EQ(run(aclnnSliceGetWorkspaceSize, aclnnSlice, t, int64_t{0}, int64_t{-2}, int64_t{4},
                int64_t{1}, z),
            ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(z), (std::vector<float>{2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(
      plan_only(aclnnSliceGetWorkspaceSize, x, int64_t{2}, int64_t{0}, int64_t{1}, int64_t{1}, y),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      plan_only(aclnnSliceGetWorkspaceSize, x, int64_t{1}, int64_t{0}, int64_t{4}, int64_t{0}, y),
      ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, CatJoinsAlongADimIncludingStridedParts) {
  aclTensor *a = tensor(iota(4), {2, 2});
  aclTensor *b = tensor(iota(6, 10), {2, 3}, {1, 2});  // transposed: [[10,12,14],[11,13,15]]
  aclTensor *y = tensor(std::vector<float>(10), {2, 5});
  aclTensorList *l = list({a, b});
  ASSERT_EQ(run(aclnnCatGetWorkspaceSize, aclnnCat, l, int64_t{-1}, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{0, 1, 10, 12, 14, 2, 3, 11, 13, 15}));
  aclTensor *wrong = tensor(std::vector<float>(8), {2, 4});
  EXPECT_EQ(plan_only(aclnnCatGetWorkspaceSize, l, int64_t{1}, wrong), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      plan_only(aclnnCatGetWorkspaceSize, static_cast<aclTensorList *>(nullptr), int64_t{1}, wrong),
      ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyTensorList(l);
}

TEST_F(Ops, RepeatTilesAndAddsLeadingDims) {
  aclTensor *x = tensor<float>({1, 2}, {2});
  aclTensor *y = tensor(std::vector<float>(12), {2, 6});
  ASSERT_EQ(run(aclnnRepeatGetWorkspaceSize, aclnnRepeat, x, ints({2, 3}), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}));
  aclTensor *t = tensor(iota(4), {2, 2}, {1, 2});  // [[0,2],[1,3]]
  aclTensor *z = tensor(std::vector<float>(8), {4, 2});
  ASSERT_EQ(run(aclnnRepeatGetWorkspaceSize, aclnnRepeat, t, ints({2, 1}), z), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(z), (std::vector<float>{0, 2, 1, 3, 0, 2, 1, 3}));
  EXPECT_EQ(plan_only(aclnnRepeatGetWorkspaceSize, x, ints({2, 2}), z), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, ConstantPadNdPadsTheLastDimsFirst) {
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {2, 2});
  aclTensor *y = tensor(std::vector<float>(15), {3, 5});
  ASSERT_EQ(
      run(aclnnConstantPadNdGetWorkspaceSize, aclnnConstantPadNd, x, ints({1, 2, 0, 1}), f(-1), y),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y),
            (std::vector<float>{-1, 1, 2, -1, -1, -1, 3, 4, -1, -1, -1, -1, -1, -1, -1}));
  EXPECT_EQ(plan_only(aclnnConstantPadNdGetWorkspaceSize, x, ints({1}), f(0), y),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, ArangeFillsTheRange) {
  aclTensor *y = tensor(std::vector<float>(4), {4});
  ASSERT_EQ(run(aclnnArangeGetWorkspaceSize, aclnnArange, f(1), f(3), f(0.5f), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{1, 1.5f, 2, 2.5f}));
  EXPECT_EQ(plan_only(aclnnArangeGetWorkspaceSize, f(0), f(3), f(1), y),
            ACLNN_ERR_PARAM_INVALID);  // 3 values, out holds 4
  EXPECT_EQ(plan_only(aclnnArangeGetWorkspaceSize, f(0), f(3), f(0), y), ACLNN_ERR_PARAM_INVALID);
  // Any shape of the right element count, filled in row-major order (ggml passes [1, 1, 1, n]).
  aclTensor *y4 = tensor(std::vector<float>(6), {1, 2, 1, 3});
  ASSERT_EQ(run(aclnnArangeGetWorkspaceSize, aclnnArange, f(0), f(6), f(1), y4), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y4), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

// ---- matrix products ------------------------------------------------------------------------

std::vector<float> matmul_ref(const std::vector<float> &a, const std::vector<float> &b, int64_t m,
                              int64_t k, int64_t n) {
  std::vector<float> c(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST_F(Ops, MmOfDenseAndTransposedViews) {
  const auto a = iota(6), b = iota(12, -5);
  aclTensor *x = tensor(a, {2, 3});
  aclTensor *w = tensor(b, {3, 4});
  aclTensor *y = tensor(std::vector<float>(8), {2, 4});
  ASSERT_EQ(run(aclnnMmGetWorkspaceSize, aclnnMm, x, w, y, int8_t{0}), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), matmul_ref(a, b, 2, 3, 4));
  // mat2 as the transpose of a dense [4,3]: no gather, a transpose flag
  std::vector<float> bt(12);
  for (int p = 0; p < 3; ++p)
    for (int j = 0; j < 4; ++j) bt[j * 3 + p] = b[p * 4 + j];
  aclTensor *wt = tensor(bt, {3, 4}, {1, 3});
  uint64_t ws = 1;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnMmGetWorkspaceSize(x, wt, y, 0, &ws, &e), ACLNN_SUCCESS);
  void *w0 = nullptr;
  if (ws) ASSERT_EQ(aclrtMalloc(&w0, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnMm(w0, ws, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y), matmul_ref(a, b, 2, 3, 4));
  if (w0) aclrtFree(w0);
  EXPECT_EQ(plan_only(aclnnMmGetWorkspaceSize, x, x, y, int8_t{0}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnMmGetWorkspaceSize, x, w, y, int8_t{7}), ACLNN_ERR_PARAM_INVALID);
  aclTensor *ints = tensor<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(plan_only(aclnnMmGetWorkspaceSize, ints, w, y, int8_t{0}), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, BatchMatMulAndMatmulBroadcastAndOneDimOperands) {
  const auto a = iota(12), b = iota(12, 1);
  aclTensor *x = tensor(a, {2, 2, 3});
  aclTensor *w = tensor(b, {2, 3, 2});
  aclTensor *y = tensor(std::vector<float>(8), {2, 2, 2});
  ASSERT_EQ(run(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, x, w, y, int8_t{1}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int bi = 0; bi < 2; ++bi) {
    auto part = matmul_ref(std::vector<float>(a.begin() + bi * 6, a.begin() + bi * 6 + 6),
                           std::vector<float>(b.begin() + bi * 6, b.begin() + bi * 6 + 6), 2, 3, 2);
    want.insert(want.end(), part.begin(), part.end());
  }
  EXPECT_EQ(read<float>(y), want);
  // A batch of 1 broadcasts: x's first matrix times each of w's.
  aclTensor *x1 = tensor(std::vector<float>(a.begin(), a.begin() + 6), {1, 2, 3});
  ASSERT_EQ(run(aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, x1, w, y, int8_t{1}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  want.clear();
  for (int bi = 0; bi < 2; ++bi) {
    auto part = matmul_ref(std::vector<float>(a.begin(), a.begin() + 6),
                           std::vector<float>(b.begin() + bi * 6, b.begin() + bi * 6 + 6), 2, 3, 2);
    want.insert(want.end(), part.begin(), part.end());
  }
  EXPECT_EQ(read<float>(y), want);
  // Matmul: a batch of 2 times one shared [3,2] matrix; then a vector times a matrix.
  aclTensor *shared = tensor(iota(6, 1), {3, 2});
  ASSERT_EQ(run(aclnnMatmulGetWorkspaceSize, aclnnMatmul, x, shared, y, int8_t{0}), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  want.clear();
  for (int bi = 0; bi < 2; ++bi) {
    auto part = matmul_ref(std::vector<float>(a.begin() + bi * 6, a.begin() + bi * 6 + 6),
                           iota(6, 1), 2, 3, 2);
    want.insert(want.end(), part.begin(), part.end());
  }
  EXPECT_EQ(read<float>(y), want);
  aclTensor *v = tensor<float>({1, 2, 3}, {3});
  aclTensor *r = tensor(std::vector<float>(2), {2});
  ASSERT_EQ(run(aclnnMatmulGetWorkspaceSize, aclnnMatmul, v, shared, r, int8_t{0}), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(r), matmul_ref({1, 2, 3}, iota(6, 1), 1, 3, 2));
  EXPECT_EQ(plan_only(aclnnMatmulGetWorkspaceSize, shared, shared, r, int8_t{0}),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, WeightQuantBatchMatmulV2DequantizesPerGroup) {
  // x [2,4] f16, weight int8 [4,3] given as the transpose of a dense [3,4], scale [2,3] (groups
  // of 2 rows of k), bias [3].
  const std::vector<float> xv = {1, 2, -1, 0.5f, 0, 1, 2, -2};
  const std::vector<int8_t> wt = {1, -2, 3, 4, 0, 5, -6, 7, 2, 2, -1, -3};  // [n=3][k=4]
  const std::vector<float> sc = {0.5f, 1, 2, 0.25f, -1, 1}, bias = {1, 2, 3};
  aclTensor *x = tensor(to_f16(xv), {2, 4});
  aclTensor *w = tensor(wt, {4, 3}, {1, 4});
  aclTensor *s = tensor(to_f16(sc), {2, 3});
  aclTensor *b = tensor(to_f16(bias), {3});
  aclTensor *y = tensor(to_f16(std::vector<float>(6)), {2, 3});
  const aclTensor *none = nullptr;
  ASSERT_EQ(run(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnnWeightQuantBatchMatmulV2, x, w,
                s, none, none, none, b, 2, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float acc = bias[j];
      for (int p = 0; p < 4; ++p) acc += xv[i * 4 + p] * wt[j * 4 + p] * sc[(p / 2) * 3 + j];
      want.push_back(acc);
    }
  expect_near(from_f16(read<uint16_t>(y)), want, 2e-3f);
  EXPECT_EQ(
      plan_only(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, x, w, s, none, none, none, b, 3, y),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(
      plan_only(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, x, w, s, none, s, none, b, 2, y),
      ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, WeightQuantBatchMatmulV2UnpacksInt4Weights) {
  // weight int4 [4,3], dense: element e in nibble e % 2 of byte e / 2 (low first); per-channel
  // scale.
  const std::vector<int> wv = {1, -2, 3, 7, -8, 0, 2, 5, -1, -3, 4, 6};
  std::vector<uint8_t> packed(6);
  for (int e = 0; e < 12; ++e)
    packed[e / 2] |= static_cast<uint8_t>((wv[e] & 0xf) << (4 * (e % 2)));
  const std::vector<float> xv = {1, 0.5f, -1, 2, 0, 1, 1, -1}, sc = {0.5f, 1, 2};
  aclTensor *x = tensor<float>(xv, {2, 4});
  void *wp = upload(packed.data(), packed.size());
  const int64_t wd[] = {4, 3}, wn[] = {12};
  aclTensor *w = aclCreateTensor(wd, 2, ACL_INT4, nullptr, 0, ACL_FORMAT_ND, wn, 1, wp);
  ASSERT_NE(w, nullptr) << aclGetRecentErrMsg();
  tensors_.push_back(w);
  aclTensor *s = tensor(sc, {3});
  aclTensor *y = tensor(std::vector<float>(6), {2, 3});
  const aclTensor *none = nullptr;
  ASSERT_EQ(run(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnnWeightQuantBatchMatmulV2, x, w,
                s, none, none, none, none, 0, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float acc = 0;
      for (int p = 0; p < 4; ++p) acc += xv[i * 4 + p] * wv[p * 3 + j] * sc[j];
      want.push_back(acc);
    }
  expect_near(read<float>(y), want, 1e-5f);
  // Elsewhere an int4 tensor is refused, not misread.
  aclTensor *o = tensor(std::vector<float>(12), {4, 3});
  EXPECT_EQ(plan_only(aclnnCastGetWorkspaceSize, w, ACL_FLOAT, o), ACLNN_ERR_PARAM_INVALID);
  aclTensor *wt = aclCreateTensor(wd, 2, ACL_INT4, nullptr, 1, ACL_FORMAT_ND, wn, 1, wp);
  EXPECT_EQ(wt, nullptr);  // an odd offset splits a byte
}

TEST_F(Ops, WeightQuantBatchMatmulV2OnGgmlsQuantizedWeights) {
  // As ggml's CANN backend passes Q8_0 and Q4_0 weights: x [m, k] f16; the weight [k, n] and its
  // scales [k / 32, n] (f16) the transposes of dense [n, k] and [n, k / 32]; y [m, n] f16. The
  // int4 weight starts 32 values into its buffer (ggml's offset for a split). 70 rows of x: a
  // prompt's, through the weight dequantized to float16.
  const int64_t k = 64, n = 5, groups = k / 32;
  for (const auto [int4, m] : {std::pair{false, int64_t{3}},
                               {true, int64_t{3}},
                               {false, int64_t{70}},
                               {true, int64_t{70}}}) {
    SCOPED_TRACE(std::string(int4 ? "int4" : "int8") + " m " + std::to_string(m));
    std::vector<float> xv(m * k), sc(n * groups);
    std::vector<int> q(n * k);
    for (size_t i = 0; i < xv.size(); ++i) xv[i] = std::sin(0.37f * static_cast<float>(i));
    for (size_t i = 0; i < sc.size(); ++i) sc[i] = 0.01f * static_cast<float>(i + 1);
    for (size_t i = 0; i < q.size(); ++i)
      q[i] = static_cast<int>((i * 7919) % (int4 ? 16 : 255)) - (int4 ? 8 : 127);
    const int64_t skip = int4 ? 32 : 0;
    std::vector<uint8_t> bytes(static_cast<size_t>(int4 ? (skip + n * k) / 2 : n * k));
    for (int64_t e = 0; e < n * k; ++e) {
      if (int4)
        bytes[(skip + e) / 2] |= static_cast<uint8_t>((q[e] & 0xf) << (4 * ((skip + e) % 2)));
      else bytes[e] = static_cast<uint8_t>(q[e]);
    }
    void *wp = upload(bytes.data(), bytes.size());
    const int64_t wd[] = {k, n}, ws[] = {1, k}, wn[] = {skip + n * k};
    aclTensor *w =
        aclCreateTensor(wd, 2, int4 ? ACL_INT4 : ACL_INT8, ws, skip, ACL_FORMAT_ND, wn, 1, wp);
    ASSERT_NE(w, nullptr) << aclGetRecentErrMsg();
    tensors_.push_back(w);
    aclTensor *x = tensor(to_f16(xv), {m, k});
    aclTensor *s = tensor(to_f16(sc), {groups, n}, {1, groups});
    aclTensor *y = tensor(to_f16(std::vector<float>(m * n)), {m, n});
    const aclTensor *none = nullptr;
    ASSERT_EQ(run(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize, aclnnWeightQuantBatchMatmulV2, x,
                  w, s, none, none, none, none, 32, y),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<float> got = from_f16(read<uint16_t>(y));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 0, size = 0;
        for (int64_t t = 0; t < k; ++t) {
          const float p = from_f16(to_f16({xv[i * k + t]}))[0] * static_cast<float>(q[j * k + t]) *
                          from_f16(to_f16({sc[j * groups + t / 32]}))[0];
          want += p, size += std::fabs(p);
        }
        // A float16 y; on the prompt's path also float16 weights (CANN's antiquant rounds so).
        ASSERT_NEAR(got[i * n + j], want, 1e-3f * (1 + size)) << "row " << i << " column " << j;
      }
  }
}

// softmax(scale * q k^T + pse, masked) v for q [N,S,D], k / v [Nkv,Skv,D] (BNSD, batch 1), pse
// [S,Skv] shared by the heads.
std::vector<float> attention_ref(const std::vector<float> &q, const std::vector<float> &k,
                                 const std::vector<float> &v, int n, int nkv, int s, int skv, int d,
                                 float scale, const std::vector<uint8_t> &mask,
                                 const std::vector<float> &pse = {}) {
  std::vector<float> out(n * s * d);
  for (int h = 0; h < n; ++h) {
    const int kh = h / (n / nkv);
    for (int i = 0; i < s; ++i) {
      std::vector<float> w(skv);
      float mx = -INFINITY, sum = 0;
      for (int j = 0; j < skv; ++j) {
        float acc = 0;
        for (int e = 0; e < d; ++e) acc += q[(h * s + i) * d + e] * k[(kh * skv + j) * d + e];
        w[j] = (!mask.empty() && mask[i * skv + j])
                   ? -INFINITY
                   : acc * scale + (pse.empty() ? 0.0f : pse[i * skv + j]);
        mx = std::max(mx, w[j]);
      }
      for (float &x : w) sum += (x = std::exp(x - mx));
      for (int e = 0; e < d; ++e) {
        float acc = 0;
        for (int j = 0; j < skv; ++j) acc += w[j] / sum * v[(kh * skv + j) * d + e];
        out[(h * s + i) * d + e] = acc;
      }
    }
  }
  return out;
}

TEST_F(Ops, FusedInferAttentionScoreV2GroupedHeadsWithMask) {
  const int n = 2, nkv = 1, s = 2, skv = 3, d = 4;
  std::vector<float> q(n * s * d), k(nkv * skv * d), v(nkv * skv * d);
  for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(0.7f * i);
  for (size_t i = 0; i < k.size(); ++i) k[i] = std::cos(0.3f * i);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1f * i - 0.5f;
  const std::vector<uint8_t> mask = {0, 1, 1, 0, 0, 1};  // causal-like
  aclTensor *qt = tensor(q, {1, n, s, d});
  aclTensor *kt = tensor(k, {1, nkv, skv, d});
  aclTensor *vt = tensor(v, {1, nkv, skv, d});
  void *mp = upload(mask.data(), mask.size());
  const int64_t md[] = {s, skv}, mn[] = {s * skv};
  aclTensor *mt = aclCreateTensor(md, 2, ACL_BOOL, nullptr, 0, ACL_FORMAT_ND, mn, 1, mp);
  tensors_.push_back(mt);
  aclTensor *ot = tensor(std::vector<float>(q.size()), {1, n, s, d});
  aclTensorList *kl = list({kt}), *vl = list({vt});
  char layout[] = "BNSD";
  const aclTensor *no = nullptr;
  const aclIntArray *none = nullptr;
  auto call = [&](aclTensor *m, char *lay, int64_t kvh) {
    return run(aclnnFusedInferAttentionScoreV2GetWorkspaceSize, aclnnFusedInferAttentionScoreV2, qt,
               kl, vl, no, m, none, none, no, no, no, no, no, no, no, no, no, no, no, no, no, no,
               no, no, none, int64_t{n}, 0.5, int64_t{65535}, int64_t{65535}, lay, kvh, int64_t{0},
               int64_t{0}, int64_t{0}, int64_t{0}, false, int64_t{0}, int64_t{0}, ot, no);
  };
  ASSERT_EQ(call(mt, layout, nkv), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  expect_near(read<float>(ot), attention_ref(q, k, v, n, nkv, s, skv, d, 0.5f, mask), 1e-5f);
  ASSERT_EQ(call(nullptr, layout, nkv), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  expect_near(read<float>(ot), attention_ref(q, k, v, n, nkv, s, skv, d, 0.5f, {}), 1e-5f);
  // The same attention in BSND: q, k, v and out are [B, S, N, D] (k / v with one head).
  std::vector<float> q_bsnd(q.size());
  for (int h = 0; h < n; ++h)
    for (int i = 0; i < s; ++i)
      for (int e = 0; e < d; ++e) q_bsnd[(i * n + h) * d + e] = q[(h * s + i) * d + e];
  aclTensor *qs = tensor(q_bsnd, {1, s, n, d});
  aclTensor *ks = tensor(k, {1, skv, nkv, d});
  aclTensor *vs = tensor(v, {1, skv, nkv, d});
  aclTensor *os = tensor(std::vector<float>(q.size()), {1, s, n, d});
  aclTensorList *kls = list({ks}), *vls = list({vs});
  char bsnd[] = "BSND";
  ASSERT_EQ(
      run(aclnnFusedInferAttentionScoreV2GetWorkspaceSize, aclnnFusedInferAttentionScoreV2, qs, kls,
          vls, no, mt, none, none, no, no, no, no, no, no, no, no, no, no, no, no, no, no, no, no,
          none, int64_t{n}, 0.5, int64_t{65535}, int64_t{65535}, bsnd, int64_t{nkv}, int64_t{0},
          int64_t{0}, int64_t{0}, int64_t{0}, false, int64_t{0}, int64_t{0}, os, no),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const auto ref = attention_ref(q, k, v, n, nkv, s, skv, d, 0.5f, mask);
  std::vector<float> ref_bsnd(ref.size());
  for (int h = 0; h < n; ++h)
    for (int i = 0; i < s; ++i)
      for (int e = 0; e < d; ++e) ref_bsnd[(i * n + h) * d + e] = ref[(h * s + i) * d + e];
  expect_near(read<float>(os), ref_bsnd, 1e-5f);
  aclDestroyTensorList(kls);
  aclDestroyTensorList(vls);
  char bad[] = "TND";
  EXPECT_EQ(call(nullptr, bad, nkv), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(call(nullptr, layout, 3), ACLNN_ERR_PARAM_INVALID);  // 2 heads over 3 kv heads
  EXPECT_EQ(call(nullptr, nullptr, nkv), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
}

// As ggml calls it: BSND, float16 key and value read as a slice of a larger cache (the cache
// holds 3 heads a position, 2 are used), a float16 pseShift shared by the heads (stride 0), more
// query rows than one block of the kernel, head sizes smaller than the key length: 12 (rows
// converted one at a time) and 16 (converted 8 values at a time inside the loops, with F16C).
// Then a pse that masks with -inf as ggml's does: keys past the cache's end (padding), keys
// after a row's position (causal) and, so that a block's first keys are skipped as well, keys
// before it (a sliding window).
TEST_F(Ops, FusedInferAttentionScoreV2Float16CacheSliceWithPse) {
  for (const bool masked : {false, true})
    for (const int d : {12, 16, 32}) {
      const int n = 4, nkv = 2, s = 9, skv = 21, cache_heads = 3, filled = 17;
      std::vector<float> q(n * s * d), k(nkv * skv * d), v(nkv * skv * d), pse(s * skv);
      for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(0.37f * i);
      for (size_t i = 0; i < k.size(); ++i) k[i] = std::cos(0.21f * i);
      for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.13f * i + 1);
      for (size_t i = 0; i < pse.size(); ++i) pse[i] = i % 3 == 0 ? -1.0f : 0.25f;
      for (int i = 0; masked && i < s; ++i)
        for (int j = 0; j < skv; ++j)
          if (j < i || j > filled - s + i || j >= filled) pse[i * skv + j] = -INFINITY;
      // Rounded to float16 first, so that the reference sees what the kernel reads.
      for (auto *x : {&q, &k, &v, &pse}) *x = from_f16(to_f16(*x));
      std::vector<float> q_bsnd(q.size()), k_cache(skv * cache_heads * d), v_cache(k_cache.size());
      for (int h = 0; h < n; ++h)
        for (int i = 0; i < s; ++i)
          for (int e = 0; e < d; ++e) q_bsnd[(i * n + h) * d + e] = q[(h * s + i) * d + e];
      for (int h = 0; h < nkv; ++h)
        for (int j = 0; j < skv; ++j)
          for (int e = 0; e < d; ++e) {
            k_cache[(j * cache_heads + h) * d + e] = k[(h * skv + j) * d + e];
            v_cache[(j * cache_heads + h) * d + e] = v[(h * skv + j) * d + e];
          }
      const std::vector<int64_t> kv_strides = {skv * cache_heads * d, cache_heads * d, d, 1};
      aclTensor *qt = tensor(to_f16(q_bsnd), {1, s, n, d});
      aclTensor *kt = tensor(to_f16(k_cache), {1, skv, nkv, d}, kv_strides);
      aclTensor *vt = tensor(to_f16(v_cache), {1, skv, nkv, d}, kv_strides);
      aclTensor *pt = tensor(to_f16(pse), {1, n, s, skv}, {s * skv, 0, skv, 1});
      aclTensor *ot = tensor(to_f16(std::vector<float>(q.size())), {1, s, n, d});
      aclTensorList *kl = list({kt}), *vl = list({vt});
      char layout[] = "BSND";
      const aclTensor *no = nullptr;
      const aclIntArray *none = nullptr;
      ASSERT_EQ(run(aclnnFusedInferAttentionScoreV2GetWorkspaceSize,
                    aclnnFusedInferAttentionScoreV2, qt, kl, vl, pt, no, none, none, no, no, no, no,
                    no, no, no, no, no, no, no, no, no, no, no, no, none, int64_t{n}, 0.5,
                    int64_t{65535}, int64_t{65535}, layout, int64_t{nkv}, int64_t{0}, int64_t{0},
                    int64_t{0}, int64_t{0}, false, int64_t{0}, int64_t{0}, ot, no),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      const auto ref = attention_ref(q, k, v, n, nkv, s, skv, d, 0.5f, {}, pse);
      std::vector<float> ref_bsnd(ref.size());
      for (int h = 0; h < n; ++h)
        for (int i = 0; i < s; ++i)
          for (int e = 0; e < d; ++e) ref_bsnd[(i * n + h) * d + e] = ref[(h * s + i) * d + e];
      SCOPED_TRACE("head size " + std::to_string(d) + (masked ? ", masked" : ""));
      expect_near(from_f16(read<uint16_t>(ot)), ref_bsnd, 2e-3f);
      aclDestroyTensorList(kl);
      aclDestroyTensorList(vl);
    }
}

// ---- reductions and normalizations ----------------------------------------------------------

TEST_F(Ops, SoftmaxAlongADimOfATransposedView) {
  aclTensor *x = tensor<float>({0, 1, 2, 3, 4, 5}, {3, 2}, {1, 3});  // [[0,3],[1,4],[2,5]]
  aclTensor *y = tensor(std::vector<float>(6), {3, 2});
  ASSERT_EQ(run(aclnnSoftmaxGetWorkspaceSize, aclnnSoftmax, x, int64_t{0}, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  const float s = 1 + std::exp(1.0f) + std::exp(2.0f);
  expect_near(read<float>(y),
              {1 / s, 1 / s, std::exp(1.0f) / s, std::exp(1.0f) / s, std::exp(2.0f) / s,
               std::exp(2.0f) / s},
              1e-5f);
  EXPECT_EQ(plan_only(aclnnSoftmaxGetWorkspaceSize, x, int64_t{2}, y), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, ReduceSumKeepsOrDropsDims) {
  aclTensor *x = tensor(iota(6), {2, 3});
  aclTensor *rows = tensor(std::vector<float>(2), {2, 1});
  ASSERT_EQ(
      run(aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, x, ints({-1}), true, ACL_FLOAT, rows),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(rows), (std::vector<float>{3, 12}));
  aclTensor *cols = tensor(std::vector<float>(3), {3});
  ASSERT_EQ(
      run(aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, x, ints({0}), false, ACL_FLOAT, cols),
      ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(cols), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(plan_only(aclnnReduceSumGetWorkspaceSize, x, ints({0}), false, ACL_FLOAT16, cols),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnReduceSumGetWorkspaceSize, x, ints({0, 0}), false, ACL_FLOAT, cols),
            ACLNN_ERR_PARAM_INVALID);
  // The sum of everything may go to a [1] tensor as well as a 0-d one; [2] is refused.
  aclTensor *one = tensor(std::vector<float>(1), {1});
  ASSERT_EQ(
      run(aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, x, ints({0, 1}), false, ACL_FLOAT, one),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(one), (std::vector<float>{15}));
  aclTensor *two = tensor(std::vector<float>(2), {2});
  EXPECT_EQ(plan_only(aclnnReduceSumGetWorkspaceSize, x, ints({0, 1}), false, ACL_FLOAT, two),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, ArgsortAscendingDescendingAndStable) {
  aclTensor *x = tensor<float>({3, 1, 2, 1, 5, 0}, {2, 3});
  aclTensor *y = tensor(std::vector<int64_t>(6), {2, 3});
  ASSERT_EQ(run(aclnnArgsortGetWorkspaceSize, aclnnArgsort, x, int64_t{-1}, false, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<int64_t>(y), (std::vector<int64_t>{1, 2, 0, 2, 0, 1}));
  ASSERT_EQ(run(aclnnArgsortGetWorkspaceSize, aclnnArgsort, x, int64_t{1}, true, y), ACLNN_SUCCESS);
  EXPECT_EQ(read<int64_t>(y), (std::vector<int64_t>{0, 2, 1, 1, 0, 2}));
  aclTensor *f32 = tensor(std::vector<float>(6), {2, 3});
  EXPECT_EQ(plan_only(aclnnArgsortGetWorkspaceSize, x, int64_t{0}, false, f32),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, LayerNormWithStatisticsAndWithoutAffine) {
  const std::vector<float> v = {1, 2, 3, 4, 2, 2, 2, 6};
  aclTensor *x = tensor(v, {2, 4});
  aclTensor *g = tensor<float>({1, 2, 1, 2}, {4});
  aclTensor *b = tensor<float>({0, 0, 1, 1}, {4});
  aclTensor *y = tensor(std::vector<float>(8), {2, 4});
  aclTensor *mean = tensor(std::vector<float>(2), {2, 1});
  aclTensor *rstd = tensor(std::vector<float>(2), {2, 1});
  const double eps = 1e-5;
  ASSERT_EQ(
      run(aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, x, ints({4}), g, b, eps, y, mean, rstd),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want, wm, wr;
  const float gv[] = {1, 2, 1, 2}, bv[] = {0, 0, 1, 1};
  for (int r = 0; r < 2; ++r) {
    float m = 0, var = 0;
    for (int i = 0; i < 4; ++i) m += v[r * 4 + i] / 4;
    for (int i = 0; i < 4; ++i) var += (v[r * 4 + i] - m) * (v[r * 4 + i] - m) / 4;
    const float rs = 1 / std::sqrt(var + static_cast<float>(eps));
    for (int i = 0; i < 4; ++i) want.push_back((v[r * 4 + i] - m) * rs * gv[i] + bv[i]);
    wm.push_back(m);
    wr.push_back(rs);
  }
  expect_near(read<float>(y), want, 1e-4f);
  expect_near(read<float>(mean), wm, 1e-5f);
  expect_near(read<float>(rstd), wr, 1e-4f);
  const aclTensor *none = nullptr;
  ASSERT_EQ(run(aclnnLayerNormGetWorkspaceSize, aclnnLayerNorm, x, ints({4}), none, none, eps, y,
                static_cast<aclTensor *>(nullptr), static_cast<aclTensor *>(nullptr)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> plain;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 4; ++i) plain.push_back((v[r * 4 + i] - wm[r]) * wr[r]);
  expect_near(read<float>(y), plain, 1e-4f);
  EXPECT_EQ(plan_only(aclnnLayerNormGetWorkspaceSize, x, ints({3}), g, b, eps, y, mean, rstd),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, RmsNormOfF16WithRstd) {
  const std::vector<float> v = {1, 2, 3, 4, -1, 1, -1, 1};
  aclTensor *x = tensor(to_f16(v), {2, 4});
  aclTensor *g = tensor(to_f16({1, 1, 2, 2}), {4});
  aclTensor *y = tensor(to_f16(std::vector<float>(8)), {2, 4});
  aclTensor *rstd = tensor(std::vector<float>(2), {2, 1});
  ASSERT_EQ(run(aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, x, g, 1e-6, y, rstd), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want, wr;
  const float gv[] = {1, 1, 2, 2};
  for (int r = 0; r < 2; ++r) {
    float ms = 0;
    for (int i = 0; i < 4; ++i) ms += v[r * 4 + i] * v[r * 4 + i] / 4;
    const float rs = 1 / std::sqrt(ms + 1e-6f);
    for (int i = 0; i < 4; ++i) want.push_back(v[r * 4 + i] * rs * gv[i]);
    wr.push_back(rs);
  }
  expect_near(from_f16(read<uint16_t>(y)), want, 2e-3f);
  expect_near(read<float>(rstd), wr, 1e-5f);
  aclTensor *g3 = tensor(to_f16({1, 1, 1}), {3});
  EXPECT_EQ(plan_only(aclnnRmsNormGetWorkspaceSize, x, g3, 1e-6, y, rstd), ACLNN_ERR_PARAM_INVALID);
  // rstdOut may also drop gamma's dims (ggml passes it so); another shape is refused.
  aclTensor *rstd1 = tensor(std::vector<float>(2), {2});
  ASSERT_EQ(run(aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, x, g, 1e-6, y, rstd1), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_near(read<float>(rstd1), wr, 1e-5f);
  aclTensor *rstd_bad = tensor(std::vector<float>(2), {1, 2});
  EXPECT_EQ(plan_only(aclnnRmsNormGetWorkspaceSize, x, g, 1e-6, y, rstd_bad),
            ACLNN_ERR_PARAM_INVALID);
}

// Rows that are contiguous but not adjacent (every other row, two lead dims: the row kernel)
// and rows that are not contiguous (a transposed view: the composed steps) give the same
// normalization.
TEST_F(Ops, RmsNormOverStridedViews) {
  const std::vector<float> v = {1, -2, 3, 0.5f, 2, 2, -1, 4, 0.25f, 1, -3, 2, 5, -1, 1, 1};
  auto reference = [&](const std::vector<std::vector<float>> &rows) {
    std::vector<float> want, wr;
    for (const auto &row : rows) {
      float ms = 0;
      for (float e : row) ms += e * e / static_cast<float>(row.size());
      const float rs = 1 / std::sqrt(ms + 1e-6f);
      for (size_t i = 0; i < row.size(); ++i) want.push_back(row[i] * rs * (i % 2 ? 2.0f : 1.0f));
      wr.push_back(rs);
    }
    return std::pair{want, wr};
  };
  aclTensor *g = tensor<float>({1, 2, 1, 2}, {4});
  // [2, 2, 4] over rows 0, 2 / 4, 6 of an [8, 4] buffer (the last 8 values repeat the first).
  std::vector<float> buf(v);
  buf.insert(buf.end(), v.begin(), v.end());
  aclTensor *x = tensor(buf, {2, 2, 4}, {16, 8, 1});
  aclTensor *y = tensor(std::vector<float>(16), {2, 2, 4});
  aclTensor *rstd = tensor(std::vector<float>(4), {2, 2});
  ASSERT_EQ(run(aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, x, g, 1e-6, y, rstd), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto [want, wr] = reference({{v.begin(), v.begin() + 4},
                               {v.begin() + 8, v.begin() + 12},
                               {v.begin(), v.begin() + 4},
                               {v.begin() + 8, v.begin() + 12}});
  expect_near(read<float>(y), want, 1e-5f);
  expect_near(read<float>(rstd), wr, 1e-5f);
  // x[i][j] = v[j * 4 + i]: each row is a column of v.
  aclTensor *xt = tensor(v, {4, 4}, {1, 4});
  aclTensor *yt = tensor(std::vector<float>(16), {4, 4});
  ASSERT_EQ(run(aclnnRmsNormGetWorkspaceSize, aclnnRmsNorm, xt, g, 1e-6, yt, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<std::vector<float>> cols(4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) cols[i].push_back(v[j * 4 + i]);
  expect_near(read<float>(yt), reference(cols).first, 1e-5f);
}

// ---- gathers --------------------------------------------------------------------------------

TEST_F(Ops, IndexSelectAndGatherV2) {
  aclTensor *x = tensor(iota(12), {3, 4});
  aclTensor *idx = tensor<int64_t>({2, 0}, {2});
  aclTensor *y = tensor(std::vector<float>(8), {2, 4});
  ASSERT_EQ(run(aclnnIndexSelectGetWorkspaceSize, aclnnIndexSelect, x, int64_t{0}, idx, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{8, 9, 10, 11, 0, 1, 2, 3}));
  aclTensor *t = tensor(iota(12), {4, 3}, {1, 4});  // transposed view: t[i][j] = j*4 + i
  aclTensor *idx2 = tensor<int32_t>({1, 1, 0, 2}, {2, 2});
  aclTensor *z = tensor(std::vector<float>(16), {4, 2, 2});
  ASSERT_EQ(run(aclnnGatherV2GetWorkspaceSize, aclnnGatherV2, t, int64_t{1}, idx2, z),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int i = 0; i < 4; ++i)
    for (int j : {1, 1, 0, 2}) want.push_back(static_cast<float>(j * 4 + i));
  EXPECT_EQ(read<float>(z), want);
  aclTensor *fidx = tensor<float>({0, 1}, {2});
  EXPECT_EQ(plan_only(aclnnIndexSelectGetWorkspaceSize, x, int64_t{0}, fidx, y),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnIndexSelectGetWorkspaceSize, x, int64_t{0},
                      static_cast<aclTensor *>(nullptr), y),
            ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(Ops, MoreUnaryOps) {
  const std::vector<float> v = {0.25f, 0.5f, 1, 2, 4, 9};
  aclTensor *x = tensor(v, {3, 2}, {1, 3});  // a transposed view
  aclTensor *y = tensor(std::vector<float>(6), {3, 2});
  std::vector<float> tv;  // x's elements in view order
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) tv.push_back(v[j * 3 + i]);
  auto check = [&](auto plan, auto exec, float (*ref)(float)) {
    ASSERT_EQ(run(plan, exec, x, y), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    std::vector<float> want;
    for (float a : tv) want.push_back(ref(a));
    expect_near(read<float>(y), want, 1e-5f);
  };
  check(aclnnExpGetWorkspaceSize, aclnnExp, [](float a) { return std::exp(a); });
  check(aclnnLogGetWorkspaceSize, aclnnLog, [](float a) { return std::log(a); });
  check(aclnnSqrtGetWorkspaceSize, aclnnSqrt, [](float a) { return std::sqrt(a); });
  check(aclnnRsqrtGetWorkspaceSize, aclnnRsqrt, [](float a) { return 1 / std::sqrt(a); });
  check(aclnnTanhGetWorkspaceSize, aclnnTanh, [](float a) { return std::tanh(a); });
  check(aclnnSigmoidGetWorkspaceSize, aclnnSigmoid, [](float a) { return 1 / (1 + std::exp(-a)); });
  check(aclnnNegGetWorkspaceSize, aclnnNeg, [](float a) { return -a; });
  aclTensor *ints = tensor<int32_t>({-3, 0, 5}, {3});
  aclTensor *io = tensor<int32_t>({0, 0, 0}, {3});
  ASSERT_EQ(run(aclnnAbsGetWorkspaceSize, aclnnAbs, ints, io), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<int32_t>(io), (std::vector<int32_t>{3, 0, 5}));
  ASSERT_EQ(run(aclnnReluGetWorkspaceSize, aclnnRelu, ints, io), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<int32_t>(io), (std::vector<int32_t>{0, 0, 5}));
  EXPECT_EQ(plan_only(aclnnExpGetWorkspaceSize, ints, io),
            ACLNN_ERR_PARAM_INVALID);  // exp into int32
}

TEST_F(Ops, PowScalarTensorAndSwiGlu) {
  aclTensor *e = tensor<float>({0, 1, 2, 0.5f}, {4});
  aclTensor *y = tensor(std::vector<float>(4), {4});
  ASSERT_EQ(run(aclnnPowScalarTensorGetWorkspaceSize, aclnnPowScalarTensor, f(4), e, y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  expect_near(read<float>(y), {1, 4, 16, 2}, 1e-6f);
  // x [2,4] split along the last dim: a = x[:, :2], b = x[:, 2:]
  const std::vector<float> v = {-1, 2, 3, 4, 0.5f, 1, -2, 2};
  aclTensor *x = tensor(v, {2, 4});
  aclTensor *o = tensor(std::vector<float>(4), {2, 2});
  ASSERT_EQ(run(aclnnSwiGluGetWorkspaceSize, aclnnSwiGlu, x, int64_t{-1}, o), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  auto silu = [](float a) { return a / (1 + std::exp(-a)); };
  expect_near(read<float>(o), {silu(-1) * 3, silu(2) * 4, silu(0.5f) * -2, silu(1) * 2}, 1e-5f);
  aclTensor *odd = tensor(iota(6), {2, 3});
  EXPECT_EQ(plan_only(aclnnSwiGluGetWorkspaceSize, odd, int64_t{1}, o), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, PermuteAndRepeatInterleave) {
  aclTensor *x = tensor(iota(6), {1, 2, 3});
  aclTensor *y = tensor(std::vector<float>(6), {3, 1, 2});
  ASSERT_EQ(run(aclnnPermuteGetWorkspaceSize, aclnnPermute, x, ints({2, 0, 1}), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(plan_only(aclnnPermuteGetWorkspaceSize, x, ints({0, 0, 1}), y),
            ACLNN_ERR_PARAM_INVALID);
  aclTensor *m = tensor(iota(4), {2, 2}, {1, 2});  // [[0,2],[1,3]]
  aclTensor *r = tensor(std::vector<float>(12), {2, 6});
  ASSERT_EQ(run(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize, aclnnRepeatInterleaveIntWithDim, m,
                int64_t{3}, int64_t{1}, int64_t{6}, r),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(r), (std::vector<float>{0, 0, 0, 2, 2, 2, 1, 1, 1, 3, 3, 3}));
  EXPECT_EQ(plan_only(aclnnRepeatInterleaveIntWithDimGetWorkspaceSize, m, int64_t{3}, int64_t{1},
                      int64_t{5}, r),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, InplaceIndexCopyPlacesRowsAndFailsTheStreamOnABadIndex) {
  aclTensor *self = tensor(std::vector<float>(8, 0), {4, 2});
  aclTensor *idx = tensor<int64_t>({3, -4}, {2});
  aclTensor *src = tensor(to_f16({1, 2, 3, 4}), {2, 2});
  ASSERT_EQ(
      run(aclnnInplaceIndexCopyGetWorkspaceSize, aclnnInplaceIndexCopy, self, int64_t{0}, idx, src),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(self), (std::vector<float>{3, 4, 0, 0, 0, 0, 1, 2}));
  // along dim 1 of a transposed view
  aclTensor *t = tensor(std::vector<float>(6, 0), {2, 3}, {1, 2});
  aclTensor *i1 = tensor<int32_t>({2}, {1});
  aclTensor *s1 = tensor<float>({7, 8}, {2, 1});
  ASSERT_EQ(
      run(aclnnInplaceIndexCopyGetWorkspaceSize, aclnnInplaceIndexCopy, t, int64_t{1}, i1, s1),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(t), (std::vector<float>{0, 0, 0, 0, 7, 8}));
  aclTensor *bad = tensor<int64_t>({4, 0}, {2});
  EXPECT_EQ(
      run(aclnnInplaceIndexCopyGetWorkspaceSize, aclnnInplaceIndexCopy, self, int64_t{0}, bad, src),
      ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(plan_only(aclnnInplaceIndexCopyGetWorkspaceSize, self, int64_t{0}, idx, s1),
            ACLNN_ERR_PARAM_INVALID);
}

// x dense (one pass of the operator's kernel) and x transposed (its last dim strided: the
// composed steps) give the same rotation.
TEST_F(Ops, RotaryPositionEmbeddingHalfAndInterleaved) {
  // x [2 rows, 4], cos / sin [1, 4] broadcast over the rows.
  const std::vector<float> v = {1, 2, 3, 4, -1, 0.5f, 2, -3};
  const std::vector<float> c = {0.5f, 1, -1, 0.25f}, s = {2, -0.5f, 0.75f, 1};
  std::vector<float> v_t(8);  // v_t[i * 2 + r] = v[r * 4 + i]
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 4; ++i) v_t[i * 2 + r] = v[r * 4 + i];
  aclTensor *ct = tensor(c, {1, 4});
  aclTensor *st = tensor(s, {1, 4});
  aclTensor *y = tensor(std::vector<float>(8), {2, 4});
  for (aclTensor *x : {tensor(v, {2, 4}), tensor(v_t, {2, 4}, {1, 2})})
    for (int64_t mode : {0, 1}) {
      ASSERT_EQ(run(aclnnRotaryPositionEmbeddingGetWorkspaceSize, aclnnRotaryPositionEmbedding, x,
                    ct, st, mode, y),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      std::vector<float> want;
      for (int r = 0; r < 2; ++r) {
        const float *a = &v[r * 4];
        const float rot[2][4] = {{-a[2], -a[3], a[0], a[1]}, {-a[1], a[0], -a[3], a[2]}};
        for (int i = 0; i < 4; ++i) want.push_back(a[i] * c[i] + rot[mode][i] * s[i]);
      }
      expect_near(read<float>(y), want, 1e-6f);
    }
  aclTensor *x = tensor(v, {2, 4});
  EXPECT_EQ(plan_only(aclnnRotaryPositionEmbeddingGetWorkspaceSize, x, ct, st, int64_t{2}, y),
            ACLNN_ERR_PARAM_INVALID);
  aclTensor *odd = tensor(iota(6), {2, 3});
  EXPECT_EQ(plan_only(aclnnRotaryPositionEmbeddingGetWorkspaceSize, odd, ct, st, int64_t{0}, odd),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, ConvolutionOneAndTwoDimsAndTransposed) {
  // 1-d: input [1, 2, 5], weight [3, 2, 2], stride 2, padding 1, bias.
  const auto xv = iota(10, 1), wv = iota(12, -6);
  const std::vector<float> bv = {1, 0, -1};
  aclTensor *x = tensor(xv, {1, 2, 5});
  aclTensor *w = tensor(wv, {3, 2, 2});
  aclTensor *b = tensor(bv, {3});
  aclTensor *y = tensor(std::vector<float>(9), {1, 3, 3});
  ASSERT_EQ(run(aclnnConvolutionGetWorkspaceSize, aclnnConvolution, x, w, b, ints({2}), ints({1}),
                ints({1}), false, ints({0}), int64_t{1}, y, int8_t{0}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<float> want;
  for (int co = 0; co < 3; ++co)
    for (int ol = 0; ol < 3; ++ol) {
      float acc = bv[co];
      for (int ci = 0; ci < 2; ++ci)
        for (int k = 0; k < 2; ++k) {
          const int l = ol * 2 - 1 + k;
          if (l >= 0 && l < 5) acc += xv[ci * 5 + l] * wv[(co * 2 + ci) * 2 + k];
        }
      want.push_back(acc);
    }
  expect_near(read<float>(y), want, 1e-5f);
  // 1-d transposed: input [1, 1, 3], weight [1, 1, 2], stride 2: each input spreads k values.
  aclTensor *tx = tensor<float>({1, 2, 3}, {1, 1, 3});
  aclTensor *tw = tensor<float>({1, 10}, {1, 1, 2});
  aclTensor *ty = tensor(std::vector<float>(6), {1, 1, 6});
  ASSERT_EQ(run(aclnnConvolutionGetWorkspaceSize, aclnnConvolution, tx, tw,
                static_cast<aclTensor *>(nullptr), ints({2}), ints({0}), ints({1}), true, ints({0}),
                int64_t{1}, ty, int8_t{0}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(ty), (std::vector<float>{1, 10, 2, 20, 3, 30}));
  // 2-d: input [1, 1, 3, 3], a 2x2 kernel of ones: sums of 2x2 windows.
  aclTensor *x2 = tensor(iota(9), {1, 1, 3, 3});
  aclTensor *w2 = tensor<float>({1, 1, 1, 1}, {1, 1, 2, 2});
  aclTensor *y2 = tensor(std::vector<float>(4), {1, 1, 2, 2});
  ASSERT_EQ(run(aclnnConvolutionGetWorkspaceSize, aclnnConvolution, x2, w2,
                static_cast<aclTensor *>(nullptr), ints({1, 1}), ints({0, 0}), ints({1, 1}), false,
                ints({0, 0}), int64_t{1}, y2, int8_t{0}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y2), (std::vector<float>{8, 12, 20, 24}));
  EXPECT_EQ(plan_only(aclnnConvolutionGetWorkspaceSize, x, w, b, ints({2}), ints({1}), ints({1}),
                      false, ints({0}), int64_t{1}, y2, int8_t{0}),
            ACLNN_ERR_PARAM_INVALID);  // wrong output shape
  EXPECT_EQ(plan_only(aclnnConvolutionGetWorkspaceSize, x, w, b, ints({2, 2}), ints({1}), ints({1}),
                      false, ints({0}), int64_t{1}, y, int8_t{0}),
            ACLNN_ERR_PARAM_INVALID);  // two strides for one spatial dim
}

TEST_F(Ops, ComparisonsAndPowers) {
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {2, 2});
  aclTensor *o = tensor<float>({1, 3}, {2});
  aclTensor *b = tensor(std::vector<uint8_t>(4), {2, 2}, {}, 0, ACL_BOOL);
  ASSERT_EQ(run(aclnnEqTensorGetWorkspaceSize, aclnnEqTensor, x, o, b), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<uint8_t>(b), (std::vector<uint8_t>{1, 0, 0, 0}));
  aclTensor *f = tensor(std::vector<float>(4), {2, 2});
  ASSERT_EQ(run(aclnnGtScalarGetWorkspaceSize, aclnnGtScalar, x, this->f(2.5f), f), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(f), (std::vector<float>{0, 0, 1, 1}));
  ASSERT_EQ(run(aclnnPowTensorScalarGetWorkspaceSize, aclnnPowTensorScalar, x, this->f(2), f),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(f), (std::vector<float>{1, 4, 9, 16}));
  ASSERT_EQ(run(aclnnPowTensorTensorGetWorkspaceSize, aclnnPowTensorTensor, x, o, f), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(f), (std::vector<float>{1, 8, 3, 64}));
  aclTensor *small = tensor(std::vector<float>(2), {2});
  EXPECT_EQ(plan_only(aclnnEqTensorGetWorkspaceSize, x, o, small), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Ops, MeanAndArgMax) {
  aclTensor *x = tensor<float>({1, 5, 3, 4, 2, 9}, {2, 3});
  aclTensor *m = tensor(std::vector<float>(2), {2});
  ASSERT_EQ(run(aclnnMeanGetWorkspaceSize, aclnnMean, x, ints({1}), false, ACL_FLOAT, m),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(m), (std::vector<float>{3, 5}));
  aclTensor *i = tensor(std::vector<int64_t>(2), {2, 1});
  ASSERT_EQ(run(aclnnArgMaxGetWorkspaceSize, aclnnArgMax, x, int64_t{-1}, true, i), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<int64_t>(i), (std::vector<int64_t>{1, 2}));
  aclTensor *t =
      tensor<float>({1, 5, 3, 4, 2, 9}, {3, 2}, {1, 3});  // transposed: [[1,4],[5,2],[3,9]]
  aclTensor *j = tensor(std::vector<int64_t>(2), {2});
  ASSERT_EQ(run(aclnnArgMaxGetWorkspaceSize, aclnnArgMax, t, int64_t{0}, false, j), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<int64_t>(j), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(plan_only(aclnnArgMaxGetWorkspaceSize, x, int64_t{1}, false, i),
            ACLNN_ERR_PARAM_INVALID);  // keepdim shape
}

TEST_F(Ops, EmbeddingTrilTriuAndRoll) {
  aclTensor *w = tensor(iota(6), {3, 2});
  aclTensor *ids = tensor<int32_t>({2, 0, 2, 1}, {2, 2});
  aclTensor *e = tensor(std::vector<float>(8), {2, 2, 2});
  ASSERT_EQ(run(aclnnEmbeddingGetWorkspaceSize, aclnnEmbedding, w, ids, e), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(e), (std::vector<float>{4, 5, 0, 1, 4, 5, 2, 3}));
  aclTensor *x = tensor(iota(9, 1), {3, 3});
  aclTensor *y = tensor(std::vector<float>(9), {3, 3});
  ASSERT_EQ(run(aclnnTrilGetWorkspaceSize, aclnnTril, x, int64_t{0}, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  ASSERT_EQ(run(aclnnTriuGetWorkspaceSize, aclnnTriu, x, int64_t{1}, y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  ASSERT_EQ(run(aclnnRollGetWorkspaceSize, aclnnRoll, x, ints({1, -1}), ints({0, 1}), y),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // rows down by 1, columns left by 1
  EXPECT_EQ(read<float>(y), (std::vector<float>{8, 9, 7, 2, 3, 1, 5, 6, 4}));
  ASSERT_EQ(run(aclnnRollGetWorkspaceSize, aclnnRoll, x, ints({2}), ints({}), y), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(read<float>(y), (std::vector<float>{8, 9, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(plan_only(aclnnRollGetWorkspaceSize, x, ints({1, 2}), ints({0}), y),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
