#include "ops/op_cache.h"

#include "core/thread_state.h"

namespace openacl::ops {

OpCache &OpCache::of_this_thread() {
  std::shared_ptr<void> &slot = this_thread().op_cache;
  if (!slot) slot = std::make_shared<OpCache>();
  return *static_cast<OpCache *>(slot.get());
}

void OpCache::add(CachedOp entry) {
  if (entries_.size() < kEntries) entries_.push_back(std::move(entry));
  else entries_[next_++ % kEntries] = std::move(entry);
}

}  // namespace openacl::ops
