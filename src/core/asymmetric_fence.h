// Asymmetric fences: a store-then-load handshake between a hot side that runs on every call
// (entering an API call, the owner pushing onto its stream) and a cold side that runs rarely
// (aclFinalize closing the runtime, a second thread joining a stream). Each side stores, then
// loads what the other stores, and at least one must see the other's store: that needs a full
// fence on both sides, and a locked instruction per API call was the largest fixed cost of a
// small copy. With membarrier(2), the cold side makes every thread of the process run a full
// fence, so the hot side only keeps the compiler from reordering. Without it (an old kernel, a
// sandbox that forbids the call, ThreadSanitizer, which does not model it) both sides use
// sequentially consistent stores and loads, as before.
#pragma once

#include <atomic>

namespace openacl {

namespace detail {
// Set once, while the library loads, before any thread can call in.
extern const bool membarrier_ready;
}  // namespace detail

// The hot side's store, ordered before its next sequentially consistent load.
template <class T>
inline void hot_store(std::atomic<T> &a, T value) {
  if (detail::membarrier_ready) {
    a.store(value, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    a.store(value, std::memory_order_seq_cst);
  }
}

// The cold side, between its sequentially consistent store and load. Costs a system call (a
// few microseconds) when membarrier is used.
void heavy_fence();

}  // namespace openacl
