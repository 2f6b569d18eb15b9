// A Notify: a device-side counter that streams update and wait on (aclrtRecordNotify /
// aclrtWaitAndResetNotify, and the counting aclrtCntNotify* family). Unlike an event, a wait
// is not bound to a record made before it: it holds its stream until the counter meets its
// condition, whenever the update comes, and may clear the counter as it passes.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>

#include "core/handle.h"
#include "core/status.h"
#include "core/task.h"

namespace openacl {

class Context;
class Signal;

class Notify : public Handled {
 public:
  enum class Update : uint8_t { set, add, bit_or, bit_and };
  enum class Condition : uint8_t { less, equal, greater, greater_equal, all_bits };

  // Keeps its context object alive, as a stream does (core/stream.h).
  Notify(std::shared_ptr<Context> context, bool counting)
      : context_(std::move(context)), counting_(counting) {}

  Context &context() const { return *context_; }
  bool counting() const { return counting_; }  // aclrtCntNotify rather than aclrtNotify
  uint32_t value() const;

  // Applies an update and releases the waiters it satisfies, in arrival order. A failure
  // (the updating stream had failed, R20) travels to the waiters it releases.
  void update(Update how, uint32_t operand, std::optional<Error> failure = std::nullopt);
  void reset();
  // A waiter's gate: nullptr when the condition holds now (clearing the counter if asked),
  // else a signal that completes once an update satisfies it.
  std::shared_ptr<Signal> claim(Condition cond, uint32_t operand, bool clear);
  // Withdraws a waiter that will not wait any more (its task was dropped or timed out).
  void cancel(const Signal *gate);

 private:
  struct Waiter {
    Condition cond;
    uint32_t operand;
    bool clear;
    std::shared_ptr<Signal> gate;
  };
  bool holds(Condition cond, uint32_t operand) const;

  const std::shared_ptr<Context> context_;
  const bool counting_;
  mutable std::mutex mu_;
  uint32_t value_ = 0;
  std::optional<Error> failure_;  // carried by the value until it is cleared
  std::list<Waiter> waiters_;
};

class NotifyUpdateTask final : public Task {
 public:
  NotifyUpdateTask(std::shared_ptr<Notify> notify, Notify::Update how, uint32_t operand)
      : Task(TaskKind::notify_record), notify_(std::move(notify)), how_(how), operand_(operand) {}
  void run(ExecContext &) override { notify_->update(how_, operand_); }
  void skip(const Error &failure) override { notify_->update(how_, operand_, failure); }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<NotifyUpdateTask>(notify_, how_, operand_);
  }
  SyncEdge sync_edge() const override { return {SyncEdge::Role::records, notify_.get(), true}; }

 private:
  std::shared_ptr<Notify> notify_;
  Notify::Update how_;
  uint32_t operand_;
};

class NotifyResetTask final : public Task {
 public:
  explicit NotifyResetTask(std::shared_ptr<Notify> notify)
      : Task(TaskKind::notify_reset), notify_(std::move(notify)) {}
  void run(ExecContext &) override { notify_->reset(); }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<NotifyResetTask>(notify_);
  }

 private:
  std::shared_ptr<Notify> notify_;
};

class NotifyWaitTask final : public Task {
 public:
  // timeout_s > 0 fails the stream with Errc::wait_timeout when the condition is not met in
  // time; 0 waits without a limit.
  NotifyWaitTask(std::shared_ptr<Notify> notify, Notify::Condition cond, uint32_t operand,
                 bool clear, uint32_t timeout_s, const char *api)
      : Task(TaskKind::notify_wait),
        notify_(std::move(notify)),
        cond_(cond),
        operand_(operand),
        clear_(clear),
        timeout_s_(timeout_s),
        api_(api) {}
  ~NotifyWaitTask() override;
  void run(ExecContext &) override {}
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<NotifyWaitTask>(notify_, cond_, operand_, clear_, timeout_s_, api_);
  }
  // Claimed when the stream reaches the task, not at enqueue: earlier tasks of the stream
  // come first.
  Signal *wait_before() override;
  SyncEdge sync_edge() const override { return {SyncEdge::Role::waits, notify_.get()}; }

 private:
  std::shared_ptr<Notify> notify_;
  Notify::Condition cond_;
  uint32_t operand_;
  bool clear_;
  uint32_t timeout_s_;
  const char *api_;
  bool claimed_ = false;
  std::shared_ptr<Signal> claim_;  // registered with the notify
  std::shared_ptr<Signal> gate_;   // claim_, or claim_ with a deadline
};

}  // namespace openacl
