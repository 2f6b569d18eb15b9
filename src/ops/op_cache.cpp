#include "ops/op_cache.h"

#include "core/runtime.h"
#include "core/thread_state.h"

namespace openacl::ops {

OpCache &OpCache::of_this_thread() {
  std::shared_ptr<void> &slot = this_thread().op_cache;
  if (!slot) slot = std::make_shared<OpCache>();
  auto &cache = *static_cast<OpCache *>(slot.get());
  const uint64_t epoch = Runtime::get().epoch();
  if (cache.epoch_ != epoch) {
    cache.entries_.clear();
    cache.next_ = 0;
    cache.epoch_ = epoch;
  }
  return cache;
}

void OpCache::add(CachedOp entry) {
  if (entries_.size() < kEntries) entries_.push_back(std::move(entry));
  else entries_[next_++ % kEntries] = std::move(entry);
}

}  // namespace openacl::ops
