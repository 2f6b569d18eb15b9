// Scenario: one host thread driving several streams. Each stream runs its own
// copy-in / set / copy-out pipeline; the streams are independent and each is synchronized.
#include <vector>

#include "common.h"

int main() {
  std::printf("one thread, several streams\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));

  constexpr int streams = 4;
  constexpr size_t n = 256 * 1024;
  aclrtStream s[streams];
  void *dev[streams], *host[streams];
  for (int i = 0; i < streams; ++i) {
    CHECK_ACL(aclrtCreateStream(&s[i]));
    CHECK_ACL(aclrtMalloc(&dev[i], n, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMallocHost(&host[i], n));
    std::memset(host[i], i + 1, n);
  }
  for (int i = 0; i < streams; ++i) {
    CHECK_ACL(aclrtMemcpyAsync(dev[i], n, host[i], n, ACL_MEMCPY_HOST_TO_DEVICE, s[i]));
    CHECK_ACL(aclrtMemsetAsync(dev[i], n, 0x40 + i, n / 4, s[i]));
    CHECK_ACL(aclrtMemcpyAsync(host[i], n, dev[i], n, ACL_MEMCPY_DEVICE_TO_HOST, s[i]));
  }
  for (int i = 0; i < streams; ++i) CHECK_ACL(aclrtSynchronizeStream(s[i]));
  for (int i = 0; i < streams; ++i) {
    char what[96];
    std::snprintf(what, sizeof what, "stream %d produced its own result", i);
    bool ok = all_bytes(host[i], n / 4, 0x40 + i) &&
              all_bytes(static_cast<char *>(host[i]) + n / 4, n - n / 4, i + 1);
    EXPECT_TRUE(ok, what);
  }
  for (int i = 0; i < streams; ++i) {
    CHECK_ACL(aclrtDestroyStream(s[i]));
    CHECK_ACL(aclrtFree(dev[i]));
    CHECK_ACL(aclrtFreeHost(host[i]));
  }
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS multi_stream\n");
  return 0;
}
