#include "core/task_storage.h"

#include <cstdint>
#include <mutex>
#include <new>

namespace openacl::task_storage {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecycle = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kRecycle = false;
#else
constexpr bool kRecycle = true;
#endif
#else
constexpr bool kRecycle = true;
#endif

// Size classes of 16 * c + 8 bytes: what malloc hands out for a request of that size (its
// chunks are multiples of 16 with 8 bytes of header), so a task takes no more memory than
// before (BM_Queue1M counts it).
constexpr int kClasses = static_cast<int>((kMaxBytes + 7) / 16) + 1;
// Blocks a thread hands to or takes from the depot at once, and the most a thread keeps.
constexpr uint32_t kBatch = 64;
constexpr uint32_t kThreadMax = 2 * kBatch;
// Batches the depot keeps per size class (at most 16 * 64 * 392 B, about 400 KiB, for the largest).
constexpr int kDepotBatches = 16;

struct Block {
  Block *next;
};

int class_of(size_t bytes) { return static_cast<int>((bytes + 7) / 16); }
size_t class_bytes(int c) { return static_cast<size_t>(c) * 16 + 8; }

void free_list(Block *b) {
  while (b != nullptr) {
    Block *next = b->next;
    ::operator delete(b);
    b = next;
  }
}

// Full batches of kBatch blocks, linked through their first block's `next` chain.
class Depot {
 public:
  void put(int c, Block *batch) {
    {
      std::lock_guard lock(mu_);
      if (size_[c] < kDepotBatches) {
        batches_[c][size_[c]++] = batch;
        return;
      }
    }
    free_list(batch);
  }
  Block *take(int c) {
    std::lock_guard lock(mu_);
    return size_[c] > 0 ? batches_[c][--size_[c]] : nullptr;
  }

 private:
  std::mutex mu_;
  Block *batches_[kClasses][kDepotBatches] = {};
  int size_[kClasses] = {};
};

Depot &depot() {
  // Never destroyed: threads give their blocks back at exit, which may come after static
  // teardown.
  static Depot *d = new Depot();
  return *d;
}

// Trivially destructible, so that it stays usable while the thread's other thread_local
// objects are destroyed (they may free tasks); `closed` then sends blocks to malloc.
struct Cache {
  Block *head[kClasses];
  uint32_t count[kClasses];
  bool registered;
  bool closed;
};
constinit thread_local Cache cache{};
// The same cache reached through one pointer in the static TLS block (initial-exec: an offset
// from the thread pointer, as core/thread_state.h does): the cache itself, a thread_local of a
// shared library, costs a __tls_get_addr call per access, and every task takes and gives back.
__thread Cache *thread_cache __attribute__((tls_model("initial-exec"))) = nullptr;

Cache &this_cache() {
  Cache *c = thread_cache;
  if (c == nullptr) c = thread_cache = &cache;
  return *c;
}

Block *new_batch(int c) {
  Block *batch = nullptr;
  for (uint32_t i = 0; i < kBatch; ++i) {
    auto *b = static_cast<Block *>(::operator new(class_bytes(c)));
    b->next = batch;
    batch = b;
  }
  return batch;
}

// Takes the first kBatch blocks of the list off it.
Block *split_batch(Block *&list, uint32_t &count) {
  Block *batch = list, *last = list;
  for (uint32_t i = 1; i < kBatch; ++i) last = last->next;
  list = last->next;
  last->next = nullptr;
  count -= kBatch;
  return batch;
}

void close_cache() {
  cache.closed = true;
  for (int c = 0; c < kClasses; ++c) {
    while (cache.count[c] >= kBatch) depot().put(c, split_batch(cache.head[c], cache.count[c]));
    free_list(cache.head[c]);
    cache.head[c] = nullptr;
    cache.count[c] = 0;
  }
}

struct CloseAtExit {
  ~CloseAtExit() { close_cache(); }
};

void register_cache() {
  thread_local CloseAtExit closer;
  (void)closer;
  cache.registered = true;
}

}  // namespace

void *allocate(size_t bytes) {
  if (!kRecycle || bytes > kMaxBytes || bytes == 0) return ::operator new(bytes);
  const int c = class_of(bytes);
  Cache &tc = this_cache();
  if (tc.head[c] == nullptr) {
    if (tc.closed) return ::operator new(class_bytes(c));
    if (!tc.registered) register_cache();
    tc.head[c] = depot().take(c);
    if (tc.head[c] == nullptr) tc.head[c] = new_batch(c);  // one look at the depot per batch
    tc.count[c] = kBatch;
  }
  Block *b = tc.head[c];
  tc.head[c] = b->next;
  --tc.count[c];
  return b;
}

void release(void *p, size_t bytes) noexcept {
  if (p == nullptr) return;
  Cache &tc = this_cache();
  if (!kRecycle || bytes > kMaxBytes || bytes == 0 || tc.closed) {
    ::operator delete(p);
    return;
  }
  if (!tc.registered) register_cache();
  const int c = class_of(bytes);
  auto *b = static_cast<Block *>(p);
  b->next = tc.head[c];
  tc.head[c] = b;
  if (++tc.count[c] > kThreadMax) depot().put(c, split_batch(tc.head[c], tc.count[c]));
}

}  // namespace openacl::task_storage
