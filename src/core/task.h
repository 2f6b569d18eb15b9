// A Task is one unit of device work on a stream: a copy, a memset, an event record or wait,
// a callback, a kernel, an op or a model run. Tasks of one stream run strictly in FIFO order.
// Every task records the device memory it reads and writes and its timestamps, for the
// timeline trace and the race checker.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/ai_cores.h"
#include "core/task_storage.h"

namespace openacl {

class Device;
class Error;
struct Function;
class Signal;
class Stream;

enum class TaskKind : uint8_t {
  memcpy,
  memset,
  kernel,
  event_record,
  event_wait,
  event_reset,
  notify_record,
  notify_wait,
  notify_reset,
  value_write,
  value_wait,
  callback,
  host_func,
  op,
  model,
  dvpp,  // a media task (acl_dvpp.h: decode, encode, VPC)
};

const char *task_kind_name(TaskKind kind);

struct MemRange {
  uintptr_t begin = 0;
  size_t size = 0;
  bool write = false;
  // The access is a guess: a kernel argument that points into the range, which the kernel
  // may read or write (write is set); what it did is known only once it ran.
  bool guessed = false;
};

// The synchronization a task takes part in, for the race checker and the trace: `object`
// names what is recorded and waited for (an event's record, a notify, a value's address).
struct SyncEdge {
  enum class Role : uint8_t { none, records, waits };
  Role role = Role::none;
  const void *object = nullptr;
  // A record that adds to the earlier ones instead of replacing them: a notify or value wait
  // may be released by any update enqueued before it; an event wait binds to the latest record.
  bool cumulative = false;
};

// A user kernel's launch (core/kernel.h): the function and the task's copy of its arguments,
// for the program's exception callbacks when it fails.
struct KernelLaunch {
  const Function *function = nullptr;
  void *args = nullptr;
  size_t args_size = 0;
};

// What a running task may use: the device and its AI cores.
struct ExecContext {
  Device &device;
  backend::AiCores &cores;
};

class Task {
 public:
  explicit Task(TaskKind kind) : kind_(kind) {}
  virtual ~Task() = default;
  Task(const Task &) = delete;
  Task &operator=(const Task &) = delete;
  // Small tasks reuse the storage of finished ones (core/task_storage.h).
  static void *operator new(size_t bytes) { return task_storage::allocate(bytes); }
  static void operator delete(void *p, size_t bytes) noexcept { task_storage::release(p, bytes); }

  // Runs the task on a device worker. Throwing openacl::Error marks the stream failed (R20).
  virtual void run(ExecContext &ctx) = 0;
  // A name for traces and messages: the op type, the kernel name, "H2D" ...
  virtual std::string label() const { return task_kind_name(kind_); }
  // A signal the stream must reach before running this task (an event wait), or nullptr.
  virtual Signal *wait_before() { return nullptr; }
  // A signal that must complete after run() before the stream moves on (a blocking
  // callback), or nullptr.
  virtual Signal *wait_after() { return nullptr; }
  // Runs instead of run() when the stream has failed (R20): an event record passes the
  // failure on. Skipped tasks do nothing by default.
  virtual void skip(const Error &stream_failure) {}
  // The task was queued on `stream`, its number `seq` set (before a runner can see it).
  virtual void queued(Stream &stream) {}
  // Cheap enough to run during the call that submits it, on the calling thread, when its
  // stream has nothing queued or running (a small copy or memset): queuing it costs more.
  virtual bool runs_at_call() const { return false; }
  // A new task doing the same work on `target`: each launch of a captured model run instance
  // (aclmdlRI) enqueues replicas of the captured tasks. nullptr: this task cannot be replayed.
  virtual std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &target) const {
    return nullptr;
  }
  // What this task records or waits for; most tasks neither.
  virtual SyncEdge sync_edge() const { return {}; }
  // The user kernel this task launches; most tasks launch none (function is null).
  virtual KernelLaunch kernel_launch() const { return {}; }

  TaskKind kind() const { return kind_; }
  std::span<const MemRange> ranges() const {
    return more_.empty() ? std::span<const MemRange>(inline_, num_inline_)
                         : std::span<const MemRange>(more_);
  }
  void add_range(const void *p, size_t size, bool write, bool guessed = false) {
    if (size == 0) return;
    MemRange r{reinterpret_cast<uintptr_t>(p), size, write, guessed};
    if (more_.empty() && num_inline_ < kInlineRanges) {
      inline_[num_inline_++] = r;
      return;
    }
    if (more_.empty()) {
      more_.reserve(2 * kInlineRanges);  // one allocation for most longer lists
      more_.assign(inline_, inline_ + num_inline_);
    }
    more_.push_back(r);
  }

  // Timestamps in ns of the runtime clock (steady_clock); 0 when not reached.
  int64_t enqueue_ns = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t seq = 0;      // position in its stream, from 1
  Task *next = nullptr;  // intrusive FIFO link, owned by the stream
  bool ran = false;      // run() returned; the stream may still wait on wait_after()
  // Queued while its stream's overflow switch was on (or captured so): an op reports
  // non-finite results (Runtime::note_overflow).
  bool overflow_check = false;
  uint32_t thread_id = 0;  // Linux id of the submitting host thread, for failure reports
  // AI cores its work may use (core/res_limits.h); 0 until taken, and for tasks that use none.
  uint32_t core_limit = 0;

  // For replicas: the same memory ranges as `from`.
  void copy_ranges(const Task &from) {
    num_inline_ = from.num_inline_;
    std::copy(from.inline_, from.inline_ + kInlineRanges, inline_);
    more_ = from.more_;
  }

 private:
  // Copies and memsets touch at most two ranges, an operator's tensors and workspace mostly
  // up to four (ggml queues about a hundred a token): keep those without a heap allocation.
  static constexpr uint8_t kInlineRanges = 4;
  TaskKind kind_;
  uint8_t num_inline_ = 0;
  MemRange inline_[kInlineRanges];
  std::vector<MemRange> more_;
};

// A task whose work is a function; ops and models use it.
class FunctionTask final : public Task {
 public:
  FunctionTask(TaskKind kind, std::string label, std::function<void(ExecContext &)> fn)
      : Task(kind), label_(std::move(label)), fn_(std::move(fn)) {}
  void run(ExecContext &ctx) override { fn_(ctx); }
  std::string label() const override { return label_; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    auto t = std::make_unique<FunctionTask>(kind(), label_, fn_);
    t->copy_ranges(*this);
    return t;
  }

 private:
  std::string label_;
  std::function<void(ExecContext &)> fn_;
};

}  // namespace openacl
