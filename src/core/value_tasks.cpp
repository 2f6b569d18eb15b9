#include "core/value_tasks.h"

#include <algorithm>
#include <chrono>

#include "core/clock.h"
#include "core/signal.h"
#include "core/timers.h"

namespace openacl {
namespace {

constexpr auto kFirstPoll = std::chrono::microseconds(10);
constexpr auto kLongestPoll = std::chrono::microseconds(1000);

bool holds(const uint64_t *addr, uint64_t value, ValueCondition cond) {
  const uint64_t now = __atomic_load_n(addr, __ATOMIC_ACQUIRE);
  switch (cond) {
    case ValueCondition::geq:
      return static_cast<int64_t>(now - value) >= 0;
    case ValueCondition::eq:
      return now == value;
    case ValueCondition::and_nonzero:
      return (now & value) != 0;
    case ValueCondition::nor_nonzero:
      return ~(now | value) != 0;
  }
  return false;
}

// Polls until the condition holds or nobody waits on the gate any more (its task was dropped).
void poll(std::weak_ptr<Signal> gate, const uint64_t *addr, uint64_t value, ValueCondition cond,
          std::chrono::microseconds delay) {
  timers().after(delay, [gate = std::move(gate), addr, value, cond, delay] {
    auto g = gate.lock();
    if (!g || g->done()) return;
    if (holds(addr, value, cond)) {
      g->complete(now_ns());
      return;
    }
    poll(g, addr, value, cond, std::min(delay * 2, kLongestPoll));
  });
}

}  // namespace

// The address is a synchronization variable, raced on by design: it is no data range of the
// tasks (the race checker orders the streams through it instead).
ValueWriteTask::ValueWriteTask(uint64_t *addr, uint64_t value)
    : Task(TaskKind::value_write), addr_(addr), value_(value) {}

void ValueWriteTask::run(ExecContext &) { __atomic_store_n(addr_, value_, __ATOMIC_RELEASE); }

ValueWaitTask::ValueWaitTask(const uint64_t *addr, uint64_t value, ValueCondition cond)
    : Task(TaskKind::value_wait), addr_(addr), value_(value), cond_(cond) {}

Signal *ValueWaitTask::wait_before() {
  if (!checked_) {
    checked_ = true;
    if (!holds(addr_, value_, cond_)) {
      gate_ = std::make_shared<Signal>();
      poll(gate_, addr_, value_, cond_, kFirstPoll);
    }
  }
  return gate_.get();
}

}  // namespace openacl
