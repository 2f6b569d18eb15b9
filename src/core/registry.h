// Handle validation: every object the C API hands out is registered here under its address.
// A made-up or destroyed handle is simply not found, so it is never dereferenced.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/handle.h"
#include "core/thread_state.h"

namespace openacl {

// The serial number of a counter-drawn handle (0 for the first one): a small integer that
// names the object for as long as the process lives (stream and event ids).
inline uint32_t handle_serial(const void *handle) {
  return static_cast<uint32_t>((reinterpret_cast<uintptr_t>(handle) - kFirstHandle) / kHandleStep);
}

template <class T>
class Registry {
 public:
  Registry() = default;
  // A registry that find_cached / find_borrowed are used on: its per-thread cache slot.
  explicit Registry(HandleCacheSlot slot) : slot_(slot) {}

  // Registers obj under its handle and returns the handle: for Handled objects the counter
  // value drawn at construction; otherwise (types the C API exposes as typed pointers, such as
  // aclmdlDataset *) the object's address.
  void *add(std::shared_ptr<T> obj) {
    void *handle = obj.get();
    if constexpr (std::is_base_of_v<Handled, T>) handle = obj->handle();
    return add(handle, std::move(obj));
  }
  // Registers obj under a handle the caller chose (a model id, the program's own memory),
  // replacing what that handle named before.
  void *add(const void *handle, std::shared_ptr<T> obj) {
    std::unique_lock lock(mu_);
    std::swap(map_[handle], obj);  // the replaced object leaves with obj, after the lock
    generation_.fetch_add(1, std::memory_order_release);
    return const_cast<void *>(handle);
  }
  std::shared_ptr<T> find(const void *handle) const {
    std::shared_lock lock(mu_);
    auto it = map_.find(handle);
    return it == map_.end() ? nullptr : it->second;
  }
  // find() through a per-thread cache of the last hit, valid while the registry is unchanged:
  // submissions look the same few handles (streams, kernels) up over and over, and the cache
  // skips the lock and the hash lookup. The cache keeps its object alive until the thread's
  // next lookup in this registry or its exit.
  std::shared_ptr<T> find_cached(const void *handle) const {
    return std::static_pointer_cast<T>(cached(handle));
  }
  // As find_cached, without a reference of the caller's own (a submission's hot path: a count
  // changed per call is a locked instruction per call): the object, or nullptr, stays valid
  // until the calling thread's next lookup in this registry.
  T *find_borrowed(const void *handle) const { return static_cast<T *>(cached(handle).get()); }
  // Unregisters the handle and returns the object (nullptr when unknown).
  std::shared_ptr<T> remove(const void *handle) {
    std::unique_lock lock(mu_);
    auto it = map_.find(handle);
    if (it == map_.end()) return nullptr;
    auto obj = std::move(it->second);
    map_.erase(it);
    generation_.fetch_add(1, std::memory_order_release);
    return obj;
  }
  // Unregisters every object for which pred holds, at once (no lookup sees a partial state).
  template <class Pred>
  void remove_if(Pred pred) {
    std::vector<std::shared_ptr<T>> removed;  // released after the lock
    std::unique_lock lock(mu_);
    std::erase_if(map_, [&](auto &entry) {
      if (!pred(*entry.second)) return false;
      removed.push_back(std::move(entry.second));
      return true;
    });
    generation_.fetch_add(1, std::memory_order_release);
  }
  std::vector<std::shared_ptr<T>> take_all() {
    std::unique_lock lock(mu_);
    std::vector<std::shared_ptr<T>> all;
    all.reserve(map_.size());
    for (auto &[h, obj] : map_) all.push_back(std::move(obj));
    map_.clear();
    generation_.fetch_add(1, std::memory_order_release);
    return all;
  }
  // Changes whenever a handle is added or removed: lets callers cache a lookup.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  size_t size() const {
    std::shared_lock lock(mu_);
    return map_.size();
  }
  template <class Pred>
  size_t count_if(Pred pred) const {
    std::shared_lock lock(mu_);
    size_t n = 0;
    for (const auto &[h, obj] : map_) n += pred(*obj) ? 1 : 0;
    return n;
  }

 private:
  // The cache lives in the ThreadState (one initial-exec TLS read) rather than in a
  // thread_local of its own, whose every access from the shared library is a __tls_get_addr
  // call.
  const std::shared_ptr<void> &cached(const void *handle) const {
    static const std::shared_ptr<void> none;
    assert(slot_ != HandleCacheSlot::count && "find_cached on a registry without a cache slot");
    HandleCache &c = this_thread().handle_caches[static_cast<size_t>(slot_)];
    const uint64_t gen = generation();
    if (c.owner == this && c.handle == handle && c.generation == gen) return c.obj;
    auto obj = find(handle);
    if (!obj) return none;
    c.owner = this;
    c.handle = handle;
    c.generation = gen;
    c.obj = std::move(obj);
    return c.obj;
  }

  mutable std::shared_mutex mu_;
  std::atomic<uint64_t> generation_{0};
  std::unordered_map<const void *, std::shared_ptr<T>> map_;
  HandleCacheSlot slot_ = HandleCacheSlot::count;
};

}  // namespace openacl
