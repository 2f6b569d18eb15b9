// The runtime's own task kinds: copies, memsets, event records/waits/resets, callbacks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/callback.h"
#include "core/task.h"

namespace openacl {

class Event;
class Signal;

// Copies and memsets up to this size run at the call on a stream at rest (Task::runs_at_call):
// about a microsecond of copying at most.
inline constexpr size_t kRunAtCallBytes = size_t{16} << 10;

// A task built on the caller's stack for Stream::try_run_at_call only: it runs at the call or
// not at all, and never while an observer is installed, so it records no memory ranges (the
// trace and the race checker are their only readers).
struct AtCall {};

class CopyTask final : public Task {
 public:
  // staged: the source bytes were taken at the call (pageable host memory, R14).
  CopyTask(void *dst, const void *src, size_t n, bool staged, const char *direction);
  // 2D: height rows of width bytes.
  CopyTask(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
           bool staged, const char *direction);
  CopyTask(AtCall, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
           size_t height, const char *direction);
  void run(ExecContext &ctx) override;
  bool runs_at_call() const override { return width_ * height_ <= kRunAtCallBytes; }
  std::string label() const override { return direction_; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override;

 private:
  void *dst_;
  const void *src_;
  size_t dpitch_, spitch_, width_, height_;
  std::unique_ptr<uint8_t[]> staging_;
  const char *direction_;
};

class MemsetTask final : public Task {
 public:
  MemsetTask(void *dst, int value, size_t n);
  MemsetTask(AtCall, void *dst, int value, size_t n)
      : Task(TaskKind::memset), dst_(dst), value_(value), n_(n) {}
  void run(ExecContext &ctx) override;
  bool runs_at_call() const override { return n_ <= kRunAtCallBytes; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<MemsetTask>(dst_, value_, n_);
  }

 private:
  void *dst_;
  int value_;
  size_t n_;
};

class RecordTask final : public Task {
 public:
  explicit RecordTask(std::shared_ptr<Signal> record)
      : Task(TaskKind::event_record), record_(std::move(record)) {}
  void run(ExecContext &ctx) override;
  void skip(const Error &failure) override;
  void queued(Stream &stream) override;
  // On a stream at rest nothing comes before the record: it completes at the call, and a
  // cross-stream hand-off need not wake a worker for it.
  bool runs_at_call() const override { return true; }
  SyncEdge sync_edge() const override { return {SyncEdge::Role::records, record_.get()}; }

 private:
  std::shared_ptr<Signal> record_;
};

class WaitTask final : public Task {
 public:
  explicit WaitTask(std::shared_ptr<Signal> record)
      : Task(TaskKind::event_wait), record_(std::move(record)) {}
  void run(ExecContext &) override {}
  Signal *wait_before() override { return record_.get(); }
  // A wait for a record that has completed without a failure has nothing to wait for; one
  // that carries a failure must fail its stream on the queued path (R20).
  bool runs_at_call() const override;
  SyncEdge sync_edge() const override { return {SyncEdge::Role::waits, record_.get()}; }

 private:
  std::shared_ptr<Signal> record_;
};

class ResetTask final : public Task {
 public:
  ResetTask(std::shared_ptr<Event> event, std::shared_ptr<Signal> record)
      : Task(TaskKind::event_reset), event_(std::move(event)), record_(std::move(record)) {}
  void run(ExecContext &) override;

 private:
  std::shared_ptr<Event> event_;
  std::shared_ptr<Signal> record_;
};

class CallbackTask final : public Task {
 public:
  CallbackTask(ReportHub &hub, std::shared_ptr<Stream> stream, void (*fn)(void *), void *data,
               bool blocking);
  void run(ExecContext &) override;
  Signal *wait_after() override { return done_.get(); }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &target) const override {
    return std::make_unique<CallbackTask>(hub_, target, fn_, data_, done_ != nullptr);
  }

 private:
  ReportHub &hub_;
  std::weak_ptr<Stream> stream_;  // the stream owns this task: no cycle
  void (*fn_)(void *);
  void *data_;
  std::shared_ptr<Signal> done_;  // blocking only
};

}  // namespace openacl
