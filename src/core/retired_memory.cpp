#include "core/retired_memory.h"

#include "core/device.h"
#include "core/live_streams.h"
#include "core/stream.h"

namespace openacl {

void RetiredMemory::retire(Device &device, void *p, size_t size, bool host) {
  Block b{&device, p, size, host, GracePeriod::begin(), false, {}};
  {
    std::lock_guard lock(mu_);
    blocks_.push_back(std::move(b));
    count_.store(blocks_.size(), std::memory_order_relaxed);
  }
  collect();
}

bool RetiredMemory::unused(Block &b) const {
  if (!b.calls_passed) {
    if (!b.calls.passed()) return false;
    b.calls_passed = true;
    b.tasks = streams_.pending();
  }
  for (auto &[weak, seq] : b.tasks) {
    auto s = weak.lock();
    if (s && s->completed() < seq) return false;
  }
  return true;
}

void RetiredMemory::collect() {
  if (count_.load(std::memory_order_relaxed) == 0) return;
  // Checked without the lock: dropping the last reference to a stream destroys it, and its
  // unrun tasks may free memory in turn.
  std::vector<Block> mine;
  {
    std::lock_guard lock(mu_);
    mine.swap(blocks_);
  }
  std::vector<Block> done;
  std::erase_if(mine, [&](Block &b) {
    if (!unused(b)) return false;
    done.push_back(std::move(b));
    return true;
  });
  {
    std::lock_guard lock(mu_);
    for (auto &b : mine) blocks_.push_back(std::move(b));
    count_.store(blocks_.size(), std::memory_order_relaxed);
  }
  for (auto &b : done) deallocate(b);
}

void RetiredMemory::release_all() {
  std::vector<Block> all;
  {
    std::lock_guard lock(mu_);
    all.swap(blocks_);
    count_.store(0, std::memory_order_relaxed);
  }
  for (auto &b : all) deallocate(b);
}

void RetiredMemory::deallocate(const Block &b) {
  if (b.host) {
    b.device->backend().deallocate_host(b.p, b.size);
  } else {
    b.device->backend().deallocate(b.p, b.size);
  }
}

}  // namespace openacl
