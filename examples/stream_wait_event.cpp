// Scenario: one stream waits for an event of another. A producer stream fills a buffer and
// records an event; a consumer stream waits on the event (no host involvement) and copies the
// buffer out. The host synchronizes only the consumer.
#include "common.h"

int main() {
  std::printf("synchronization: stream waits for event\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  constexpr size_t n = 8 << 20;
  aclrtStream producer = nullptr, consumer = nullptr;
  CHECK_ACL(aclrtCreateStream(&producer));
  CHECK_ACL(aclrtCreateStream(&consumer));
  aclrtEvent ready = nullptr;
  CHECK_ACL(aclrtCreateEventWithFlag(&ready, ACL_EVENT_SYNC));
  void *buf = nullptr, *out = nullptr, *host = nullptr;
  CHECK_ACL(aclrtMalloc(&buf, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&out, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(&host, n));

  for (int round = 1; round <= 5; ++round) {
    CHECK_ACL(aclrtMemsetAsync(buf, n, 0, n, producer));
    CHECK_ACL(aclrtMemsetAsync(buf, n, round, n, producer));
    CHECK_ACL(aclrtRecordEvent(ready, producer));
    CHECK_ACL(aclrtStreamWaitEvent(consumer, ready));
    CHECK_ACL(aclrtMemcpyAsync(out, n, buf, n, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
    CHECK_ACL(aclrtMemcpyAsync(host, n, out, n, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
    CHECK_ACL(aclrtSynchronizeStream(consumer));
    char what[80];
    std::snprintf(what, sizeof what, "round %d: the consumer saw the producer's finished buffer",
                  round);
    EXPECT_TRUE(all_bytes(host, n, round), what);
  }

  CHECK_ACL(aclrtSynchronizeStream(producer));
  CHECK_ACL(aclrtDestroyEvent(ready));
  CHECK_ACL(aclrtDestroyStream(producer));
  CHECK_ACL(aclrtDestroyStream(consumer));
  CHECK_ACL(aclrtFree(buf));
  CHECK_ACL(aclrtFree(out));
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS stream_wait_event\n");
  return 0;
}
