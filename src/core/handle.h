// Objects that the C API hands out as handles. A handle is an opaque value drawn from a
// process-wide counter, never an address: a destroyed object's handle is never given to a
// new object, so a stale handle is always found dead instead of reaching someone else's
// object (R19).
#pragma once

#include <atomic>
#include <cstdint>

namespace openacl {

// Handles look like pointers (C API types are void *) but are drawn from a high, sparse
// range, so small made-up values such as (void *)0x1234 never match a live object.
inline constexpr uintptr_t kFirstHandle = uintptr_t{0xac1} << 32;
inline constexpr uintptr_t kHandleStep = 0x40;

inline void *next_handle() {
  static std::atomic<uintptr_t> next{kFirstHandle};
  return reinterpret_cast<void *>(next.fetch_add(kHandleStep, std::memory_order_relaxed));
}

// The handle is drawn when the object is made and never changes: threads that register or
// look the object up at the same time all see the same one.
class Handled {
 public:
  void *handle() const { return handle_; }

 private:
  void *const handle_ = next_handle();
};

}  // namespace openacl
