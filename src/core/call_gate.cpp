#include "core/call_gate.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/asymmetric_fence.h"
#include "core/thread_state.h"

namespace openacl {
namespace {

struct ThreadList {
  std::mutex mu;
  std::vector<ThreadState *> all;
  uint64_t next_serial = 1;
};

ThreadList &threads() {
  // Never destroyed: threads unregister at their exit, which may come after static teardown.
  static ThreadList *list = new ThreadList();
  return *list;
}

}  // namespace

void register_thread(ThreadState &ts) {
  ThreadList &list = threads();
  std::lock_guard lock(list.mu);
  ts.serial = list.next_serial++;
  list.all.push_back(&ts);
}

void unregister_thread(ThreadState &ts) {
  ThreadList &list = threads();
  std::lock_guard lock(list.mu);
  std::erase(list.all, &ts);
}

// The clock is odd while the thread is inside a call and not blocked quiescently. CallScope's
// depth store and the load of Runtime::initialized_ in require_initialized are the hot side of an
// asymmetric fence whose cold side is aclFinalize's store of it (core/asymmetric_fence.h), so
// that either finalize sees the call in flight or the call sees the runtime closed.
QuiescentWait::QuiescentWait()
    : ts_(this_thread()), active_((ts_.call_clock.load(std::memory_order_relaxed) & 1) != 0) {
  if (active_)
    ts_.call_clock.store(ts_.call_clock.load(std::memory_order_relaxed) + 1,
                         std::memory_order_release);
}

QuiescentWait::~QuiescentWait() {
  if (active_)
    ts_.call_clock.store(ts_.call_clock.load(std::memory_order_relaxed) + 1,
                         std::memory_order_release);
}

OutsideCall::OutsideCall()
    : ts_(this_thread()), depth_(ts_.call_depth.load(std::memory_order_relaxed)) {
  ts_.call_depth.store(0, std::memory_order_seq_cst);
}

OutsideCall::~OutsideCall() { ts_.call_depth.store(depth_, std::memory_order_seq_cst); }

GracePeriod GracePeriod::begin() {
  GracePeriod g;
  const ThreadState *self = &this_thread();
  ThreadList &list = threads();
  std::lock_guard lock(list.mu);
  for (ThreadState *ts : list.all) {
    const uint64_t clock = ts->call_clock.load(std::memory_order_acquire);
    if (ts != self && (clock & 1) != 0) g.waiting_.push_back({ts->serial, clock});
  }
  return g;
}

bool GracePeriod::passed() const {
  if (waiting_.empty()) return true;
  ThreadList &list = threads();
  std::lock_guard lock(list.mu);
  for (const Entry &e : waiting_) {
    for (ThreadState *ts : list.all) {
      if (ts->serial == e.thread_serial &&
          ts->call_clock.load(std::memory_order_acquire) == e.clock)
        return false;
    }
  }
  return true;
}

size_t calls_in_flight_elsewhere() {
  const ThreadState *self = &this_thread();
  ThreadList &list = threads();
  std::lock_guard lock(list.mu);
  return static_cast<size_t>(std::count_if(list.all.begin(), list.all.end(), [&](ThreadState *ts) {
    return ts != self && ts->call_depth.load(std::memory_order_seq_cst) != 0;
  }));
}

}  // namespace openacl
