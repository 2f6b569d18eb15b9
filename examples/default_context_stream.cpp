// Scenario: the default context and the default stream. aclrtSetDevice creates the device's
// default context with its default stream; passing NULL as the stream uses it.
#include <vector>

#include "common.h"

int main() {
  std::printf("default context and default stream\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));

  aclrtContext ctx = nullptr;
  CHECK_ACL(aclrtGetCurrentContext(&ctx));
  EXPECT_TRUE(ctx != nullptr, "aclrtSetDevice made a default context current");

  constexpr size_t n = 1 << 20;
  void *dev = nullptr, *in = nullptr, *host = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(&in, n));
  CHECK_ACL(aclrtMallocHost(&host, n));
  std::memset(in, 0x2a, n);
  std::memset(host, 0, n);

  // All tasks go to the default stream (NULL): copy in, overwrite half, copy back. The
  // page-locked buffers are read and written when the copies run, so neither is touched
  // until the stream is synchronized.
  CHECK_ACL(aclrtMemcpyAsync(dev, n, in, n, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  CHECK_ACL(aclrtMemsetAsync(dev, n, 0x07, n / 2, nullptr));
  CHECK_ACL(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
  CHECK_ACL(aclrtSynchronizeStream(nullptr));

  EXPECT_TRUE(all_bytes(host, n / 2, 0x07), "first half was set on the device");
  EXPECT_TRUE(all_bytes(static_cast<char *>(host) + n / 2, n / 2, 0x2a),
              "second half made the round trip");

  CHECK_ACL(aclrtFreeHost(in));
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS default_context_stream\n");
  return 0;
}
