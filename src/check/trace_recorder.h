// The timeline trace (docs/RULES.md R21, OPENACL_TRACE=path.json): every task, blocking host
// call and device-memory change is buffered in memory while the program runs and written as Chrome
// trace-event JSON (Perfetto, chrome://tracing) at aclFinalize, off the hot path.
//
// Layout of the file: a process per device (pid 100 + device id) with a thread per stream
// ("stream 0x... (context 0x...)"), one complete event ("ph":"X") per task, flow arrows
// ("s" -> "f", cat "event") from each event record to the stream waits it releases, a
// "device memory in use" counter; a "host" process (pid 1) with a thread per host thread
// holding the blocking API calls and a "page-locked host memory" counter. The ops of a model
// execution are complete events (cat "model_op", args: node, task seq) on its stream's thread,
// nested in the model task's event.
//
// Thread safety: hooks may come from any thread; one mutex guards the buffers.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/observer.h"
#include "core/task.h"

namespace openacl::check {

class TraceRecorder final : public TaskObserver {
 public:
  explicit TraceRecorder(std::string path);

  void on_complete(const Stream &stream, const Task &task) override;
  void on_host_span(const char *api, int64_t begin_ns, int64_t end_ns) override;
  void on_free(const Allocation &a, const char *api) override;
  void on_object(ObjectKind kind, const void *handle, bool created) override;
  void on_finalize_end() override;
  void on_range(const std::string &name, int64_t begin_ns, int64_t end_ns) override;
  void on_ops(std::span<const OpSpan> ops) override;
  void flush() override { write(); }
  void on_exit_without_finalize() override { write(); }

  // Writes the buffered trace; false (with a message on stderr) when the file cannot be written.
  bool write() const;

  // Beyond this many tasks the trace stops recording tasks (and says so in the file), so that a
  // long run cannot eat the host's memory: about 100 bytes a task.
  static constexpr size_t kMaxTasks = size_t{2} << 20;

 private:
  struct Track {
    const void *stream;
    const void *context;
    int32_t device;
    bool default_stream;
  };
  struct TaskRecord {
    uint32_t track;
    TaskKind kind;
    uint64_t seq;
    int64_t enqueue_ns, start_ns, end_ns;
    std::string label;
    const void *signal;  // event record / wait: the record, to draw the flow
    // Copies and memsets have one or two ranges: those stay inline, more go to spill_.
    uint32_t num_ranges;
    uint32_t spill;  // index of the first range in spill_ when num_ranges > 2
    MemRange inline_ranges[2];
    uint32_t first_op = 0, num_ops = 0;  // a model task's ops, in ops_
  };
  struct OpRecord {
    const char *type, *node;  // owned by op_names_
    int64_t begin_ns, end_ns;
  };
  struct SpanRecord {
    int64_t thread;
    const char *api;  // owned by span_names_ or range_names_
    int64_t begin_ns, end_ns;
  };
  struct CounterRecord {
    int32_t device;  // -1: page-locked host memory
    int64_t ts_ns;
    int64_t bytes;
  };

  void count_memory(int32_t device, int64_t delta);
  std::span<const MemRange> ranges_of(const TaskRecord &t) const;

  const std::string path_;
  const int64_t t0_;
  mutable std::mutex mu_;
  std::unordered_map<const void *, uint32_t> track_of_;
  std::vector<Track> tracks_;
  std::deque<TaskRecord> tasks_;  // grows without moving what it holds
  std::vector<MemRange> spill_;
  size_t dropped_ = 0;
  std::vector<SpanRecord> spans_;
  std::vector<CounterRecord> counters_;
  std::map<int32_t, int64_t> in_use_;
  std::map<int64_t, int> host_threads_;
  std::unordered_map<const char *, std::string> span_names_;  // stable: nodes never move
  std::unordered_set<std::string> range_names_;               // JSON-escaped, stable too
  std::unordered_set<std::string> op_names_;                  // JSON-escaped, stable too
  std::vector<OpRecord> ops_;
  // Ops reported by a worker thread, waiting for the on_complete of their task there.
  std::unordered_map<int64_t, std::vector<OpRecord>> pending_ops_;
};

}  // namespace openacl::check
