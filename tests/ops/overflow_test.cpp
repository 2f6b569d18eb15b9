// Float overflow detection: a built-in operator queued on a stream whose overflow switch is on
// sets the (process's) overflow status when an output holds an inf or a NaN;
// aclrtGetOverflowStatus writes the status in stream order, aclrtResetOverflowStatus clears it.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ops/stream_fixture.h"

namespace {

class Overflow : public opt::StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    status_ = alloc(64);
    ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);  // the process's, from any test
  }
  void TearDown() override {
    for (auto *d : descs_) aclDestroyTensorDesc(d);
    for (auto *b : bufs_) aclDestroyDataBuffer(b);
    StreamTest::TearDown();
  }
  // out = a + b with Add on the stream, for n floats each.
  void add(const std::vector<float> &a, const std::vector<float> &b, aclrtStream s) {
    const size_t bytes = a.size() * sizeof(float);
    const int64_t dims[] = {static_cast<int64_t>(a.size())};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    descs_.push_back(d);
    aclDataBuffer *in[] = {buffer(upload(a), bytes), buffer(upload(b), bytes)};
    aclDataBuffer *out[] = {buffer(alloc(bytes), bytes)};
    aclTensorDesc *ind[] = {d, d}, *outd[] = {d};
    ASSERT_EQ(aclopExecuteV2("Add", 2, ind, in, 1, outd, out, nullptr, s), ACL_SUCCESS)
        << opt::recent_msg();
  }
  aclDataBuffer *buffer(void *p, size_t bytes) {
    bufs_.push_back(aclCreateDataBuffer(p, bytes));
    return bufs_.back();
  }
  // The first word of the status, read through aclrtGetOverflowStatus on the stream.
  uint32_t status() {
    EXPECT_EQ(aclrtGetOverflowStatus(status_, 64, stream_), ACL_SUCCESS) << opt::recent_msg();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    uint8_t host[64];
    std::memset(host, 0xff, sizeof host);
    EXPECT_EQ(aclrtMemcpy(host, 64, status_, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 4; i < 64; ++i) EXPECT_EQ(host[i], 0) << i;
    uint32_t word = 0;
    std::memcpy(&word, host, sizeof word);
    return word;
  }

  void *status_ = nullptr;
  std::vector<aclTensorDesc *> descs_;
  std::vector<aclDataBuffer *> bufs_;
};

TEST_F(Overflow, SwitchIsPerStreamAndOffByDefault) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  uint32_t flag = 7;
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream_, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream_, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 1u);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(other, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(nullptr, 1), ACL_SUCCESS);  // the default stream
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(nullptr, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 1u);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream_, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);
  ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(Overflow, AnInfOrNanResultSetsTheStatusUntilReset) {
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  add({1.0f, 2.0f}, {3.0f, 4.0f}, stream_);
  EXPECT_EQ(status(), 0u);  // finite results
  add({FLT_MAX, 1.0f}, {FLT_MAX, 1.0f}, stream_);
  EXPECT_EQ(status(), 1u);
  EXPECT_EQ(status(), 1u);  // reading does not clear it
  ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  EXPECT_EQ(status(), 0u);
  add({INFINITY, 0.0f}, {-INFINITY, 0.0f}, stream_);  // NaN
  EXPECT_EQ(status(), 1u);
}

TEST_F(Overflow, OnlyTasksQueuedWithTheSwitchOnReport) {
  add({FLT_MAX}, {FLT_MAX}, stream_);  // switch off: no report
  EXPECT_EQ(status(), 0u);
  // The status is the process's: an overflow on another stream with the switch on shows in
  // the status read on this one.
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(other, 1), ACL_SUCCESS);
  add({FLT_MAX}, {FLT_MAX}, other);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  EXPECT_EQ(status(), 1u);
  ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(Overflow, StatusAndResetRunInStreamOrder) {
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  void *before = alloc(64);
  // Queued behind the overflowing op: the status it writes includes it; the reset that
  // follows clears it for the read after.
  add(std::vector<float>(4096, FLT_MAX), std::vector<float>(4096, FLT_MAX), stream_);
  ASSERT_EQ(aclrtGetOverflowStatus(before, 64, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  EXPECT_EQ(status(), 0u);
  uint32_t word = 0;
  ASSERT_EQ(aclrtMemcpy(&word, 4, before, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(word, 1u);
}

// A small elementwise op on a stream at rest runs during its call (issue 16): the switch
// applies to it as to a queued one (aclnn's: tests/aclnn/aclnn_base_test.cpp).
TEST_F(Overflow, OpsRunDuringTheirCallReportToo) {
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  add({FLT_MAX}, {FLT_MAX}, stream_);
  EXPECT_EQ(status(), 1u);
}

TEST_F(Overflow, BadArguments) {
  uint32_t flag = 0;
  expect_fails(aclrtSetStreamOverflowSwitch(stream_, 2), ACL_ERROR_INVALID_PARAM,
               "aclrtSetStreamOverflowSwitch", "flag 2");
  expect_fails(aclrtGetStreamOverflowSwitch(stream_, nullptr), ACL_ERROR_INVALID_PARAM,
               "aclrtGetStreamOverflowSwitch", "flag is NULL");
  aclrtStream bogus = reinterpret_cast<aclrtStream>(&flag);
  expect_fails(aclrtSetStreamOverflowSwitch(bogus, 1), ACL_ERROR_RT_INVALID_HANDLE,
               "aclrtSetStreamOverflowSwitch", "stream");
  expect_fails(aclrtGetOverflowStatus(nullptr, 64, stream_), ACL_ERROR_INVALID_PARAM,
               "aclrtGetOverflowStatus", "outputAddr is NULL");
  expect_fails(aclrtGetOverflowStatus(status_, 32, stream_), ACL_ERROR_INVALID_PARAM,
               "aclrtGetOverflowStatus", "64 bytes");
  uint8_t host[64];
  expect_fails(aclrtGetOverflowStatus(host, 64, stream_), ACL_ERROR_INVALID_PARAM,
               "aclrtGetOverflowStatus", "not device memory");
  expect_fails(aclrtGetOverflowStatus(static_cast<char *>(status_) + 8, 64, stream_),
               ACL_ERROR_INVALID_PARAM, "aclrtGetOverflowStatus", "run past the end");
  expect_fails(aclrtResetOverflowStatus(bogus), ACL_ERROR_RT_INVALID_HANDLE,
               "aclrtResetOverflowStatus", "stream");
}

}  // namespace
