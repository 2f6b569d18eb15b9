// The memory map: every device allocation and every page-locked host allocation the runtime
// handed out, so that copies, frees and kernels can be checked against them (R13, R14).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace openacl {

class Device;

// host_registered: the caller's own host memory made device-accessible (aclrtHostRegister);
// the runtime never frees it.
enum class MemoryKind : uint8_t { device, host_pinned, host_registered };

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  MemoryKind kind = MemoryKind::device;
  Device *device = nullptr;  // owner (for host_pinned: the device that allocated it, or null)
  bool mapped = false;       // device memory mapped with aclrtMapMem (src/core/virtual_memory.h)
  bool dvpp = false;         // device memory from acldvppMalloc (aclrtCheckMemType tells it apart)
};

class MemoryMap {
 public:
  // A thread's recent answers of find() (kept in its ThreadState, core/thread_state.h).
  struct ThreadCache {
    const MemoryMap *map = nullptr;
    uint64_t generation = 0;
    Allocation entries[4];
    uintptr_t misses[4] = {};
    unsigned size = 0, next = 0, miss_size = 0, miss_next = 0;
  };

  void add(const Allocation &a);
  // Adds a unless it overlaps an entry; returns whether it did.
  bool add_if_free(const Allocation &a);
  // Marks the allocation that starts exactly at base as DVPP memory.
  void mark_dvpp(const void *base);
  // Removes the allocation that starts exactly at p.
  std::optional<Allocation> remove(const void *p);
  // The allocation containing p, if any.
  std::optional<Allocation> find(const void *p) const;
  // The same into out, without an optional to copy (every pointer-sized word of a kernel's
  // arguments is looked up); false when none.
  bool find(const void *p, Allocation &out) const;
  // As find, but when [p, p+n) runs past a mapped allocation, the mappings that follow it
  // without a gap (one reservation mapped piece by piece, as memory pools grow) count as one:
  // the result spans them, up to the first gap or the end of the range.
  std::optional<Allocation> find_range(const void *p, size_t n) const;
  // find_range of [p, p+n) into a and of [q, q+m) into b (a copy's two sides) with one look
  // at the thread's cache; a side outside every allocation gets an empty Allocation (size 0).
  void find_ranges(const void *p, size_t n, Allocation &a, const void *q, size_t m,
                   Allocation &b) const;
  // Throws Errc::invalid_argument naming `what` unless [p, p+n) lies inside one device
  // allocation (or adjacent mappings, see find_range).
  void check_device_range(const void *p, size_t n, const char *what) const;
  std::vector<Allocation> take_all();

 private:
  [[gnu::cold]] void check_device_range_slow(const void *p, size_t n, const char *what) const;
  std::optional<Allocation> find_locked(uintptr_t addr) const;
  // The calling thread's cache, emptied unless it holds answers of this map at generation gen.
  ThreadCache &thread_cache(uint64_t gen) const;
  // The allocation holding addr into out, through the cache; false when none.
  bool find_through(ThreadCache &cache, uint64_t gen, uintptr_t addr, Allocation &out) const;
  // See find_range: a mapped allocation grows by the mappings that follow it without a gap.
  void extend_mapped(Allocation &a, uintptr_t addr, size_t n) const;
  void changed() { generation_.fetch_add(1, std::memory_order_release); }

  mutable std::shared_mutex mu_;
  std::atomic<uint64_t> generation_{0};
  std::map<uintptr_t, Allocation> by_base_;
};

}  // namespace openacl
