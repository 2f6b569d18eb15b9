// Calls in flight: every C entry point holds a CallScope for its length. aclFinalize uses it
// to close the runtime to new calls and wait for those already inside before it releases any
// object; freed memory uses it as a grace period (the calls that may have checked the pointer
// before the free must have enqueued their tasks before the runtime looks at the streams).
//
// Thread safety: a thread's own counters are written only by that thread; the queries below
// read every registered thread's counters and may run on any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/asymmetric_fence.h"
#include "core/thread_state.h"

namespace openacl {

// RAII: the calling thread is inside an API call. Nests (a callback that calls the API from
// within aclrtProcessReport is one call). Inline: every C entry point makes one. The clock is
// odd while the thread is inside a call and not blocked quiescently; the depth store is the hot
// side of an asymmetric fence (call_gate.cpp).
class CallScope {
 public:
  CallScope() : ts_(this_thread()) {
    const uint32_t depth = ts_.call_depth.load(std::memory_order_relaxed);
    hot_store(ts_.call_depth, depth + 1);
    if (depth == 0)
      ts_.call_clock.store(ts_.call_clock.load(std::memory_order_relaxed) + 1,
                           std::memory_order_release);
  }
  ~CallScope() {
    const uint32_t depth = ts_.call_depth.load(std::memory_order_relaxed);
    if (depth == 1)
      ts_.call_clock.store(ts_.call_clock.load(std::memory_order_relaxed) + 1,
                           std::memory_order_release);
    ts_.call_depth.store(depth - 1, std::memory_order_release);
  }
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

 private:
  ThreadState &ts_;
};

// RAII, inside a call: the thread blocks without holding anything it looked up and has not
// enqueued yet (aclrtProcessReport waiting for a report, a synchronize waiting for tasks already
// queued), so a grace period need not wait for it to return.
class QuiescentWait {
 public:
  QuiescentWait();
  ~QuiescentWait();
  QuiescentWait(const QuiescentWait &) = delete;
  QuiescentWait &operator=(const QuiescentWait &) = delete;

 private:
  ThreadState &ts_;
  bool active_;
};

// RAII, inside a call: the thread waits for another thread's aclInit or aclFinalize to end, so
// that finalize must not wait for it in turn.
class OutsideCall {
 public:
  OutsideCall();
  ~OutsideCall();
  OutsideCall(const OutsideCall &) = delete;
  OutsideCall &operator=(const OutsideCall &) = delete;

 private:
  ThreadState &ts_;
  uint32_t depth_;
  QuiescentWait quiescent_;
};

// The threads that were inside a call when it was taken (the calling thread excluded).
class GracePeriod {
 public:
  static GracePeriod begin();
  // Every one of those threads has left that call (or blocks quiescently) since.
  bool passed() const;

 private:
  struct Entry {
    uint64_t thread_serial;
    uint64_t clock;
  };
  std::vector<Entry> waiting_;
};

// How many threads other than the caller are inside an API call now.
size_t calls_in_flight_elsewhere();

// ThreadState registration (thread_state.cpp).
void register_thread(ThreadState &ts);
void unregister_thread(ThreadState &ts);

}  // namespace openacl
