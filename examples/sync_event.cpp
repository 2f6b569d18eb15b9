// Scenario: synchronize on an event. The host waits for the work recorded before an event,
// queries its status, and measures the time between two events.
#include "common.h"

int main() {
  std::printf("synchronization: event\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  constexpr size_t n = 16 << 20;
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));
  aclrtEvent start = nullptr, end = nullptr;
  CHECK_ACL(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK_ACL(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  void *a = nullptr, *b = nullptr, *host = nullptr;
  CHECK_ACL(aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(&host, n));

  CHECK_ACL(aclrtRecordEvent(start, s));
  for (int i = 0; i < 8; ++i) {
    CHECK_ACL(aclrtMemsetAsync(a, n, i, n, s));
    CHECK_ACL(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  }
  CHECK_ACL(aclrtMemcpyAsync(host, n, b, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  CHECK_ACL(aclrtRecordEvent(end, s));

  CHECK_ACL(aclrtSynchronizeEvent(end));
  EXPECT_TRUE(all_bytes(host, n, 7), "the work before the event is done");
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ACL(aclrtQueryEventStatus(end, &st));
  EXPECT_TRUE(st == ACL_EVENT_RECORDED_STATUS_COMPLETE, "the event reports complete");
  float ms = -1;
  CHECK_ACL(aclrtEventElapsedTime(&ms, start, end));
  std::printf("       17 device tasks (8 x 16 MiB memset + D2D, one D2H) took %.3f ms\n", ms);
  EXPECT_TRUE(ms > 0.0f, "elapsed time between the events is positive");

  CHECK_ACL(aclrtDestroyEvent(start));
  CHECK_ACL(aclrtDestroyEvent(end));
  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtFree(a));
  CHECK_ACL(aclrtFree(b));
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS sync_event\n");
  return 0;
}
