// acl/ops/acl_cblas.h (libacl_cblas): every Gemm / Gemv form against a naive reference in
// double, for each type pair, transposes, alpha and beta (beta 0 does not read C), the handle
// forms through aclopExecWithHandle, stream order, and each bad argument with its error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/ops/acl_cblas.h"
#include "ops/stream_fixture.h"

namespace {

// C = alpha * op(A) op(B) + beta * C on row-major storage; A is [m,k] ([k,m] when ta).
std::vector<double> reference(bool ta, bool tb, int m, int n, int k, double alpha,
                              const std::vector<double> &a, const std::vector<double> &b,
                              double beta, const std::vector<double> &c) {
  std::vector<double> out(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += (ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
      out[i * n + j] = alpha * s + (beta == 0 ? 0 : beta * c[i * n + j]);
    }
  return out;
}

class Cblas : public opt::StreamTest {
 protected:
  // Small integers: exact in f16, and products that int8 holds.
  std::vector<double> values(size_t n, int lo, int hi) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<double> v(n);
    for (auto &x : v) x = d(rng_);
    return v;
  }
  static std::vector<aclFloat16> f16(const std::vector<double> &v) {
    std::vector<aclFloat16> out;
    for (double x : v) out.push_back(aclFloatToFloat16(static_cast<float>(x)));
    return out;
  }
  template <class T, class U>
  static std::vector<T> as(const std::vector<U> &v) {
    return std::vector<T>(v.begin(), v.end());
  }
  static void expect_near(const std::vector<double> &got, const std::vector<double> &want,
                          double rel) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], rel * std::max(1.0, std::fabs(want[i]))) << "element " << i;
  }

  std::mt19937 rng_{7};
};

TEST_F(Cblas, HgemmMatchesTheReferenceForEveryTranspose) {
  const int m = 5, n = 7, k = 9;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      auto a = values(m * k, -3, 3), b = values(k * n, -3, 3), c = values(m * n, -4, 4);
      void *da = upload(f16(a)), *db = upload(f16(b)), *dc = upload(f16(c));
      void *alpha = upload(f16({2.0})), *beta = upload(f16({-0.5}));
      ASSERT_EQ(
          aclblasHgemm(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N,
                       m, n, k, static_cast<aclFloat16 *>(alpha), static_cast<aclFloat16 *>(da), -1,
                       static_cast<aclFloat16 *>(db), -1, static_cast<aclFloat16 *>(beta),
                       static_cast<aclFloat16 *>(dc), -1, ACL_COMPUTE_HIGH_PRECISION, stream_),
          ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      std::vector<double> got;
      for (aclFloat16 h : download<aclFloat16>(dc, m * n)) got.push_back(aclFloat16ToFloat(h));
      expect_near(got, reference(ta, tb, m, n, k, 2.0, a, b, -0.5, c), 1e-3);
    }
}

TEST_F(Cblas, GemmExTakesEachTypePair) {
  const int m = 6, n = 4, k = 33;
  auto a = values(m * k, -8, 8), b = values(k * n, -8, 8), c = values(m * n, -50, 50);
  const auto want = reference(false, true, m, n, k, 3.0, a, b, 2.0, c);
  struct Case {
    aclDataType ab, c;
  };
  for (Case t : {Case{ACL_FLOAT16, ACL_FLOAT}, Case{ACL_INT8, ACL_FLOAT}, Case{ACL_INT8, ACL_INT32},
                 Case{ACL_FLOAT, ACL_FLOAT}}) {
    void *da = t.ab == ACL_FLOAT16 ? upload(f16(a))
               : t.ab == ACL_INT8  ? upload(as<int8_t>(a))
                                   : upload(as<float>(a));
    void *db = t.ab == ACL_FLOAT16 ? upload(f16(b))
               : t.ab == ACL_INT8  ? upload(as<int8_t>(b))
                                   : upload(as<float>(b));
    const bool i32 = t.c == ACL_INT32;
    void *dc = i32 ? upload(as<int32_t>(c)) : upload(as<float>(c));
    void *alpha = i32 ? upload(std::vector<int32_t>{3}) : upload(std::vector<float>{3});
    void *beta = i32 ? upload(std::vector<int32_t>{2}) : upload(std::vector<float>{2});
    ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, m, n, k, alpha, da, -1, t.ab, db,
                            -1, t.ab, beta, dc, -1, t.c, ACL_COMPUTE_HIGH_PRECISION, stream_),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    // Small integers: every pair computes exactly.
    const auto got =
        i32 ? as<double>(download<int32_t>(dc, m * n)) : as<double>(download<float>(dc, m * n));
    EXPECT_EQ(got, want) << "types " << t.ab << " -> " << t.c;
  }
}

TEST_F(Cblas, S8gemmIsExactInInt32) {
  const int m = 3, n = 5, k = 64;
  auto a = values(m * k, -128, 127), b = values(k * n, -128, 127), c = values(m * n, -1000, 1000);
  void *da = upload(as<int8_t>(a)), *db = upload(as<int8_t>(b)), *dc = upload(as<int32_t>(c));
  void *alpha = upload(std::vector<int32_t>{-1}), *beta = upload(std::vector<int32_t>{3});
  ASSERT_EQ(aclblasS8gemm(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                          static_cast<int32_t *>(alpha), static_cast<int8_t *>(da), -1,
                          static_cast<int8_t *>(db), -1, static_cast<int32_t *>(beta),
                          static_cast<int32_t *>(dc), -1, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(as<double>(download<int32_t>(dc, m * n)),
            reference(true, false, m, n, k, -1, a, b, 3, c));
}

TEST_F(Cblas, BetaZeroDoesNotReadC) {
  const int m = 2, n = 3, k = 4;
  auto a = values(m * k, -3, 3), b = values(k * n, -3, 3);
  std::vector<aclFloat16> nan(m * n, aclFloatToFloat16(NAN));
  void *da = upload(f16(a)), *db = upload(f16(b)), *dc = upload(nan);
  void *alpha = upload(f16({1.0})), *beta = upload(f16({0.0}));
  ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha, da, -1,
                          ACL_FLOAT16, db, -1, ACL_FLOAT16, beta, dc, -1, ACL_FLOAT16,
                          ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<double> got;
  for (aclFloat16 h : download<aclFloat16>(dc, m * n)) got.push_back(aclFloat16ToFloat(h));
  EXPECT_EQ(got, reference(false, false, m, n, k, 1, a, b, 0, {}));
}

TEST_F(Cblas, GemvFormsAreGemmWithOneColumn) {
  const int m = 4, n = 6;  // op(A) is m x n
  auto a = values(m * n, -5, 5), x = values(n, -5, 5), y = values(m, -5, 5);
  // Hgemv with A stored transposed ([n, m]), as CANN lays it out for ACL_TRANS_T.
  void *da = upload(f16(a)), *dx = upload(f16(x)), *dy = upload(f16(y));
  void *alpha = upload(f16({1.0})), *beta = upload(f16({1.0}));
  ASSERT_EQ(aclblasHgemv(ACL_TRANS_T, m, n, static_cast<aclFloat16 *>(alpha),
                         static_cast<aclFloat16 *>(da), -1, static_cast<aclFloat16 *>(dx), -1,
                         static_cast<aclFloat16 *>(beta), static_cast<aclFloat16 *>(dy), -1,
                         ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<double> got;
  for (aclFloat16 h : download<aclFloat16>(dy, m)) got.push_back(aclFloat16ToFloat(h));
  EXPECT_EQ(got, reference(true, false, m, 1, n, 1, a, x, 1, y));

  void *ia = upload(as<int8_t>(a)), *ix = upload(as<int8_t>(x)), *iy = upload(as<int32_t>(y));
  void *ialpha = upload(std::vector<int32_t>{2}), *ibeta = upload(std::vector<int32_t>{0});
  ASSERT_EQ(
      aclblasS8gemv(ACL_TRANS_N, m, n, static_cast<int32_t *>(ialpha), static_cast<int8_t *>(ia),
                    -1, static_cast<int8_t *>(ix), -1, static_cast<int32_t *>(ibeta),
                    static_cast<int32_t *>(iy), -1, ACL_COMPUTE_HIGH_PRECISION, stream_),
      ACL_SUCCESS);
  void *fy = upload(as<float>(y)), *falpha = upload(std::vector<float>{0.5f}),
       *fbeta = upload(std::vector<float>{-1.0f});
  ASSERT_EQ(aclblasGemvEx(ACL_TRANS_N, m, n, falpha, ia, -1, ACL_INT8, ix, -1, ACL_INT8, fbeta, fy,
                          -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(as<double>(download<int32_t>(iy, m)), reference(false, false, m, 1, n, 2, a, x, 0, y));
  EXPECT_EQ(as<double>(download<float>(fy, m)), reference(false, false, m, 1, n, 0.5, a, x, -1, y));
}

TEST_F(Cblas, HandlesRunThroughExecWithHandle) {
  const int m = 3, n = 2, k = 5;
  auto a = values(m * k, -4, 4), b = values(k * n, -4, 4), c = values(m * n, -4, 4);
  aclopHandle *h = nullptr;
  ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                                        ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  const size_t s = sizeof(aclFloat16);
  aclDataBuffer *in[] = {aclCreateDataBuffer(upload(f16(a)), m * k * s),
                         aclCreateDataBuffer(upload(f16(b)), k * n * s),
                         aclCreateDataBuffer(upload(f16(c)), m * n * s),
                         aclCreateDataBuffer(upload(f16({-1.0})), s),
                         aclCreateDataBuffer(upload(f16({2.0})), s)};
  aclDataBuffer *out[] = {in[2]};
  ASSERT_EQ(aclopExecWithHandle(h, 5, in, 1, out, stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<double> got;
  for (aclFloat16 x : download<aclFloat16>(aclGetDataBufferAddr(in[2]), m * n))
    got.push_back(aclFloat16ToFloat(x));
  EXPECT_EQ(got, reference(false, false, m, n, k, -1, a, b, 2, c));
  for (auto *d : in) aclDestroyDataBuffer(d);
  aclopDestroyHandle(h);

  // Every CreateHandleFor form prepares its op; a Gemv handle has n = 1.
  EXPECT_EQ(aclblasCreateHandleForGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, m, n, k, ACL_INT8,
                                         ACL_INT8, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  aclopDestroyHandle(h);
  EXPECT_EQ(aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, m, n, k,
                                         ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  aclopDestroyHandle(h);
  EXPECT_EQ(aclblasCreateHandleForGemvEx(ACL_TRANS_N, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT,
                                         ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  aclopDestroyHandle(h);
  EXPECT_EQ(aclblasCreateHandleForHgemv(ACL_TRANS_T, m, n, ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  aclopDestroyHandle(h);
  EXPECT_EQ(aclblasCreateHandleForS8gemv(ACL_TRANS_N, m, n, ACL_COMPUTE_HIGH_PRECISION, &h),
            ACL_SUCCESS);
  aclopDestroyHandle(h);
}

TEST_F(Cblas, RunsOnTheStreamAfterEarlierCopies) {
  // The call returns at once; it reads A as the copy enqueued before it left it.
  const int m = 2, n = 2, k = 2;
  std::vector<float> a = {1, 2, 3, 4}, b = {1, 0, 0, 1}, zeros(4, 0);
  void *da = upload(zeros), *db = upload(b), *dc = upload(zeros);
  void *alpha = upload(std::vector<float>{1}), *beta = upload(std::vector<float>{0});
  void *pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 16), ACL_SUCCESS);
  std::memcpy(pinned, a.data(), 16);
  ASSERT_EQ(aclrtMemcpyAsync(da, 16, pinned, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  ASSERT_EQ(
      aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha, da, -1, ACL_FLOAT, db,
                    -1, ACL_FLOAT, beta, dc, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<float>(dc, 4), a);
  aclrtFreeHost(pinned);
}

TEST_F(Cblas, BadArgumentsFailWithTheirErrorAndEnqueueNothing) {
  const int m = 2, n = 2, k = 2;
  void *a = upload(f16({1, 2, 3, 4})), *c = upload(f16({9, 9, 9, 9})), *one = upload(f16({1.0}));
  auto *h = static_cast<aclFloat16 *>(a), *hc = static_cast<aclFloat16 *>(c),
       *h1 = static_cast<aclFloat16 *>(one);
  const auto hp = ACL_COMPUTE_HIGH_PRECISION;
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, nullptr, h, -1, h, -1,
                            h1, hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "alpha is NULL");
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 0, n, k, h1, h, -1, h, -1, h1,
                            hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "m = 0");
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, h1, h, 2, h, -1, h1, hc,
                            -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "lda is 2");
  expect_fails(aclblasHgemv(ACL_TRANS_N, m, n, h1, h, -1, h, 1, h1, hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemv", "incx is 1");
  expect_fails(aclblasHgemm(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, m, n, k, h1, h, -1, h, -1, h1,
                            hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "fractal-NZ");
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, m, n, k, h1, h, -1, h, -1, h1,
                            hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "transC");
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, h1, h, -1, h, -1, h1,
                            hc, -1, ACL_COMPUTE_LOW_PRECISION, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "ACL_COMPUTE_HIGH_PRECISION");
  expect_fails(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, one, a, -1,
                             ACL_FLOAT16, a, -1, ACL_FLOAT16, one, c, -1, ACL_INT32, hp, stream_),
               ACL_ERROR_UNSUPPORTED_DATA_TYPE, "aclblasGemmEx", "int32");
  // alpha must be device memory, as in CANN.
  const aclFloat16 host_one = aclFloatToFloat16(1.0f);
  expect_fails(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, &host_one, h, -1, h, -1,
                            h1, hc, -1, hp, stream_),
               ACL_ERROR_INVALID_PARAM, "aclblasHgemm", "inputs[3]");
  aclopHandle *handle = nullptr;
  expect_fails(
      aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, hp, nullptr),
      ACL_ERROR_INVALID_PARAM, "aclblasCreateHandleForHgemm", "handle is NULL");
  expect_fails(aclblasCreateHandleForS8gemv(ACL_TRANS_N, m, -1, hp, &handle),
               ACL_ERROR_INVALID_PARAM, "aclblasCreateHandleForS8gemv", "n = -1");
  EXPECT_EQ(handle, nullptr);
  // None of the failed calls touched C.
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (aclFloat16 x : download<aclFloat16>(c, 4)) EXPECT_EQ(aclFloat16ToFloat(x), 9.0f);
}

}  // namespace
