#include "core/memory.h"

#include <iterator>
#include <mutex>
#include <sstream>

#include "core/status.h"
#include "core/thread_state.h"

namespace openacl {

void MemoryMap::add(const Allocation &a) {
  std::unique_lock lock(mu_);
  by_base_[a.base] = a;
  changed();
}

bool MemoryMap::add_if_free(const Allocation &a) {
  std::unique_lock lock(mu_);
  auto next = by_base_.lower_bound(a.base);
  if (next != by_base_.end() && next->first < a.base + a.size) return false;
  if (next != by_base_.begin()) {
    const Allocation &prev = std::prev(next)->second;
    if (prev.base + prev.size > a.base) return false;
  }
  by_base_[a.base] = a;
  changed();
  return true;
}

void MemoryMap::mark_dvpp(const void *base) {
  std::unique_lock lock(mu_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return;
  it->second.dvpp = true;
  changed();
}

std::optional<Allocation> MemoryMap::remove(const void *p) {
  std::unique_lock lock(mu_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(p));
  if (it == by_base_.end()) return std::nullopt;
  Allocation a = it->second;
  by_base_.erase(it);
  changed();
  return a;
}

// Programs touch the same few buffers again and again (a copy: its source and its destination):
// a small per-thread cache of recent answers, valid while the map is unchanged, skips the lock
// and the tree walk. Misses are cached by exact address (a pageable host buffer is looked up at
// every copy too).
MemoryMap::ThreadCache &MemoryMap::thread_cache(uint64_t gen) const {
  ThreadCache &cache = this_thread().memory_cache;
  if (cache.map != this || cache.generation != gen) {
    cache.map = this;
    cache.generation = gen;
    cache.size = cache.next = cache.miss_size = cache.miss_next = 0;
  }
  return cache;
}

bool MemoryMap::find_through(ThreadCache &cache, uint64_t gen, uintptr_t addr,
                             Allocation &out) const {
  for (unsigned i = 0; i < cache.size; ++i) {
    const Allocation &a = cache.entries[i];
    if (addr - a.base < a.size) {
      out = a;
      return true;
    }
  }
  for (unsigned i = 0; i < cache.miss_size; ++i)
    if (cache.misses[i] == addr) return false;
  std::optional<Allocation> found;
  uint64_t seen;
  {
    std::shared_lock lock(mu_);
    seen = generation_.load(std::memory_order_acquire);
    found = find_locked(addr);
  }
  if (seen == gen && found) {
    cache.entries[cache.next] = *found;
    cache.next = (cache.next + 1) % 4;
    if (cache.size < 4) ++cache.size;
  } else if (seen == gen) {
    cache.misses[cache.miss_next] = addr;
    cache.miss_next = (cache.miss_next + 1) % 4;
    if (cache.miss_size < 4) ++cache.miss_size;
  }
  if (found) out = *found;
  return found.has_value();
}

std::optional<Allocation> MemoryMap::find(const void *p) const {
  Allocation a;
  if (!find(p, a)) return std::nullopt;
  return a;
}

bool MemoryMap::find(const void *p, Allocation &out) const {
  const uint64_t gen = generation_.load(std::memory_order_acquire);
  return find_through(thread_cache(gen), gen, reinterpret_cast<uintptr_t>(p), out);
}

std::optional<Allocation> MemoryMap::find_locked(uintptr_t addr) const {
  auto it = by_base_.upper_bound(addr);
  if (it == by_base_.begin()) return std::nullopt;
  --it;
  const Allocation &a = it->second;
  if (addr >= a.base && addr < a.base + a.size) return a;
  return std::nullopt;
}

std::optional<Allocation> MemoryMap::find_range(const void *p, size_t n) const {
  auto a = find(p);
  if (a) extend_mapped(*a, reinterpret_cast<uintptr_t>(p), n);
  return a;
}

void MemoryMap::find_ranges(const void *p, size_t n, Allocation &a, const void *q, size_t m,
                            Allocation &b) const {
  const uint64_t gen = generation_.load(std::memory_order_acquire);
  ThreadCache &cache = thread_cache(gen);
  const auto pa = reinterpret_cast<uintptr_t>(p), qa = reinterpret_cast<uintptr_t>(q);
  if (find_through(cache, gen, pa, a)) extend_mapped(a, pa, n);
  else a = Allocation{};
  if (find_through(cache, gen, qa, b)) extend_mapped(b, qa, m);
  else b = Allocation{};
}

void MemoryMap::extend_mapped(Allocation &a, uintptr_t addr, size_t n) const {
  if (!a.mapped || n <= a.size - (addr - a.base)) return;
  std::shared_lock lock(mu_);
  for (auto it = by_base_.upper_bound(a.base); it != by_base_.end() && n > a.size - (addr - a.base);
       ++it) {
    const Allocation &next = it->second;
    if (!next.mapped || next.base != a.base + a.size || next.kind != a.kind) break;
    a.size += next.size;
  }
}

void MemoryMap::check_device_range(const void *p, size_t n, const char *what) const {
  // The common case, answered from the thread's recent allocations without copying one: an
  // operator call checks each of its tensors (check_device_range_slow decides all other cases).
  const uint64_t gen = generation_.load(std::memory_order_acquire);
  const ThreadCache &cache = thread_cache(gen);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  for (unsigned i = 0; i < cache.size; ++i) {
    const Allocation &a = cache.entries[i];
    if (addr - a.base < a.size)
      if (a.kind == MemoryKind::device && n <= a.size - (addr - a.base)) return;
  }
  check_device_range_slow(p, n, what);
}

void MemoryMap::check_device_range_slow(const void *p, size_t n, const char *what) const {
  auto a = find_range(p, n);
  auto addr = reinterpret_cast<uintptr_t>(p);
  if (a && a->kind == MemoryKind::device && n <= a->size - (addr - a->base)) return;
  std::ostringstream msg;
  if (a && a->kind != MemoryKind::device) {
    msg << what << " (" << p << ") is page-locked host memory ("
        << (a->kind == MemoryKind::host_pinned ? "aclrtMallocHost" : "aclrtHostRegister")
        << "), not device memory from aclrtMalloc";
  } else if (!a) {
    msg << what << " (" << p << ") is not device memory from aclrtMalloc";
    // Most often an offset computed past the end of a real buffer: name the one just below.
    std::shared_lock lock(mu_);
    auto it = by_base_.upper_bound(addr);
    if (it != by_base_.begin() && (--it)->second.kind == MemoryKind::device)
      msg << "; the nearest device allocation below it (" << it->second.size << " bytes at "
          << reinterpret_cast<void *>(it->second.base) << ") ends "
          << addr - (it->second.base + it->second.size) << " bytes before it";
  } else {
    msg << what << ": " << n << " bytes at " << p << " run past the end of its allocation ("
        << a->size << " bytes at " << reinterpret_cast<void *>(a->base) << ")";
  }
  fail(Errc::invalid_argument, msg.str());
}

std::vector<Allocation> MemoryMap::take_all() {
  std::unique_lock lock(mu_);
  std::vector<Allocation> all;
  for (auto &[b, a] : by_base_) all.push_back(a);
  by_base_.clear();
  changed();
  return all;
}

}  // namespace openacl
