#include "core/notify.h"

#include <string>
#include <vector>

#include "core/clock.h"
#include "core/signal.h"

namespace openacl {

uint32_t Notify::value() const {
  std::lock_guard lock(mu_);
  return value_;
}

bool Notify::holds(Condition cond, uint32_t operand) const {
  switch (cond) {
    case Condition::less:
      return value_ < operand;
    case Condition::equal:
      return value_ == operand;
    case Condition::greater:
      return value_ > operand;
    case Condition::greater_equal:
      return value_ >= operand;
    case Condition::all_bits:
      return (value_ & operand) == operand;
  }
  return false;
}

void Notify::update(Update how, uint32_t operand, std::optional<Error> failure) {
  std::vector<std::shared_ptr<Signal>> released;
  std::optional<Error> carried;
  {
    std::lock_guard lock(mu_);
    switch (how) {
      case Update::set:
        value_ = operand;
        break;
      case Update::add:
        value_ += operand;
        break;
      case Update::bit_or:
        value_ |= operand;
        break;
      case Update::bit_and:
        value_ &= operand;
        break;
    }
    if (failure) failure_ = std::move(failure);
    carried = failure_;
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      if (!holds(it->cond, it->operand)) {
        ++it;
        continue;
      }
      released.push_back(std::move(it->gate));
      if (it->clear) {
        value_ = 0;
        failure_.reset();
      }
      it = waiters_.erase(it);
    }
  }
  // Completing resumes streams: no lock of ours may be held.
  const int64_t now = now_ns();
  for (auto &gate : released) gate->complete(now, carried);
}

void Notify::reset() {
  {
    std::lock_guard lock(mu_);
    failure_.reset();
  }
  update(Update::set, 0);  // releases the waiters for "less than"
}

std::shared_ptr<Signal> Notify::claim(Condition cond, uint32_t operand, bool clear) {
  std::lock_guard lock(mu_);
  if (holds(cond, operand)) {
    std::optional<Error> carried = failure_;
    if (clear) {
      value_ = 0;
      failure_.reset();
    }
    if (!carried) return nullptr;
    auto failed = std::make_shared<Signal>();
    failed->complete(now_ns(), std::move(carried));
    return failed;
  }
  auto gate = std::make_shared<Signal>();
  waiters_.push_back({cond, operand, clear, gate});
  return gate;
}

void Notify::cancel(const Signal *gate) {
  std::lock_guard lock(mu_);
  waiters_.remove_if([&](const Waiter &w) { return w.gate.get() == gate; });
}

NotifyWaitTask::~NotifyWaitTask() {
  if (claim_ && !claim_->done()) notify_->cancel(claim_.get());
}

Signal *NotifyWaitTask::wait_before() {
  if (!claimed_) {
    claimed_ = true;
    claim_ = notify_->claim(cond_, operand_, clear_);
    gate_ = claim_;
    if (claim_ && !claim_->done() && timeout_s_ > 0) {
      // A wait that timed out must not take a later record: its claim leaves the notify
      // before the stream fails (and a synchronize on it returns), not when the task is freed.
      gate_ =
          with_deadline(claim_, int64_t{timeout_s_} * 1000,
                        std::string(api_) + ": the notify was not recorded within " +
                            std::to_string(timeout_s_) + " s; the stream's later tasks do not run",
                        [notify = notify_, claim = std::weak_ptr<Signal>(claim_)] {
                          if (auto c = claim.lock()) notify->cancel(c.get());
                        });
    }
  }
  return gate_.get();
}

}  // namespace openacl
