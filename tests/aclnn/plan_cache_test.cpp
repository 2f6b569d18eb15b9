// Phase 1 reuses the plan of an earlier call whose arguments are described the same way
// (src/nn/plan_cache.h): the results must be those of a fresh plan, with this call's addresses.
#include "fixture.h"

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_mul.h"

namespace {

class PlanCache : public AclnnTest {};

TEST_F(PlanCache, ARepeatedCallUsesItsOwnAddresses) {
  for (int round = 0; round < 3; ++round) {
    const float b = static_cast<float>(round);
    aclTensor *x = tensor<float>({1, 2, 3, 4}, {4});
    aclTensor *y = tensor<float>({b, b, b, b}, {4});
    aclTensor *out = tensor<float>({0, 0, 0, 0}, {4});
    ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, y, scalar(2), out), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(read<float>(out), (std::vector<float>{1 + 2 * b, 2 + 2 * b, 3 + 2 * b, 4 + 2 * b}))
        << round;
    EXPECT_EQ(read<float>(x), (std::vector<float>{1, 2, 3, 4}));
  }
}

TEST_F(PlanCache, AnyDifferenceInTheDescriptionMakesANewPlan) {
  // Same op and shapes; the strides, the scalar's value and the dtype each differ once.
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {2, 2});
  aclTensor *y = tensor<float>({10, 20, 30, 40}, {2, 2});
  aclTensor *yt = tensor<float>({10, 20, 30, 40}, {2, 2}, {1, 2});  // transposed view
  aclTensor *out = tensor<float>({0, 0, 0, 0}, {2, 2});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, y, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{11, 22, 33, 44}));
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, yt, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{11, 32, 23, 44}));
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, y, scalar(3), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{31, 62, 93, 124}));
  aclTensor *xi = tensor<int32_t>({1, 2, 3, 4}, {2, 2});
  aclTensor *yi = tensor<int32_t>({10, 20, 30, 40}, {2, 2});
  aclTensor *oi = tensor<int32_t>({0, 0, 0, 0}, {2, 2});
  ASSERT_EQ(run(aclnnMulGetWorkspaceSize, aclnnMul, xi, yi, oi), ACLNN_SUCCESS);
  EXPECT_EQ(read<int32_t>(oi), (std::vector<int32_t>{10, 40, 90, 160}));
}

TEST_F(PlanCache, AnOffsetOrExplicitStridesAreTheDescriptionToo) {
  // The key writes strides only when they are not dense and the offset only when it is not 0:
  // each of these must still get a plan of its own, and dense strides given explicitly the
  // same result as none.
  const std::vector<float> five = {0, 1, 2, 3, 4};
  aclTensor *at0 = tensor<float>(five, {2, 2});
  aclTensor *at1 = tensor<float>(five, {2, 2}, {}, 1);
  aclTensor *dense = tensor<float>(five, {2, 2}, {2, 1});
  aclTensor *rows = tensor<float>(five, {2, 2}, {1, 1}, 1);  // overlapping input view
  aclTensor *out = tensor<float>({0, 0, 0, 0}, {2, 2});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, at0, at0, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{0, 2, 4, 6}));
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, at1, at0, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{1, 3, 5, 7}));
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, dense, at0, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{0, 2, 4, 6}));
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, rows, at0, scalar(1), out), ACLNN_SUCCESS);
  EXPECT_EQ(read<float>(out), (std::vector<float>{1, 3, 4, 6}));
}

TEST_F(PlanCache, TensorListMembersTakeTheirNewAddresses) {
  for (int round = 0; round < 2; ++round) {
    const float k = static_cast<float>(10 * round);
    aclTensorList *parts = list({tensor<float>({k + 1, k + 2}, {2}), tensor<float>({k + 3}, {1})});
    aclTensor *out = tensor<float>({0, 0, 0}, {3});
    ASSERT_EQ(run(aclnnCatGetWorkspaceSize, aclnnCat, static_cast<const aclTensorList *>(parts),
                  int64_t{0}, out),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(read<float>(out), (std::vector<float>{k + 1, k + 2, k + 3})) << round;
    aclDestroyTensorList(parts);
  }
}

TEST_F(PlanCache, AFailingCallIsNeverAnsweredFromTheCache) {
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {4});
  aclTensor *out = tensor<float>({0, 0, 0, 0}, {4});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, x, scalar(1), out), ACLNN_SUCCESS);
  // The same description with a NULL tensor is refused, naming it.
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, static_cast<const aclTensor *>(nullptr),
                      scalar(1), out),
            ACLNN_ERR_PARAM_NULLPTR);
  // A refused description stays refused on its second call too.
  aclTensor *wrong = tensor<float>({1, 2, 3}, {3});
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, wrong, scalar(1), out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(plan_only(aclnnAddGetWorkspaceSize, x, wrong, scalar(1), out), ACLNN_ERR_PARAM_INVALID);
}

TEST(PlanCacheRuntime, ARepeatedCallWorksAcrossFinalizeAndInit) {
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const float host[4] = {1, 2, 3, 4};
    ASSERT_EQ(aclrtMemcpy(p, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const int64_t d[] = {4};
    aclTensor *t = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, p);
    float one = 1;
    aclScalar *a = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(t, t, a, &ws, &e), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    void *w = nullptr;
    if (ws > 0) ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclnnInplaceAdd(w, ws, e, s), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    float back[4];
    ASSERT_EQ(aclrtMemcpy(back, 16, p, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back[3], 8.0f) << round;
    aclDestroyScalar(a);
    aclDestroyTensor(t);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
}

}  // namespace
