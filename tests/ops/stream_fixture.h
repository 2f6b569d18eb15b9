// What the runtime-call tests of the ops suite share: one runtime per test suite, device 0 and
// a stream of its own per test, device buffers freed at the end, and checks of a failure's code
// and message.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace opt {

inline std::string recent_msg() {
  const char *m = aclGetRecentErrMsg();
  return m ? m : "";
}

class StreamTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  static void TearDownTestSuite() { aclFinalize(); }
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void *p : dev_) aclrtFree(p);
    aclrtDestroyStream(stream_);
    aclrtResetDevice(0);
  }
  void *alloc(size_t bytes) {
    void *p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    dev_.push_back(p);
    return p;
  }
  // Device copy of host values stored as T (an empty one: a 1-byte allocation).
  template <class T>
  void *upload(const std::vector<T> &v) {
    void *p = alloc(std::max<size_t>(v.size() * sizeof(T), 1));
    if (!v.empty())
      EXPECT_EQ(aclrtMemcpy(p, v.size() * sizeof(T), v.data(), v.size() * sizeof(T),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    return p;
  }
  template <class T>
  std::vector<T> download(const void *p, size_t n) {
    std::vector<T> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return v;
  }
  // The call failed with `want` and a message that names `api` and contains `words`.
  static void expect_fails(aclError got, aclError want, const char *api, const std::string &words) {
    EXPECT_EQ(got, want);
    const std::string m = recent_msg();
    EXPECT_NE(m.find(api), std::string::npos) << m;
    EXPECT_NE(m.find(words), std::string::npos) << m;
  }

  aclrtStream stream_ = nullptr;
  std::vector<void *> dev_;
};

}  // namespace opt
