// Scenario: several host threads, each with its own context and stream. Each thread creates
// its context (which binds it), a stream, does its work and tears down; contexts are spread
// over the devices.
#include <atomic>
#include <thread>
#include <vector>

#include "common.h"

int main() {
  std::printf("several threads, each with its own context and stream\n");
  CHECK_ACL(aclInit(nullptr));
  uint32_t devices = 0;
  CHECK_ACL(aclrtGetDeviceCount(&devices));

  constexpr int threads = 4;
  constexpr size_t n = 64 * 1024;
  std::atomic<int> good{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      aclrtContext ctx = nullptr;
      aclrtStream s = nullptr;
      CHECK_ACL(aclrtCreateContext(&ctx, t % static_cast<int>(devices)));
      CHECK_ACL(aclrtCreateStream(&s));
      void *dev = nullptr, *host = nullptr;
      CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
      CHECK_ACL(aclrtMallocHost(&host, n));
      for (int round = 0; round < 20; ++round) {
        CHECK_ACL(aclrtMemsetAsync(dev, n, (t * 16 + round) & 0xff, n, s));
        CHECK_ACL(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
        CHECK_ACL(aclrtSynchronizeStream(s));
        if (!all_bytes(host, n, (t * 16 + round) & 0xff)) return;
      }
      CHECK_ACL(aclrtDestroyStream(s));
      CHECK_ACL(aclrtFree(dev));
      CHECK_ACL(aclrtFreeHost(host));
      CHECK_ACL(aclrtDestroyContext(ctx));
      good.fetch_add(1);
    });
  for (auto &th : pool) th.join();
  char what[64];
  std::snprintf(what, sizeof what, "%d of %d threads got their own results", good.load(), threads);
  EXPECT_TRUE(good.load() == threads, what);
  CHECK_ACL(aclFinalize());
  std::printf("PASS multi_thread_contexts\n");
  return 0;
}
