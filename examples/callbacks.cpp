// Scenario: host callbacks. A host thread subscribed to a stream processes its reports with
// aclrtProcessReport; callbacks launched on the stream run on that thread, in stream order.
#include <pthread.h>

#include <atomic>
#include <thread>
#include <vector>

#include "common.h"

namespace {

struct Record {
  std::vector<int> order;
  std::atomic<uint64_t> thread{0};
};

struct Item {
  Record *record;
  int value;
  const unsigned char *host;  // bytes the copy before this callback produced
};

void on_done(void *data) {
  auto *it = static_cast<Item *>(data);
  // In stream order: the copy before this callback has landed.
  it->record->order.push_back(it->host[0] == it->value ? it->value : -1);
  it->record->thread.store(static_cast<uint64_t>(pthread_self()));
}

}  // namespace

int main() {
  std::printf("callbacks\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK_ACL(aclrtGetCurrentContext(&ctx));
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));

  std::atomic<bool> stop{false}, subscribed{false};
  std::atomic<uint64_t> tid{0};
  std::thread reporter([&] {
    aclrtSetCurrentContext(ctx);
    tid.store(static_cast<uint64_t>(pthread_self()));
    while (!subscribed.load()) std::this_thread::yield();
    while (!stop.load()) aclrtProcessReport(100);  // ACL_ERROR_RT_REPORT_TIMEOUT when idle
  });
  while (tid.load() == 0) std::this_thread::yield();
  CHECK_ACL(aclrtSubscribeReport(tid.load(), s));
  subscribed.store(true);

  constexpr int n = 8;
  constexpr size_t bytes = 1024;
  void *dev = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<unsigned char *> hosts(n);
  Record record;
  std::vector<Item> items(n);
  for (int i = 0; i < n; ++i) {
    void *h = nullptr;
    CHECK_ACL(aclrtMallocHost(&h, bytes));
    hosts[i] = static_cast<unsigned char *>(h);
    items[i] = Item{&record, i + 1, hosts[i]};
    CHECK_ACL(aclrtMemsetAsync(dev, bytes, i + 1, bytes, s));
    CHECK_ACL(aclrtMemcpyAsync(hosts[i], bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK_ACL(aclrtLaunchCallback(on_done, &items[i], ACL_CALLBACK_BLOCK, s));
  }
  CHECK_ACL(aclrtSynchronizeStream(s));

  bool in_order = record.order.size() == n;
  for (int i = 0; in_order && i < n; ++i) in_order = record.order[i] == i + 1;
  EXPECT_TRUE(in_order, "8 callbacks ran once each, in stream order, after their copies");
  EXPECT_TRUE(record.thread.load() == tid.load(), "callbacks ran on the subscribed thread");

  CHECK_ACL(aclrtUnSubscribeReport(tid.load(), s));
  stop.store(true);
  reporter.join();
  for (auto *h : hosts) CHECK_ACL(aclrtFreeHost(h));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS callbacks\n");
  return 0;
}
