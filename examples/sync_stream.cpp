// Scenario: synchronize a stream (context/stream synchronization). aclrtSynchronizeStream
// waits for the tasks of one stream only; aclrtStreamQuery tells whether it is idle.
#include "common.h"

int main() {
  std::printf("synchronization: stream\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  constexpr size_t n = 4 << 20;
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));
  void *dev = nullptr, *host = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(&host, n));
  std::memset(host, 0, n);

  for (int round = 1; round <= 10; ++round) {
    CHECK_ACL(aclrtMemsetAsync(dev, n, round, n, s));
    CHECK_ACL(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  }
  CHECK_ACL(aclrtSynchronizeStream(s));
  EXPECT_TRUE(all_bytes(host, n, 10), "every task of the stream ran, in order");
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  CHECK_ACL(aclrtStreamQuery(s, &st));
  EXPECT_TRUE(st == ACL_STREAM_STATUS_COMPLETE, "the stream reports complete");

  CHECK_ACL(aclrtMemsetAsync(dev, n, 0x5e, n, s));
  CHECK_ACL(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  CHECK_ACL(aclrtSynchronizeStreamWithTimeout(s, 10000));
  EXPECT_TRUE(all_bytes(host, n, 0x5e), "synchronize with a timeout waits too");

  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS sync_stream\n");
  return 0;
}
