// Scenario: synchronize the device. Work on several streams (and the default stream) of the
// current device; one aclrtSynchronizeDevice waits for all of it.
#include <initializer_list>

#include "common.h"

int main() {
  std::printf("synchronization: device\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  constexpr size_t n = 8 << 20;
  aclrtStream s1 = nullptr, s2 = nullptr;
  CHECK_ACL(aclrtCreateStream(&s1));
  CHECK_ACL(aclrtCreateStream(&s2));
  void *a = nullptr, *b = nullptr, *c = nullptr, *ha = nullptr, *hb = nullptr, *hc = nullptr;
  for (void **p : {&a, &b, &c}) CHECK_ACL(aclrtMalloc(p, n, ACL_MEM_MALLOC_HUGE_FIRST));
  for (void **p : {&ha, &hb, &hc}) CHECK_ACL(aclrtMallocHost(p, n));

  CHECK_ACL(aclrtMemsetAsync(a, n, 1, n, s1));
  CHECK_ACL(aclrtMemcpyAsync(ha, n, a, n, ACL_MEMCPY_DEVICE_TO_HOST, s1));
  CHECK_ACL(aclrtMemsetAsync(b, n, 2, n, s2));
  CHECK_ACL(aclrtMemcpyAsync(hb, n, b, n, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  CHECK_ACL(aclrtMemsetAsync(c, n, 3, n, nullptr));
  CHECK_ACL(aclrtMemcpyAsync(hc, n, c, n, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));

  CHECK_ACL(aclrtSynchronizeDevice());
  EXPECT_TRUE(all_bytes(ha, n, 1), "stream 1 finished");
  EXPECT_TRUE(all_bytes(hb, n, 2), "stream 2 finished");
  EXPECT_TRUE(all_bytes(hc, n, 3), "default stream finished");

  // The timeout variant: -1 waits forever; with nothing pending any timeout succeeds.
  CHECK_ACL(aclrtSynchronizeDeviceWithTimeout(-1));
  CHECK_ACL(aclrtSynchronizeDeviceWithTimeout(100));
  EXPECT_TRUE(aclrtSynchronizeDeviceWithTimeout(-2) == ACL_ERROR_RT_PARAM_INVALID,
              "a timeout below -1 is refused (107000)");

  CHECK_ACL(aclrtDestroyStream(s1));
  CHECK_ACL(aclrtDestroyStream(s2));
  for (void *p : {a, b, c}) CHECK_ACL(aclrtFree(p));
  for (void *p : {ha, hb, hc}) CHECK_ACL(aclrtFreeHost(p));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS sync_device\n");
  return 0;
}
