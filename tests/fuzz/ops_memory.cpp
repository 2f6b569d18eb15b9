// The memory family: allocation and free, copies, memsets.
#include <algorithm>
#include <cstring>

#include "worker.h"

namespace fuzz {

void Worker::op_alloc(uint64_t r) {
  switch (r % 8) {
    case 0:
    case 1:
    case 2: {  // aclrtMalloc: own (private) or shared (the pools)
      size_t size = rng_.chance(0.05) ? (rng_.chance(0.5) ? kHuge : 0) : 1 + rng_.below(kMaxAlloc);
      auto policy = static_cast<aclrtMemMallocPolicy>(rng_.below(8));
      Hold h(w_.life);
      // Own buffers are private: with ACL_MEMCPY_DEFAULT the runtime takes a pointer it does
      // not know for pageable host memory, so an own buffer that another thread freed would
      // become the fuzzer's own use-after-free. Shared buffers (the pool) are the other half.
      bool own = rng_.chance(0.5) && h.ok();
      std::unique_lock lock(w_.owned.mu, std::defer_lock);
      if (own) lock.lock();
      void *p = nullptr;
      aclError e = call("aclrtMalloc", [&] {
        return aclrtMalloc(rng_.chance(0.02) ? nullptr : &p, size, policy);
      });
      if (e != ACL_SUCCESS || p == nullptr) break;
      w_.stats.live_mem.fetch_add(1);
      if (!own) {
        add(w_.dev_mem, reinterpret_cast<uintptr_t>(p), size);
        break;
      }
      w_.owned.add(reinterpret_cast<uintptr_t>(p), size, this, h.epoch());
      own_dev_.push_back({reinterpret_cast<uintptr_t>(p), size, h.epoch()});
      lock.unlock();
      if (own_dev_.size() > 8) {  // keep a few: free the oldest
        Own old = own_dev_.front();
        own_dev_.erase(own_dev_.begin());
        drop_own(old, false, true, h);
      }
      break;
    }
    case 3: {  // free: an own buffer (alive) or anything from the pool
      Hold h(w_.life);
      if (!own_dev_.empty() && rng_.chance(0.3)) {
        Own o = own_dev_.back();
        own_dev_.pop_back();
        drop_own(o, false, true, h);
        break;
      }
      size_t avail;
      void *p = race_safe_ ? reinterpret_cast<void *>(garbage()) : dev_ptr(&avail);
      free_other(p, false, rng_.chance(0.2));
      break;
    }
    case 4: {  // pinned host memory: own (private, used as a copy's host side) or shared
      size_t size = rng_.chance(0.05) ? (rng_.chance(0.5) ? kHuge : 0) : 1 + rng_.below(kMaxAlloc);
      Hold h(w_.life);
      bool own = rng_.chance(0.5) && h.ok();
      std::unique_lock lock(w_.owned.mu, std::defer_lock);
      if (own) lock.lock();
      void *p = nullptr;
      if (call("aclrtMallocHost", [&] { return aclrtMallocHost(&p, size); }) != ACL_SUCCESS ||
          p == nullptr)
        break;
      if (!own) {
        add(w_.host_mem, reinterpret_cast<uintptr_t>(p), size);
        break;
      }
      w_.owned.add(reinterpret_cast<uintptr_t>(p), size, this, h.epoch());
      own_pinned_.push_back({reinterpret_cast<uintptr_t>(p), size, h.epoch()});
      lock.unlock();
      if (own_pinned_.size() > 4) {
        Own old = own_pinned_.front();
        own_pinned_.erase(own_pinned_.begin());
        drop_own(old, true, true, h);
      }
      break;
    }
    case 5: {
      Entry e;
      void *p = w_.host_mem.pick(rng_, &e) && rng_.chance(0.8)
                    ? reinterpret_cast<void *>(e.value)
                    : reinterpret_cast<void *>(garbage());
      free_other(p, true, rng_.chance(0.2));
      break;
    }
    case 6: {
      size_t free_b = 0, total = 0;
      auto attr = static_cast<aclrtMemAttr>(rng_.below(8));
      bool null_out = rng_.chance(0.05);
      call("aclrtGetMemInfo",
           [&] { return aclrtGetMemInfo(attr, null_out ? nullptr : &free_b, &total); });
      break;
    }
    default:
      op_set(r / 8);
      break;
  }
}

// Copies: the host side is this thread's pageable buffer or one of its own pinned buffers
// (alive, under Hold); the device side is anything (wild) or own/garbage (race-safe).
void Worker::op_copy(uint64_t r) {
  Hold h(w_.life);
  const bool async = r % 2 == 0;
  // The host side.
  void *host = host_.data();
  size_t host_avail = host_.size();
  if (!own_pinned_.empty() && rng_.chance(0.4)) {
    Own &o = own_pinned_[rng_.below(own_pinned_.size())];
    if (h.alive(o)) {
      host = reinterpret_cast<void *>(o.p);
      host_avail = o.size;
    }
  }
  // The device side(s).
  size_t dev_avail = 0, dev2_avail = 0;
  Own *own = nullptr, *own2 = nullptr;
  void *dev =
      (race_safe_ || rng_.chance(0.3)) && rng_.chance(0.7) ? own_dev(h, &dev_avail, &own) : nullptr;
  if (own == nullptr) dev = dev_ptr(&dev_avail);
  void *dev2 = race_safe_ && rng_.chance(0.7) ? own_dev(h, &dev2_avail, &own2) : nullptr;
  if (own2 == nullptr) dev2 = dev_ptr(&dev2_avail);

  int kind = static_cast<int>(rng_.below(5));  // H2H, H2D, D2H, D2D, DEFAULT
  void *dst = nullptr;
  const void *src = nullptr;
  size_t limit =
      0;  // the most bytes a success may move without the fuzzer overrunning a host buffer
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      dst = host;
      src = host_.data();
      limit = std::min(host_avail, host_.size());
      if (dst == src) dst = host_.data() + host_.size() / 2, limit = host_.size() / 2;
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      dst = dev, src = host, limit = std::min(host_avail, dev_avail);
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      dst = host, src = dev, limit = std::min(host_avail, dev_avail);
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      dst = dev, src = dev2, limit = std::min(dev_avail, dev2_avail);
      break;
    default:  // DEFAULT infers the direction from the pointers: only real ones
      dst = own ? dev : host;
      src = host_.data();
      limit = std::min(own ? dev_avail : host_avail, host_.size());
      if (dst == src) dst = host_.data() + host_.size() / 2, limit = host_.size() / 2;
      break;
  }
  // A size that is either within every buffer or far beyond any allocation.
  size_t count =
      rng_.chance(0.1) ? (rng_.chance(0.5) ? kHuge : 0) : (limit == 0 ? 0 : rng_.below(limit + 1));
  size_t dest_max =
      rng_.chance(0.1) ? count / 2 : (rng_.chance(0.5) ? count : count + rng_.below(64));
  // A host destination's size is known only from destMax: it must be true (a huge count then
  // fails the destMax check instead of overrunning the buffer).
  bool host_dst = kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
                  (kind == ACL_MEMCPY_DEFAULT && own == nullptr);
  if (host_dst) dest_max = std::min(dest_max, limit);
  auto k = static_cast<aclrtMemcpyKind>(kind);
  if (!race_safe_ && rng_.chance(0.04)) {
    wrong_kind(async);
    return;
  }
  void *s = stream();
  aclError e;
  if (async) {
    e = call("aclrtMemcpyAsync", [&] { return aclrtMemcpyAsync(dst, dest_max, src, count, k, s); });
    // Race-safe: wait for the copy before this thread's memory is touched again.
    if (race_safe_ && e == ACL_SUCCESS) {
      if (call("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(s); }) !=
          ACL_SUCCESS) {
        uintptr_t p1 = own ? own->p : 0, p2 = own2 ? own2->p : 0;  // may still be written
        forget(p1, own_dev_);
        forget(p2, own_dev_);
        if (host != host_.data()) forget(reinterpret_cast<uintptr_t>(host), own_pinned_);
      }
    }
  } else {
    e = call("aclrtMemcpy", [&] { return aclrtMemcpy(dst, dest_max, src, count, k); });
  }
}

// A copy whose kind contradicts its pointers (R13): the side claimed to be device memory is
// this thread's pageable buffer, so the runtime must refuse it, and nothing the runtime might
// touch is outside the fuzzer's buffer.
void Worker::wrong_kind(bool async) {
  unsigned char *a = host_.data(), *b = host_.data() + host_.size() / 2;
  size_t count = 1 + rng_.below(host_.size() / 2);
  aclrtMemcpyKind k = static_cast<aclrtMemcpyKind>(1 + rng_.below(3));  // H2D, D2H, D2D
  void *s = stream();
  aclError e =
      async ? call("aclrtMemcpyAsync", [&] { return aclrtMemcpyAsync(a, count, b, count, k, s); })
            : call("aclrtMemcpy", [&] { return aclrtMemcpy(a, count, b, count, k); });
  if (e == ACL_SUCCESS)
    violation(p_.name, async ? "aclrtMemcpyAsync" : "aclrtMemcpy",
              "accepted kind " + std::to_string(k) +
                  " between two pageable host buffers (R13: INVALID_PARAM)");
}

void Worker::op_set(uint64_t r) {
  Hold h(w_.life);
  size_t avail = 0;
  Own *own = nullptr;
  void *dev =
      (race_safe_ || rng_.chance(0.3)) && rng_.chance(0.7) ? own_dev(h, &avail, &own) : nullptr;
  if (own == nullptr) dev = dev_ptr(&avail);
  size_t count = size_near(avail);
  size_t max = rng_.chance(0.1) ? count / 2 : count;
  int32_t value = static_cast<int32_t>(rng_.below(256));
  if (r % 2 == 0) {
    call("aclrtMemset", [&] { return aclrtMemset(dev, max, value, count); });
    return;
  }
  void *s = stream();
  aclError e =
      call("aclrtMemsetAsync", [&] { return aclrtMemsetAsync(dev, max, value, count, s); });
  if (race_safe_ && e == ACL_SUCCESS &&
      call("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(s); }) != ACL_SUCCESS &&
      own)
    forget(own->p, own_dev_);
}

}  // namespace fuzz
