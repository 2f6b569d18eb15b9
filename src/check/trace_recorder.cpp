#include "check/trace_recorder.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "check/call_site.h"
#include "core/clock.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::check {
namespace {

constexpr int kHostPid = 1;
constexpr int kDevicePidBase = 100;

int64_t host_thread_id() {
  thread_local const int64_t tid = static_cast<int64_t>(::syscall(SYS_gettid));
  return tid;
}

// JSON string body (without quotes).
std::string escape(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// The trace links event records to their waits only (notifies and values are not drawn).
const void *signal_of(const Task &task) {
  bool event = task.kind() == TaskKind::event_record || task.kind() == TaskKind::event_wait;
  return event ? task.sync_edge().object : nullptr;
}

class File {
 public:
  explicit File(const std::string &path) : f_(std::fopen(path.c_str(), "w")) {
    if (f_ != nullptr) std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  }
  ~File() {
    if (f_ != nullptr) std::fclose(f_);
  }
  std::FILE *get() const { return f_; }
  bool close() {
    bool ok = std::ferror(f_) == 0;
    ok &= std::fclose(f_) == 0;
    f_ = nullptr;
    return ok;
  }

 private:
  std::FILE *f_;
};

}  // namespace

TraceRecorder::TraceRecorder(std::string path) : path_(std::move(path)), t0_(now_ns()) {}

void TraceRecorder::on_complete(const Stream &stream, const Task &task) {
  const Context &ctx = stream.context();
  std::lock_guard lock(mu_);
  if (tasks_.size() >= kMaxTasks) {
    ++dropped_;
    return;
  }
  auto [it, fresh] = track_of_.try_emplace(stream.handle(), static_cast<uint32_t>(tracks_.size()));
  if (fresh) {
    tracks_.push_back(Track{stream.handle(), ctx.handle(), stream.device().id(),
                            ctx.default_stream().get() == &stream});
  }
  auto ranges = task.ranges();
  uint32_t first_op = 0, num_ops = 0;
  if (auto p = pending_ops_.find(host_thread_id()); p != pending_ops_.end()) {
    first_op = static_cast<uint32_t>(ops_.size());
    num_ops = static_cast<uint32_t>(p->second.size());
    ops_.insert(ops_.end(), p->second.begin(), p->second.end());
    pending_ops_.erase(p);
  }
  TaskRecord &rec = tasks_.emplace_back(TaskRecord{it->second,
                                                   task.kind(),
                                                   task.seq,
                                                   task.enqueue_ns,
                                                   task.start_ns,
                                                   task.end_ns,
                                                   task.label(),
                                                   signal_of(task),
                                                   static_cast<uint32_t>(ranges.size()),
                                                   0,
                                                   {},
                                                   first_op,
                                                   num_ops});
  if (ranges.size() <= 2) {
    std::copy(ranges.begin(), ranges.end(), rec.inline_ranges);
  } else {
    rec.spill = static_cast<uint32_t>(spill_.size());
    spill_.insert(spill_.end(), ranges.begin(), ranges.end());
  }
}

std::span<const MemRange> TraceRecorder::ranges_of(const TaskRecord &t) const {
  if (t.num_ranges <= 2) return {t.inline_ranges, t.num_ranges};
  return {spill_.data() + t.spill, t.num_ranges};
}

void TraceRecorder::on_host_span(const char *api, int64_t begin_ns, int64_t end_ns) {
  int64_t tid = host_thread_id();
  std::lock_guard lock(mu_);
  host_threads_.try_emplace(tid, static_cast<int>(host_threads_.size()));
  auto [name, fresh] = span_names_.try_emplace(api);
  // Spans opened inside the API's lambdas are named "operator()" (__func__): each lambda has
  // its own __func__, so the API found once in a backtrace names all its spans.
  if (fresh) name->second = check::api_name(api, capture_call_site());
  spans_.push_back(SpanRecord{tid, name->second.c_str(), begin_ns, end_ns});
}

void TraceRecorder::on_range(const std::string &name, int64_t begin_ns, int64_t end_ns) {
  int64_t tid = host_thread_id();
  std::lock_guard lock(mu_);
  host_threads_.try_emplace(tid, static_cast<int>(host_threads_.size()));
  const std::string &stored = *range_names_.insert(escape(name)).first;
  spans_.push_back(SpanRecord{tid, stored.c_str(), begin_ns, end_ns});
}

void TraceRecorder::on_ops(std::span<const OpSpan> ops) {
  const int64_t tid = host_thread_id();
  std::lock_guard lock(mu_);
  if (tasks_.size() >= kMaxTasks) return;
  auto &pending = pending_ops_[tid];
  pending.clear();  // left by a task that was not recorded
  for (const OpSpan &op : ops)
    pending.push_back(OpRecord{op_names_.insert(escape(*op.type)).first->c_str(),
                               op_names_.insert(escape(*op.node)).first->c_str(), op.begin_ns,
                               op.end_ns});
}

void TraceRecorder::count_memory(int32_t device, int64_t delta) {
  int64_t &v = in_use_[device];
  v += delta;
  counters_.push_back(CounterRecord{device, now_ns(), v});
}

void TraceRecorder::on_object(ObjectKind kind, const void *handle, bool created) {
  if (!created || (kind != ObjectKind::device_memory && kind != ObjectKind::host_memory)) return;
  auto a = Runtime::get().memory().find(handle);
  if (!a) return;
  int32_t device = a->kind == MemoryKind::device && a->device != nullptr ? a->device->id() : -1;
  std::lock_guard lock(mu_);
  count_memory(device, static_cast<int64_t>(a->size));
}

void TraceRecorder::on_free(const Allocation &a, const char *api) {
  int32_t device = a.kind == MemoryKind::device && a.device != nullptr ? a.device->id() : -1;
  std::lock_guard lock(mu_);
  count_memory(device, -static_cast<int64_t>(a.size));
}

void TraceRecorder::on_finalize_end() { write(); }

bool TraceRecorder::write() const {
  std::lock_guard lock(mu_);
  File file(path_);
  std::FILE *f = file.get();
  if (f == nullptr) {
    std::fprintf(stderr, "openacl-trace: cannot write the trace to '%s': %s\n", path_.c_str(),
                 std::strerror(errno));
    return false;
  }
  auto us = [&](int64_t ns) { return static_cast<double>(ns - t0_) / 1000.0; };
  bool first = true;
  auto begin_event = [&] {
    std::fputs(first ? "\n" : ",\n", f);
    first = false;
  };

  std::fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"openacl\"", f);
  std::fprintf(f, ",\"dropped_tasks\":%zu},\"traceEvents\":[", dropped_);

  // Names of processes and threads.
  std::map<int32_t, bool> devices;
  for (const Track &t : tracks_) devices[t.device] = true;
  for (const auto &[d, _] : in_use_) {
    if (d >= 0) devices[d] = true;
  }
  begin_event();
  std::fprintf(f,
               "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"host\"}}",
               kHostPid);
  begin_event();
  std::fprintf(
      f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":0}}",
      kHostPid);
  for (const auto &[tid, n] : host_threads_) {
    begin_event();
    std::fprintf(f,
                 "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%lld,"
                 "\"args\":{\"name\":\"host thread %lld\"}}",
                 kHostPid, static_cast<long long>(tid), static_cast<long long>(tid));
  }
  for (const auto &[d, _] : devices) {
    begin_event();
    std::fprintf(
        f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"device %d\"}}",
        kDevicePidBase + d, d);
    begin_event();
    std::fprintf(
        f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
        kDevicePidBase + d, 1 + d);
  }
  for (size_t i = 0; i < tracks_.size(); ++i) {
    const Track &t = tracks_[i];
    char name[160];
    if (t.default_stream) {
      std::snprintf(name, sizeof name, "default stream (context %p)", t.context);
    } else {
      std::snprintf(name, sizeof name, "stream %p (context %p)", t.stream, t.context);
    }
    begin_event();
    std::fprintf(
        f,
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%zu,\"args\":{\"name\":\"%s\"}}",
        kDevicePidBase + t.device, i + 1, name);
    begin_event();
    std::fprintf(f,
                 "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%zu,\"args\":{"
                 "\"sort_index\":%zu}}",
                 kDevicePidBase + t.device, i + 1, i);
  }

  // Tasks in enqueue order, so that each wait finds the record it waits for.
  std::vector<const TaskRecord *> order;
  order.reserve(tasks_.size());
  for (const TaskRecord &t : tasks_) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const TaskRecord *a, const TaskRecord *b) {
    return a->enqueue_ns < b->enqueue_ns;
  });
  std::unordered_map<const void *, const TaskRecord *> latest_record;
  std::unordered_map<const TaskRecord *, uint64_t> flow_id;
  uint64_t next_flow = 1;
  for (const TaskRecord *t : order) {
    const Track &track = tracks_[t->track];
    int pid = kDevicePidBase + track.device;
    size_t tid = t->track + 1;
    // Zero-length tasks (records, skipped tasks) keep a sliver so that viewers draw them and
    // flows bind to them.
    double ts = us(t->start_ns);
    double dur = std::max(us(t->end_ns) - ts, 0.001);
    begin_event();
    std::fprintf(f,
                 "{\"ph\":\"X\",\"pid\":%d,\"tid\":%zu,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"%s\","
                 "\"cat\":\"%s\",\"args\":{\"kind\":\"%s\",\"seq\":%llu,\"enqueue_us\":%.3f,"
                 "\"queued_us\":%.3f",
                 pid, tid, ts, dur, escape(t->label).c_str(), task_kind_name(t->kind),
                 task_kind_name(t->kind), static_cast<unsigned long long>(t->seq),
                 us(t->enqueue_ns), static_cast<double>(t->start_ns - t->enqueue_ns) / 1000.0);
    auto ranges = ranges_of(*t);
    if (t->kind == TaskKind::memcpy || t->kind == TaskKind::memset) {
      size_t bytes = 0;
      for (const MemRange &r : ranges) {
        if (r.write) bytes = r.size;
      }
      std::fprintf(f, ",\"bytes\":%zu", bytes);
    }
    if (!ranges.empty()) {
      std::fputs(",\"ranges\":[", f);
      for (size_t i = 0; i < ranges.size(); ++i) {
        const MemRange &r = ranges[i];
        std::fprintf(f, "%s\"%s %p +%zu\"", i == 0 ? "" : ",", r.write ? "write" : "read",
                     reinterpret_cast<const void *>(r.begin), r.size);
      }
      std::fputc(']', f);
    }
    std::fputs("}}", f);
    for (uint32_t k = t->first_op; k < t->first_op + t->num_ops; ++k) {
      const OpRecord &op = ops_[k];
      begin_event();
      std::fprintf(f,
                   "{\"ph\":\"X\",\"pid\":%d,\"tid\":%zu,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"%s\","
                   "\"cat\":\"model_op\",\"args\":{\"node\":\"%s\",\"seq\":%llu}}",
                   pid, tid, us(op.begin_ns), std::max(us(op.end_ns) - us(op.begin_ns), 0.001),
                   op.type, op.node, static_cast<unsigned long long>(t->seq));
    }

    if (t->kind == TaskKind::event_record && t->signal != nullptr) {
      latest_record[t->signal] = t;
    } else if (t->kind == TaskKind::event_wait && t->signal != nullptr) {
      auto r = latest_record.find(t->signal);
      if (r == latest_record.end()) continue;
      const TaskRecord *rec = r->second;
      const Track &rt = tracks_[rec->track];
      uint64_t id = next_flow++;
      begin_event();
      std::fprintf(f,
                   "{\"ph\":\"s\",\"id\":%llu,\"pid\":%d,\"tid\":%u,\"ts\":%.3f,\"name\":\"event\","
                   "\"cat\":\"event\"}",
                   static_cast<unsigned long long>(id), kDevicePidBase + rt.device, rec->track + 1,
                   us(rec->start_ns));
      begin_event();
      std::fprintf(f,
                   "{\"ph\":\"f\",\"bp\":\"e\",\"id\":%llu,\"pid\":%d,\"tid\":%zu,\"ts\":%.3f,"
                   "\"name\":\"event\",\"cat\":\"event\"}",
                   static_cast<unsigned long long>(id), pid, tid, ts);
    }
  }

  for (const SpanRecord &s : spans_) {
    begin_event();
    std::fprintf(f,
                 "{\"ph\":\"X\",\"pid\":%d,\"tid\":%lld,\"ts\":%.3f,\"dur\":%.3f,\"name\":\"%s\","
                 "\"cat\":\"host\"}",
                 kHostPid, static_cast<long long>(s.thread), us(s.begin_ns),
                 std::max(us(s.end_ns) - us(s.begin_ns), 0.001), s.api);
  }
  for (const CounterRecord &c : counters_) {
    begin_event();
    if (c.device >= 0) {
      std::fprintf(f,
                   "{\"ph\":\"C\",\"pid\":%d,\"ts\":%.3f,\"name\":\"device memory in use\","
                   "\"args\":{\"bytes\":%lld}}",
                   kDevicePidBase + c.device, us(c.ts_ns), static_cast<long long>(c.bytes));
    } else {
      std::fprintf(f,
                   "{\"ph\":\"C\",\"pid\":%d,\"ts\":%.3f,\"name\":\"page-locked host memory\","
                   "\"args\":{\"bytes\":%lld}}",
                   kHostPid, us(c.ts_ns), static_cast<long long>(c.bytes));
    }
  }
  std::fputs("\n]}\n", f);
  if (!file.close()) {
    std::fprintf(stderr, "openacl-trace: writing '%s' failed\n", path_.c_str());
    return false;
  }
  if (dropped_ > 0) {
    std::fprintf(stderr,
                 "openacl-trace: the trace holds the first %zu tasks; %zu more were not recorded\n",
                 kMaxTasks, dropped_);
  }
  return true;
}

}  // namespace openacl::check
