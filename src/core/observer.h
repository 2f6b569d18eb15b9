// Hooks for diagnostics (timeline trace, race checker; docs/RULES.md R21). Off by default: each
// hook site pays one atomic load when no observer is installed. The runtime installs the observer
// that src/check builds from the configuration (through core/runtime_parts.h) at aclInit and
// removes it at aclFinalize.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

namespace openacl {

struct Allocation;
struct Config;
class Signal;
class Stream;
class Task;

// One op of a model execution: its op type, the model node it came from, when it ran.
struct OpSpan {
  const std::string *type;
  const std::string *node;
  int64_t begin_ns, end_ns;
};

enum class ObjectKind : uint8_t {
  context,
  stream,
  event,
  notify,
  device_memory,
  host_memory,
  binary,
  memory_mapping
};

class TaskObserver {
 public:
  virtual ~TaskObserver() = default;
  // Called under the stream's lock, in stream order. The task's seq and enqueue_ns are set.
  virtual void on_enqueue(const Stream &stream, const Task &task) {}
  // Called on the device worker just before the task runs (not for skipped tasks).
  virtual void on_start(const Stream &stream, const Task &task) {}
  // Called under the stream's lock when the task finished (start_ns/end_ns set). Tasks
  // skipped after a failure are reported too (start_ns == end_ns).
  virtual void on_complete(const Stream &stream, const Task &task) {}
  // The host saw every task of `stream` up to `seq` complete (a stream or device sync).
  virtual void on_stream_synchronized(const Stream &stream, uint64_t seq) {}
  // The host saw an event record complete (aclrtSynchronizeEvent, a query that said done).
  virtual void on_record_synchronized(const Signal &record) {}
  // A blocking API call on the host: aclrtSynchronize*, aclrtMemcpy, ...
  virtual void on_host_span(const char *api, int64_t begin_ns, int64_t end_ns) {}
  // The host reads or writes [p, p + n) directly (aclrtMemcpy, aclrtMemset, pageable staging).
  virtual void on_host_access(const void *p, size_t n, bool write, const char *api) {}
  // Memory is about to be freed (aclrtFree / aclrtFreeHost).
  virtual void on_free(const Allocation &a, const char *api) {}
  // Objects created and destroyed through the API, for the leak report.
  virtual void on_object(ObjectKind kind, const void *handle, bool created) {}
  // The default context was obtained or bound through get/set current context.
  virtual void on_default_context(const char *api) {}
  // aclFinalize, before anything is released (leak report) and after (flush).
  virtual void on_finalize_begin() {}
  virtual void on_finalize_end() {}
  // A range the program names (aclprofPush/Pop, RangeStart/Stop, Mark: begin == end) on the
  // calling host thread.
  virtual void on_range(const std::string &name, int64_t begin_ns, int64_t end_ns) {}
  // The ops a model task ran, in order: called on the device worker while the task runs (so
  // before its on_complete, on the same thread). The strings live only during the call.
  virtual void on_ops(std::span<const OpSpan> ops) {}
  // A profiling session ends: write out what was recorded.
  virtual void flush() {}
  // The process exits and aclFinalize was never called (ggml never calls it): say what
  // on_finalize_end would have said.
  virtual void on_exit_without_finalize() {}
};

namespace detail {
extern std::atomic<TaskObserver *> installed_observer;
}  // namespace detail

// Inline: it runs several times in every API call, and mostly finds none.
inline TaskObserver *task_observer() {
  return detail::installed_observer.load(std::memory_order_acquire);
}
void set_task_observer(TaskObserver *observer);

// Reports a blocking API call as a host span when an observer is installed.
class HostSpan {
 public:
  explicit HostSpan(const char *api) : api_(api) {
    if (task_observer() != nullptr) begin();
  }
  ~HostSpan() {
    if (begin_ns_ != 0) end();
  }
  HostSpan(const HostSpan &) = delete;
  HostSpan &operator=(const HostSpan &) = delete;

 private:
  void begin();
  void end();

  const char *api_;
  int64_t begin_ns_ = 0;
};

// Shorthand for hook sites: obs(fn, args...) calls the hook when an observer is installed.
template <class F, class... Args>
inline void notify(F TaskObserver::*hook, Args &&...args) {
  if (TaskObserver *o = task_observer()) (o->*hook)(std::forward<Args>(args)...);
}

// Hands every hook to first (when not null), then to second; owns neither.
std::unique_ptr<TaskObserver> chain_observers(TaskObserver *first, TaskObserver *second);
// The same, owning both.
std::unique_ptr<TaskObserver> chain_observers(std::unique_ptr<TaskObserver> first,
                                              std::unique_ptr<TaskObserver> second);

}  // namespace openacl
