// aclrtReduceAsync: dst[i] = dst[i] op src[i] on the stream, for each kind and element type
// against a host reference, in stream order, and each bad argument with its error and message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ops/stream_fixture.h"

namespace {

constexpr aclrtReduceKind kSum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
constexpr aclrtReduceKind kMax = ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX;
constexpr aclrtReduceKind kMin = ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN;

class ReduceAsync : public opt::StreamTest {
 protected:
  // Reduces src into dst on the stream and returns dst once the stream is done.
  template <class T>
  std::vector<T> reduce(const std::vector<T> &dst, const std::vector<T> &src, aclrtReduceKind kind,
                        aclDataType type) {
    void *d = upload(dst);
    void *s = upload(src);
    EXPECT_EQ(aclrtReduceAsync(d, s, dst.size() * sizeof(T), kind, type, stream_, nullptr),
              ACL_SUCCESS)
        << opt::recent_msg();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return download<T>(d, dst.size());
  }
  static void fails(aclError got, aclError want, const std::string &words) {
    expect_fails(got, want, "aclrtReduceAsync", words);
  }
};

TEST_F(ReduceAsync, FloatSumMaxMin) {
  std::vector<float> a{1.5f, -2.0f, 3.25f, 0.0f, -7.5f};
  std::vector<float> b{0.25f, 4.0f, -1.0f, -0.5f, -7.0f};
  EXPECT_EQ(reduce(a, b, kSum, ACL_FLOAT), (std::vector<float>{1.75f, 2.0f, 2.25f, -0.5f, -14.5f}));
  EXPECT_EQ(reduce(a, b, kMax, ACL_FLOAT), (std::vector<float>{1.5f, 4.0f, 3.25f, 0.0f, -7.0f}));
  EXPECT_EQ(reduce(a, b, kMin, ACL_FLOAT), (std::vector<float>{0.25f, -2.0f, -1.0f, -0.5f, -7.5f}));
}

TEST_F(ReduceAsync, MaxAndMinOfNanAreNan) {
  const float nan = std::nanf("");
  auto max = reduce<float>({nan, 1.0f}, {2.0f, nan}, kMax, ACL_FLOAT);
  EXPECT_TRUE(std::isnan(max[0]) && std::isnan(max[1]));
  auto min = reduce<float>({nan, 1.0f}, {2.0f, nan}, kMin, ACL_FLOAT);
  EXPECT_TRUE(std::isnan(min[0]) && std::isnan(min[1]));
}

TEST_F(ReduceAsync, IntegerSumsWrap) {
  EXPECT_EQ(reduce<int8_t>({127, -128, 5}, {1, -1, -9}, kSum, ACL_INT8),
            (std::vector<int8_t>{-128, 127, -4}));
  EXPECT_EQ(reduce<int16_t>({32767, -3, 100}, {1, 3, -300}, kSum, ACL_INT16),
            (std::vector<int16_t>{-32768, 0, -200}));
  EXPECT_EQ(reduce<int32_t>({INT32_MAX, 7, -9}, {1, -8, 4}, kSum, ACL_INT32),
            (std::vector<int32_t>{INT32_MIN, -1, -5}));
  EXPECT_EQ(reduce<int32_t>({INT32_MAX, 7, -9}, {1, -8, 4}, kMax, ACL_INT32),
            (std::vector<int32_t>{INT32_MAX, 7, 4}));
  EXPECT_EQ(reduce<int16_t>({-3, 2}, {1, -5}, kMin, ACL_INT16), (std::vector<int16_t>{-3, -5}));
}

TEST_F(ReduceAsync, HalfAndBfloat16) {
  // fp16: 1.5 = 0x3E00, 2.25 = 0x4080, 3.75 = 0x4380, -1 = 0xBC00; 65504 + 65504 overflows
  // to +inf (0x7C00).
  EXPECT_EQ(reduce<uint16_t>({0x3E00, 0x7BFF, 0xBC00}, {0x4080, 0x7BFF, 0x3E00}, kSum, ACL_FLOAT16),
            (std::vector<uint16_t>{0x4380, 0x7C00, 0x3800}));  // -1 + 1.5 = 0.5 = 0x3800
  EXPECT_EQ(reduce<uint16_t>({0x3E00, 0xBC00}, {0x4080, 0x3E00}, kMin, ACL_FLOAT16),
            (std::vector<uint16_t>{0x3E00, 0xBC00}));
  // bf16: 1.5 = 0x3FC0, 2.25 = 0x4010, 3.75 = 0x4070; -2 = 0xC000
  EXPECT_EQ(reduce<uint16_t>({0x3FC0, 0xC000}, {0x4010, 0x3FC0}, kSum, ACL_BF16),
            (std::vector<uint16_t>{0x4070, 0xBF00}));  // -2 + 1.5 = -0.5 = 0xBF00
  EXPECT_EQ(reduce<uint16_t>({0x3FC0, 0xC000}, {0x4010, 0x3FC0}, kMax, ACL_BF16),
            (std::vector<uint16_t>{0x4010, 0x3FC0}));
}

TEST_F(ReduceAsync, RunsInStreamOrderAndIntoItself) {
  std::vector<float> host(1000, 1.0f);
  void *d = upload(std::vector<float>(1000, 0.0f));
  void *s = upload(std::vector<float>(1000, 0.0f));
  const size_t n = host.size() * sizeof(float);
  // The copy queued before the reduce is what it reads; each reduce sees the one before.
  ASSERT_EQ(aclrtMemcpyAsync(s, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(d, s, n, kSum, ACL_FLOAT, stream_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(d, s, n, kSum, ACL_FLOAT, stream_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(d, d, n, kSum, ACL_FLOAT, stream_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<float>(d, host.size()), std::vector<float>(host.size(), 4.0f));
}

TEST_F(ReduceAsync, DefaultStreamAndZeroCount) {
  void *d = upload(std::vector<int32_t>{5, 6});
  void *s = upload(std::vector<int32_t>{1, 2});
  ASSERT_EQ(aclrtReduceAsync(d, s, 0, kSum, ACL_INT32, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(d, s, 4, kSum, ACL_INT32, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(download<int32_t>(d, 2), (std::vector<int32_t>{6, 6}));
}

TEST_F(ReduceAsync, BadArguments) {
  void *d = upload(std::vector<float>(8, 0.0f));
  void *s = upload(std::vector<float>(8, 0.0f));
  fails(aclrtReduceAsync(nullptr, s, 32, kSum, ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_INVALID_PARAM, "NULL");
  fails(aclrtReduceAsync(d, nullptr, 32, kSum, ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_INVALID_PARAM, "NULL");
  int reserved = 0;
  fails(aclrtReduceAsync(d, s, 32, kSum, ACL_FLOAT, stream_, &reserved), ACL_ERROR_INVALID_PARAM,
        "reserve");
  fails(aclrtReduceAsync(d, s, 32, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "EQUAL");
  fails(aclrtReduceAsync(d, s, 32, static_cast<aclrtReduceKind>(3), ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_INVALID_PARAM, "aclrtReduceKind");
  fails(aclrtReduceAsync(d, s, 32, kSum, ACL_DOUBLE, stream_, nullptr),
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "not reducible");
  fails(aclrtReduceAsync(d, s, 30, kSum, ACL_FLOAT, stream_, nullptr), ACL_ERROR_INVALID_PARAM,
        "4-byte elements");
  fails(aclrtReduceAsync(d, s, 36, kSum, ACL_FLOAT, stream_, nullptr), ACL_ERROR_INVALID_PARAM,
        "run past the end");
  std::vector<float> host(8);
  fails(aclrtReduceAsync(host.data(), s, 32, kSum, ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_INVALID_PARAM, "not device memory");
  fails(aclrtReduceAsync(static_cast<char *>(d) + 4, d, 16, kSum, ACL_FLOAT, stream_, nullptr),
        ACL_ERROR_INVALID_PARAM, "overlap");
  fails(aclrtReduceAsync(d, s, 32, kSum, ACL_FLOAT, reinterpret_cast<aclrtStream>(&host), nullptr),
        ACL_ERROR_RT_INVALID_HANDLE, "stream");
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(download<float>(d, 8), std::vector<float>(8, 0.0f));  // nothing ran
}

TEST_F(ReduceAsync, MemoryOfAnotherDeviceIsRefused) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  if (count < 2) GTEST_SKIP() << "one device";
  void *d = upload(std::vector<float>(4, 0.0f));
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void *other = nullptr;
  ASSERT_EQ(aclrtMalloc(&other, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  fails(aclrtReduceAsync(d, other, 16, kSum, ACL_FLOAT, stream_, nullptr), ACL_ERROR_INVALID_PARAM,
        "not of the stream's device 0");
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

}  // namespace
