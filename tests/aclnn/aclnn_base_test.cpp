// libnnopbase: the argument objects (create, query, destroy, bad arguments) and the executor
// contract of aclnn_base.h: phase 1 enqueues nothing, phase 2 checks workspace, addresses and
// stream context, an executor runs once unless repeatable, and address updates take effect.
#include <string>
#include <thread>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "fixture.h"

namespace {

using Base = AclnnTest;

TEST_F(Base, TensorKeepsViewStorageFormatAndType) {
  float x = 0;
  const int64_t dims[] = {2, 3}, strides[] = {1, 2}, storage[] = {8};
  aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 1, ACL_FORMAT_NCHW, storage, 1, &x);
  ASSERT_NE(t, nullptr);
  int64_t *v = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &v, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{2, 3}));
  delete[] v;
  ASSERT_EQ(aclGetViewStrides(t, &v, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{1, 2}));
  delete[] v;
  ASSERT_EQ(aclGetStorageShape(t, &v, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{8}));
  delete[] v;
  int64_t offset = -1;
  ASSERT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 1);
  aclFormat f;
  aclDataType d;
  ASSERT_EQ(aclGetFormat(t, &f), ACLNN_SUCCESS);
  ASSERT_EQ(aclGetDataType(t, &d), ACLNN_SUCCESS);
  EXPECT_EQ(f, ACL_FORMAT_NCHW);
  EXPECT_EQ(d, ACL_FLOAT16);
  void *addr = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
  EXPECT_EQ(addr, &x);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST_F(Base, TensorWithoutStridesIsDenseRowMajor) {
  const int64_t dims[] = {2, 3, 4};
  aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 3, nullptr);
  ASSERT_NE(t, nullptr);
  int64_t *v = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewStrides(t, &v, &n), ACLNN_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(v, v + n), (std::vector<int64_t>{12, 4, 1}));
  delete[] v;
  aclDestroyTensor(t);
}

TEST_F(Base, BadTensorArgumentsGiveNullAndAMessage) {
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, neg[] = {-1}, one[] = {1};
  EXPECT_EQ(aclCreateTensor(nine, 9, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nine, 9, nullptr),
            nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("8 dimensions"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateTensor(one, 1, ACL_FLOAT, neg, 0, ACL_FORMAT_ND, one, 1, nullptr), nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("stride[0] is negative (-1)"), std::string::npos)
      << aclGetRecentErrMsg();
  // A negative dim is named before a negative stride at another index.
  const int64_t dims_bad[] = {-2, 3}, strides_bad[] = {1, -1};
  EXPECT_EQ(aclCreateTensor(dims_bad, 2, ACL_FLOAT, strides_bad, 0, ACL_FORMAT_ND, one, 1, nullptr),
            nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("viewDims[0] is negative (-2)"),
            std::string::npos)
      << aclGetRecentErrMsg();
  const int64_t huge[] = {int64_t{1} << 40, int64_t{1} << 40};
  EXPECT_EQ(aclCreateTensor(huge, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, one, 1, nullptr),
            nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more elements than an int64 counts"),
            std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclCreateTensor(one, 1, static_cast<aclDataType>(99), nullptr, 0, ACL_FORMAT_ND, one, 1,
                            nullptr),
            nullptr);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  EXPECT_EQ(aclCreateIntArray(nullptr, 3), nullptr);
  int64_t *v = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(nullptr, &v, &n), ACLNN_ERR_PARAM_NULLPTR);
  aclTensor *t = aclCreateTensor(one, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, one, 1, nullptr);
  EXPECT_EQ(aclGetViewShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);  // as in CANN
  aclDestroyTensor(t);
}

TEST_F(Base, ArraysScalarsAndListsReportTheirSizes) {
  const int64_t iv[] = {1, 2, 3};
  const float fv[] = {1.5f, 2.5f};
  const bool bv[] = {true};
  aclIntArray *ia = aclCreateIntArray(iv, 3);
  aclFloatArray *fa = aclCreateFloatArray(fv, 2);
  aclBoolArray *ba = aclCreateBoolArray(bv, 1);
  uint64_t n = 0;
  ASSERT_EQ(aclGetIntArraySize(ia, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 3u);
  ASSERT_EQ(aclGetFloatArraySize(fa, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  ASSERT_EQ(aclGetBoolArraySize(ba, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 1u);
  float one = 1;
  aclScalar *s = aclCreateScalar(&one, ACL_FLOAT);
  const aclScalar *ss[] = {s};
  aclScalarList *sl = aclCreateScalarList(ss, 1);
  ASSERT_EQ(aclGetScalarListSize(sl, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 1u);
  const int64_t d[] = {2};
  aclTensor *t0 = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, nullptr);
  aclTensor *t1 = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, nullptr);
  const aclTensor *ts[] = {t0, t1};
  aclTensorList *tl = aclCreateTensorList(ts, 2);
  ASSERT_EQ(aclGetTensorListSize(tl, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(aclGetTensorListSize(tl, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyIntArray(ia), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(fa), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(ba), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalarList(sl), ACLNN_SUCCESS);  // and the scalar it holds
  EXPECT_EQ(aclDestroyTensorList(tl), ACLNN_SUCCESS);  // and the tensors it holds
}

TEST_F(Base, InitAcceptsNullOrJsonAndRefusesAMissingFile) {
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnInit("/nonexistent/acl.json"), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

// y = x + 2 * o on 4 floats.
struct AddCall {
  aclTensor *x, *o, *y;
  aclScalar *alpha;
};

class Executor : public AclnnTest {
 protected:
  void SetUp() override {
    AclnnTest::SetUp();
    float two = 2;
    alpha_ = aclCreateScalar(&two, ACL_FLOAT);
    x_ = tensor<float>({1, 2, 3, 4}, {4});
    o_ = tensor<float>({10, 20, 30, 40}, {4});
    y_ = tensor<float>({0, 0, 0, 0}, {4});
    ASSERT_EQ(aclrtMalloc(&w_, kWork, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    dev_.push_back(w_);
  }
  void TearDown() override {
    aclDestroyScalar(alpha_);
    AclnnTest::TearDown();
  }
  aclOpExecutor *plan_add(uint64_t *ws) {
    aclOpExecutor *e = nullptr;
    EXPECT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, y_, ws, &e), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    return e;
  }
  static constexpr uint64_t kWork = 1 << 20;  // more than any plan here needs
  void *w_ = nullptr;
  aclScalar *alpha_ = nullptr;
  aclTensor *x_ = nullptr, *o_ = nullptr, *y_ = nullptr;
};

TEST_F(Executor, PhaseTwoComputesOnTheStream) {
  uint64_t ws = 0;
  aclOpExecutor *e = plan_add(&ws);
  void *w = nullptr;
  if (ws) ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(w, ws, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y_), (std::vector<float>{21, 42, 63, 84}));
  if (w) aclrtFree(w);
}

TEST_F(Executor, ASmallElementwiseRunOnAStreamAtRestIsDoneWhenTheCallReturns) {
  // ggml's ADD of 4096 floats (48 KiB of tensors): handing it to a worker and taking it back at
  // the synchronize costs more than the add, so it runs during aclnnAdd.
  std::vector<float> a(4096), b(4096, 0.5f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  aclTensor *ta = tensor(a, {4096}), *tb = tensor(b, {4096});
  aclTensor *out = tensor(std::vector<float>(4096), {4096});
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(ta, tb, scalar(1.0f), out, &ws, &e), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  const std::vector<float> y = read<float>(out);
  EXPECT_EQ(y[0], 0.5f);
  EXPECT_EQ(y[4095], 4095.5f);
}

TEST_F(Executor, PhaseOneEnqueuesNothing) {
  uint64_t ws = 0;
  aclOpExecutor *e = plan_add(&ws);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y_), (std::vector<float>{0, 0, 0, 0}));
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
}

TEST_F(Executor, RunsOnceUnlessRepeatable) {
  uint64_t ws = 0;
  aclOpExecutor *e = plan_add(&ws);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_ERR_PARAM_INVALID);  // consumed by its run
  EXPECT_NE(
      std::string(aclGetRecentErrMsg()).find("aclnnAdd: executor is not a live aclOpExecutor"),
      std::string::npos)
      << aclGetRecentErrMsg();
  e = plan_add(&ws);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnnAdd(w_, kWork, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(Executor, AddressUpdatesReachTheNextRun) {
  uint64_t ws = 0;
  aclOpExecutor *e = plan_add(&ws);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  aclTensor *x2 = tensor<float>({100, 200, 300, 400}, {4});
  aclTensor *y2 = tensor<float>({0, 0, 0, 0}, {4});
  void *x2addr = nullptr, *y2addr = nullptr;
  aclGetRawTensorAddr(x2, &x2addr);
  aclGetRawTensorAddr(y2, &y2addr);
  ASSERT_EQ(aclSetInputTensorAddr(e, 0, x_, x2addr), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(e, 0, y_, y2addr), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y2), (std::vector<float>{120, 240, 360, 480}));
  void *now = nullptr;
  aclGetRawTensorAddr(x_, &now);
  EXPECT_EQ(now, x2addr);  // the tensor's own address follows, as in CANN
  EXPECT_EQ(aclSetInputTensorAddr(e, 2, x_, x2addr), ACLNN_ERR_PARAM_INVALID);  // Add has 2 inputs
  EXPECT_EQ(aclSetInputTensorAddr(e, 0, nullptr, x2addr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetTensorAddr(e, 2, y_, y2addr), ACLNN_SUCCESS);  // inputs, then outputs
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
}

TEST_F(Executor, SmallWorkspaceIsRefusedAndNothingRuns) {
  // A strided input needs a workspace for its gather.
  aclTensor *xs = tensor<float>({1, 0, 2, 0, 3, 0, 4, 0}, {4}, {2});
  aclTensor *ys = tensor<float>({5, 5, 5, 5}, {4});
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(xs, o_, ys, &ws, &e), ACLNN_SUCCESS);
  ASSERT_GT(ws, 0u);
  void *w = nullptr;
  ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclnnMul(w, ws - 1, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("workspaceSize"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnMul(nullptr, ws, e, stream_), ACLNN_ERR_PARAM_NULLPTR);
  int host = 0;
  EXPECT_EQ(aclnnMul(&host, ws, e, stream_), ACLNN_ERR_PARAM_INVALID);  // not device memory
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ys), (std::vector<float>{5, 5, 5, 5}));
  ASSERT_EQ(aclnnMul(w, ws, e, stream_), ACLNN_SUCCESS);  // a failed run keeps the executor
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ys), (std::vector<float>{10, 40, 90, 160}));
  aclrtFree(w);
}

TEST_F(Executor, HostAddressesAreRefusedAtPhaseTwo) {
  float host[4] = {};
  const int64_t d[] = {4};
  aclTensor *h = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, host);
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, h, &ws, &e), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("out"), std::string::npos)
      << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(e);
  aclDestroyTensor(h);
}

TEST_F(Executor, AnAddressPastABufferNamesTheBufferAndPinnedMemoryIsNamed) {
  // ggml computes views as base + offset; an offset past the end lands outside every buffer.
  void *buf = nullptr;
  ASSERT_EQ(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t d[] = {4};
  aclTensor *past = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1,
                                    static_cast<char *>(buf) + 4096 + 64);
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, past, &ws, &e), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_ERR_PARAM_INVALID);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("is not device memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ends 64 bytes before it"), std::string::npos) << msg;
  aclDestroyAclOpExecutor(e);
  aclDestroyTensor(past);

  void *pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  aclTensor *host = aclCreateTensor(d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, pinned);
  ASSERT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, host, &ws, &e), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(w_, kWork, e, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("page-locked host memory (aclrtMallocHost)"),
            std::string::npos)
      << aclGetRecentErrMsg();
  aclDestroyAclOpExecutor(e);
  aclDestroyTensor(host);
  aclrtFreeHost(pinned);
  aclrtFree(buf);
}

TEST_F(Executor, AStreamOfAnotherContextIsARuntimeError) {
  aclrtContext mine = nullptr, other = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&mine), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  aclrtStream foreign = nullptr;
  ASSERT_EQ(aclrtCreateStream(&foreign), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(mine), ACL_SUCCESS);
  uint64_t ws = 0;
  aclOpExecutor *e = plan_add(&ws);
  EXPECT_EQ(aclnnAdd(w_, kWork, e, foreign), ACLNN_ERR_RUNTIME_ERROR);
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);  // still live: the run failed
  ASSERT_EQ(aclrtSetCurrentContext(other), ACL_SUCCESS);
  aclrtDestroyStream(foreign);
  ASSERT_EQ(aclrtSetCurrentContext(mine), ACL_SUCCESS);
  aclrtDestroyContext(other);
}

TEST_F(Executor, ACapturedRunReplaysAtEachLaunch) {
  aclrtStream capture = nullptr;
  ASSERT_EQ(aclrtCreateStream(&capture), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(y_, x_, alpha_, &ws, &e), ACLNN_SUCCESS);  // y += 2 * x
  ASSERT_EQ(aclnnInplaceAdd(w_, kWork, e, capture), ACLNN_SUCCESS);
  aclmdlRI ri = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(capture, &ri), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y_), (std::vector<float>{0, 0, 0, 0}));  // captured, not run
  ASSERT_EQ(aclmdlRIExecuteAsync(ri, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIExecuteAsync(ri, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y_), (std::vector<float>{4, 8, 12, 16}));
  EXPECT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyStream(capture);
}

// Executors are kept for reuse by the thread that ran or destroyed them: ones planned on one
// thread and run or destroyed on others stay distinct, and none is refused or run twice.
TEST_F(Executor, ExecutorsCrossThreads) {
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  constexpr int kThreads = 3, kRounds = 40;
  std::vector<std::vector<aclOpExecutor *>> made(kThreads);
  std::vector<int> failures(kThreads, 0);
  auto on_threads = [&](auto body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) ++failures[t];
        body(t);
      });
    for (auto &th : threads) th.join();
  };
  uint64_t ws = 0;
  on_threads([&](int t) {
    for (int i = 0; i < kRounds; ++i) {
      aclOpExecutor *e = nullptr;
      if (aclnnAddGetWorkspaceSize(x_, o_, alpha_, y_, &ws, &e) != ACLNN_SUCCESS) ++failures[t];
      made[t].push_back(e);
    }
  });
  // Thread t runs half of thread t + 1's executors and destroys the rest, then plans again (on
  // what it kept) while the others still run theirs.
  on_threads([&](int t) {
    auto &mine = made[(t + 1) % kThreads];
    for (int i = 0; i < kRounds; ++i) {
      const aclnnStatus s =
          i % 2 == 0 ? aclnnAdd(w_, kWork, mine[i], stream_) : aclDestroyAclOpExecutor(mine[i]);
      if (s != ACLNN_SUCCESS) ++failures[t];
      aclOpExecutor *e = nullptr;
      if (aclnnAddGetWorkspaceSize(x_, o_, alpha_, y_, &ws, &e) != ACLNN_SUCCESS ||
          aclnnAdd(w_, kWork, e, stream_) != ACLNN_SUCCESS)
        ++failures[t];
    }
  });
  EXPECT_EQ(failures, std::vector<int>(kThreads, 0)) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y_), (std::vector<float>{21, 42, 63, 84}));
  for (auto &list : made)
    for (size_t i = 0; i < list.size(); ++i)  // every one of them is gone now
      EXPECT_EQ(aclDestroyAclOpExecutor(list[i]), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(Executor, PhaseOneRefusesNullsWithTheirCode) {
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(nullptr, o_, alpha_, y_, &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclnnAddGetWorkspaceSize: self is NULL"),
            std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnAddGetWorkspaceSize(x_, o_, nullptr, y_, &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, y_, nullptr, &e), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(x_, o_, alpha_, y_, &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

// An aclnn operator queued on a stream whose overflow switch is on sets the overflow status
// when it produces an inf or a NaN, as a built-in aclop operator does (tests/ops/overflow_test).
TEST_F(Base, AnOperatorOnAStreamWithTheOverflowSwitchOnReportsInfAndNan) {
  void *status = nullptr;
  ASSERT_EQ(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  dev_.push_back(status);
  auto overflowed = [&] {
    uint32_t word = 7;
    EXPECT_EQ(aclrtGetOverflowStatus(status, 64, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(&word, 4, status, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return word;
  };
  ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  aclTensor *big = tensor<float>({3e38f, 1}, {2}), *y = tensor<float>({0, 0}, {2});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, big, big, scalar(1), y), ACLNN_SUCCESS);
  EXPECT_EQ(overflowed(), 0u);  // the switch is off
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  aclTensor *small = tensor<float>({1, 2}, {2});
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, small, small, scalar(1), y), ACLNN_SUCCESS);
  EXPECT_EQ(overflowed(), 0u);  // finite
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, big, big, scalar(1), y), ACLNN_SUCCESS);
  EXPECT_EQ(overflowed(), 1u);
  ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  EXPECT_EQ(overflowed(), 0u);
}

}  // namespace
