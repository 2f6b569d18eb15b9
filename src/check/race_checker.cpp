#include "check/race_checker.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>

#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::check {
namespace {

// Event records whose clocks are kept for later waits; the oldest go first. A wait on a record
// evicted this long ago would be missed as a happens-before edge (a false report, not a crash).
constexpr size_t kMaxRecords = size_t{1} << 16;
// Accesses kept per allocation: beyond this the oldest are forgotten (missed races, never
// false ones).
constexpr size_t kMaxAccesses = 256;
// Races waiting for a record that may never come (a value wait a kernel releases): the oldest
// are forgotten unreported.
constexpr size_t kMaxPending = 4096;
// Call sites kept for reuse; past this the cache starts over.
constexpr size_t kMaxSites = size_t{1} << 14;

std::string hex(const void *p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}
std::string hex(uintptr_t p) { return hex(reinterpret_cast<const void *>(p)); }

const char *memory_name(MemoryKind kind) {
  return kind == MemoryKind::device ? "device memory" : "page-locked host memory";
}

std::string range_text(uintptr_t begin, uintptr_t end) {
  return "[" + hex(begin) + ", +" + std::to_string(end - begin) + ")";
}

const char *object_name(ObjectKind kind, bool plural) {
  switch (kind) {
    case ObjectKind::context:
      return plural ? "contexts" : "context";
    case ObjectKind::stream:
      return plural ? "streams" : "stream";
    case ObjectKind::event:
      return plural ? "events" : "event";
    case ObjectKind::notify:
      return plural ? "notifies" : "notify";
    case ObjectKind::device_memory:
      return plural ? "device allocations" : "device allocation";
    case ObjectKind::host_memory:
      return plural ? "page-locked host allocations" : "page-locked host allocation";
    case ObjectKind::binary:
      return plural ? "kernel binaries" : "kernel binary";
    case ObjectKind::memory_mapping:
      return plural ? "memory mappings" : "memory mapping";
  }
  return "object";
}

const char *release_api(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::context:
      return "aclrtDestroyContext";
    case ObjectKind::stream:
      return "aclrtDestroyStream";
    case ObjectKind::event:
      return "aclrtDestroyEvent";
    case ObjectKind::notify:
      return "aclrtDestroyNotify";
    case ObjectKind::device_memory:
      return "aclrtFree";
    case ObjectKind::host_memory:
      return "aclrtFreeHost";
    case ObjectKind::binary:
      return "aclrtBinaryUnLoad";
    case ObjectKind::memory_mapping:
      return "aclrtUnmapMem";
  }
  return "?";
}

// Objects whose bytes tasks use: their accesses are race-checked.
bool is_memory(ObjectKind kind) {
  return kind == ObjectKind::device_memory || kind == ObjectKind::host_memory ||
         kind == ObjectKind::memory_mapping;
}

// What a wait task waits for: an event's record, a notify (whichever update it meets), or a
// value at a device address (whichever write it sees).
const void *waited_for(const Task &task) {
  SyncEdge edge = task.sync_edge();
  return edge.role == SyncEdge::Role::waits ? edge.object : nullptr;
}

// What a task records, and whether the record adds to the earlier ones (SyncEdge::cumulative):
// a stream that waits on a notify is taken to follow every update enqueued before the wait.
std::pair<const void *, bool> recorded(const Task &task) {
  SyncEdge edge = task.sync_edge();
  if (edge.role != SyncEdge::Role::records) return {nullptr, false};
  return {edge.object, edge.cumulative};
}

}  // namespace

// --- text --------------------------------------------------------------------------------

namespace {

template <class Info>
std::string stream_text(const Info &t) {
  std::string ctx = " of context " + hex(t.context) + ", device " + std::to_string(t.device);
  return t.default_stream ? "the default stream (NULL)" + ctx : "stream " + hex(t.stream) + ctx;
}

// The handle a program passes for the stream: NULL for the current context's default stream.
template <class Info>
std::string stream_arg(const Info &t) {
  return t.default_stream ? "NULL" : hex(t.stream);
}

template <class Info>
std::string task_text(const Info &t) {
  std::string what = task_kind_name(t.kind);
  if (t.label != what) what += " \"" + t.label + "\"";
  return what + " (task #" + std::to_string(t.seq) + " of " + stream_text(t) + ")";
}

}  // namespace

void RaceChecker::report_race(MemoryKind kind, const Access &first, const Access &second) {
  const TaskInfo &a = *first.task;
  const TaskInfo &b = *second.task;
  uintptr_t lo = std::max(first.begin, second.begin);
  uintptr_t hi = std::min(first.end, second.end);
  std::ostringstream out;
  out << "race: two tasks on different streams use " << memory_name(kind) << " "
      << range_text(lo, hi) << " with no synchronization between them, and "
      << (first.write && second.write ? "both write" : "one writes") << "\n";
  out << "  first:  " << (first.write ? "writes " : "reads  ") << task_text(a) << "\n";
  out << "          enqueued by " << describe(*a.site) << "\n";
  out << "  second: " << (second.write ? "writes " : "reads  ") << task_text(b) << "\n";
  out << "          enqueued by " << describe(*b.site) << "\n";
  if (a.context == b.context) {
    out << "  missing: the second does not wait for the first. Add aclrtRecordEvent(event, "
        << stream_arg(a) << ") after the first task and aclrtStreamWaitEvent(" << stream_arg(b)
        << ", event) before the second (or call aclrtSynchronizeStream(" << stream_arg(a)
        << ") before enqueueing the second)";
  } else {
    out << "  missing: the streams belong to different contexts, which cannot share events: "
           "call aclrtSynchronizeStream on the first task's stream before enqueueing the second";
  }
  reporter_.problem({"race", user_pc(*a.site), user_pc(*b.site), 0}, out.str());
}

// --- streams and clocks ---------------------------------------------------------------

RaceChecker::StreamState &RaceChecker::state_of(const Stream &stream) {
  auto [it, fresh] = streams_.try_emplace(&stream);
  if (fresh) {
    it->second.index = static_cast<uint32_t>(streams_.size() - 1);
    by_index_.push_back(&it->second);
  }
  return it->second;
}

RaceChecker::Region *RaceChecker::region_of(uintptr_t p) {
  auto it = regions_.upper_bound(p);
  if (it == regions_.begin()) return nullptr;
  --it;
  return p - it->first < it->second.size ? &it->second : nullptr;
}

std::shared_ptr<const CallSite> RaceChecker::site_of(SiteKey key) {
  {
    std::lock_guard lock(sites_mu_);
    if (auto it = sites_.find(key); it != sites_.end()) return it->second;
  }
  auto site = std::make_shared<const CallSite>(capture_call_site());
  std::lock_guard lock(sites_mu_);
  if (sites_.size() >= kMaxSites) sites_.clear();
  sites_.emplace(std::move(key), site);
  return site;
}

void RaceChecker::on_enqueue(const Stream &stream, const Task &task) {
  // Only tasks that touch memory can be named in a report: only they need a call site, taken
  // before locking.
  std::shared_ptr<TaskInfo> info;
  if (!task.ranges().empty()) {
    const Context &ctx = stream.context();
    const MemRange &r = task.ranges().front();
    std::string label = task.label();
    auto site = site_of(
        SiteKey{stream.handle(), task.kind(), r.begin, r.size, std::hash<std::string>()(label)});
    info = std::make_shared<TaskInfo>(TaskInfo{
        stream.handle(), ctx.handle(), stream.device().id(), ctx.default_stream().get() == &stream,
        task.kind(), std::move(label), task.seq, std::move(site), std::nullopt});
  }
  std::lock_guard lock(mu_);
  StreamState &st = state_of(stream);
  if (task.seq <= st.last_seq) {  // a new stream at the address of a destroyed one
    st.base += st.last_seq;
    st.synced_seq = 0;
    st.checkpoints.clear();
    st.vc = VectorClock();
    st.completed_seq = 0;
    st.host_code.clear();
  }
  bool host_code = task.kind() == TaskKind::callback || task.kind() == TaskKind::host_func;
  if (host_code) st.host_code.push_back(task.seq);
  st.last_seq = task.seq;
  uint64_t epoch = st.base + task.seq;
  bool grew = false;
  if (st.host_version != host_version_) {
    grew |= st.vc.join(host_, st.index);
    st.host_version = host_version_;
  }
  if (const void *key = waited_for(task)) {
    if (auto r = records_.find(key); r != records_.end()) grew |= st.vc.join(r->second, st.index);
    else if (task.kind() != TaskKind::event_wait) st.open_waits.push_back({key, task.seq, epoch});
  }
  st.vc.set(st.index, epoch);
  if (grew) st.checkpoints.push_back({task.seq, st.vc});
  if (auto [key, accumulates] = recorded(task); key != nullptr) {
    auto [it, fresh] = records_.try_emplace(key, st.vc);
    if (!fresh) {
      if (accumulates) it->second.join(st.vc);
      else it->second = st.vc;
    }
    if (fresh) record_order_.push_back(key);
    answer_open_waits(key, it->second);
    while (record_order_.size() > kMaxRecords) {
      records_.erase(record_order_.front());
      record_order_.pop_front();
    }
  }
  if (info) {
    bool guessed = false;
    for (const MemRange &r : task.ranges()) guessed = guessed || r.guessed;
    if (guessed) guessing_[&task] = info;
    for (const MemRange &r : task.ranges()) {
      if (Region *region = region_of(r.begin)) check_range(*region, r, st, epoch, info);
    }
  }
  // Host code enqueued behind finished tasks: they are complete when it runs.
  if (host_code && st.completed_seq + 1 == task.seq) learn(st, st.completed_seq);
}

void RaceChecker::check_range(Region &region, const MemRange &r, const StreamState &st,
                              uint64_t epoch, const std::shared_ptr<const TaskInfo> &task) {
  Access mine{st.index, epoch, r.begin, r.begin + r.size, r.write, r.guessed, task};
  auto &list = region.accesses;
  size_t keep = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    Access &a = list[i];
    if (dead(a)) continue;  // the host saw it complete: every later task follows it
    bool ordered = a.stream == st.index || st.vc.get(a.stream) >= a.epoch;
    bool overlap = a.begin < mine.end && mine.begin < a.end;
    if (overlap && !ordered && (a.write || mine.write)) {
      // Only a kernel's guessed write makes it a race: decided once the kernels have run.
      if (!(a.write && !a.guessed) && !(mine.write && !mine.guessed))
        suspects_.push_back({region.kind, a, mine});
      else if (behind_open_wait(mine) || behind_open_wait(a)) {
        if (pending_.size() >= kMaxPending) pending_.erase(pending_.begin());
        pending_.push_back({region.kind, a, mine, behind_open_wait(mine)});
      } else {
        report_race(region.kind, a, mine);
      }
    }
    // An earlier access this one covers and follows adds nothing to later checks (a guessed
    // write may turn out a read: it covers nothing).
    bool covered = ordered && mine.begin <= a.begin && a.end <= mine.end &&
                   ((mine.write && !mine.guessed) || !a.write);
    if (covered) continue;
    if (keep != i) list[keep] = std::move(a);
    ++keep;
  }
  list.resize(keep);
  if (list.size() >= kMaxAccesses) list.erase(list.begin());
  list.push_back(std::move(mine));
}

namespace {

// FNV-1a over the bytes of a range: whether a kernel changed it. Ranges beyond this size are
// not hashed and count as written (the conservative answer).
constexpr size_t kMaxHashedBytes = size_t{16} << 20;

uint64_t content_hash(const MemRange &r) {
  uint64_t h = 1469598103934665603ull;
  const auto *p = reinterpret_cast<const unsigned char *>(r.begin);
  for (size_t i = 0; i < r.size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

std::vector<uint64_t> guessed_hashes(const Task &task) {
  std::vector<uint64_t> hashes;
  for (const MemRange &r : task.ranges())
    if (r.guessed) hashes.push_back(r.size <= kMaxHashedBytes ? content_hash(r) : 0);
  return hashes;
}

}  // namespace

void RaceChecker::on_start(const Stream &, const Task &task) {
  {
    std::lock_guard lock(mu_);
    if (!guessing_.count(&task)) return;
  }
  std::vector<uint64_t> hashes = guessed_hashes(task);  // outside the lock: may be large
  std::lock_guard lock(mu_);
  before_[&task] = std::move(hashes);
}

bool RaceChecker::behind_open_wait(const Access &a) const {
  for (const OpenWait &w : by_index_[a.stream]->open_waits)
    if (a.epoch > w.epoch) return true;
  return false;
}

void RaceChecker::answer_open_waits(const void *key, const VectorClock &record) {
  for (StreamState *s : by_index_) {
    auto w = std::find_if(s->open_waits.begin(), s->open_waits.end(),
                          [&](const OpenWait &o) { return o.key == key; });
    if (w == s->open_waits.end()) continue;
    const OpenWait wait = *w;
    s->open_waits.erase(w);
    // The stream's tasks from the wait on follow the record: its clock, and the checkpoints
    // the host learns from, take the record's entries.
    s->vc.join(record, s->index);
    VectorClock at_wait;
    auto pos = s->checkpoints.begin();
    for (; pos != s->checkpoints.end() && pos->seq < wait.seq; ++pos) at_wait = pos->vc;
    for (auto c = pos; c != s->checkpoints.end(); ++c) c->vc.join(record, s->index);
    if (pos == s->checkpoints.end() || pos->seq != wait.seq) {
      at_wait.join(record, s->index);
      s->checkpoints.insert(pos, Checkpoint{wait.seq, at_wait});
    }
    size_t keep = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      Pending &p = pending_[i];
      const Access &waiting = p.second_waits ? p.second : p.first;
      const Access &other = p.second_waits ? p.first : p.second;
      const bool decided = waiting.stream == s->index && waiting.epoch > wait.epoch;
      if (decided && record.get(other.stream) >= other.epoch) continue;  // ordered by the record
      if (!decided || behind_open_wait(waiting)) {
        if (keep != i) pending_[keep] = std::move(p);
        ++keep;
        continue;
      }
      report_race(p.kind, p.first, p.second);
    }
    pending_.resize(keep);
  }
}

void RaceChecker::settle_suspects() {
  auto resolved = [](const Access &a) { return !a.guessed || a.task->changed.has_value(); };
  auto writes = [](const Access &a) {
    if (!a.write) return false;
    if (!a.guessed) return true;
    const auto &c = *a.task->changed;
    return std::find(c.begin(), c.end(), a.begin) != c.end();
  };
  size_t keep = 0;
  for (size_t i = 0; i < suspects_.size(); ++i) {
    Suspect &s = suspects_[i];
    if (!resolved(s.first) || !resolved(s.second)) {
      if (keep != i) suspects_[keep] = std::move(s);
      ++keep;
      continue;
    }
    if (writes(s.first) || writes(s.second)) {
      Access a = s.first, b = s.second;
      a.write = writes(a);
      b.write = writes(b);
      report_race(s.kind, a, b);
    }
  }
  suspects_.resize(keep);
}

// Host code on a stream (a callback, a host func) runs after the tasks before it completed:
// it is a host synchronization with them, for whatever API calls it makes.
void RaceChecker::on_complete(const Stream &stream, const Task &task) {
  std::lock_guard lock(mu_);
  if (auto g = guessing_.find(&task); g != guessing_.end()) {
    std::vector<uintptr_t> changed;
    if (auto b = before_.find(&task); b != before_.end()) {  // skipped tasks never started
      const std::vector<uint64_t> after = guessed_hashes(task);
      size_t k = 0;
      for (const MemRange &r : task.ranges()) {
        if (!r.guessed) continue;
        if (r.size > kMaxHashedBytes || after[k] != b->second[k]) changed.push_back(r.begin);
        ++k;
      }
      before_.erase(b);
    }
    g->second->changed = std::move(changed);
    guessing_.erase(g);
    settle_suspects();
  }
  auto it = streams_.find(&stream);
  if (it == streams_.end()) return;
  StreamState &st = it->second;
  st.completed_seq = std::max(st.completed_seq, task.seq);
  while (!st.host_code.empty() && st.host_code.front() <= task.seq) st.host_code.pop_front();
  if (!st.host_code.empty() && st.host_code.front() == task.seq + 1) learn(st, task.seq);
}

void RaceChecker::on_stream_synchronized(const Stream &stream, uint64_t seq) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(&stream);
  if (it == streams_.end() || seq == 0) return;
  learn(it->second, seq);
}

void RaceChecker::learn(StreamState &st, uint64_t seq) {
  if (seq <= st.synced_seq || seq > st.last_seq) return;
  // The clock of task `seq`: the latest checkpoint at or before it, and its own entry.
  const Checkpoint *cp = nullptr;
  for (auto c = st.checkpoints.rbegin(); c != st.checkpoints.rend(); ++c) {
    if (c->seq <= seq) {
      cp = &*c;
      break;
    }
  }
  if (cp != nullptr) host_.join(cp->vc);
  host_.set(st.index, std::max(host_.get(st.index), st.base + seq));
  st.synced_seq = seq;
  while (st.checkpoints.size() >= 2 && st.checkpoints[1].seq <= seq) st.checkpoints.pop_front();
  ++host_version_;
}

void RaceChecker::on_record_synchronized(const Signal &record) {
  std::lock_guard lock(mu_);
  auto it = records_.find(&record);
  if (it == records_.end()) return;
  if (host_.join(it->second)) ++host_version_;
}

// --- the host's own accesses ---------------------------------------------------------------

void RaceChecker::on_host_access(const void *p, size_t n, bool write, const char *api) {
  if (n == 0) return;
  CallSite site;
  bool captured = false;
  std::lock_guard lock(mu_);
  auto begin = reinterpret_cast<uintptr_t>(p);
  Region *region = region_of(begin);
  if (region == nullptr) return;
  for (const Access &a : region->accesses) {
    if (dead(a) || !(a.write || write)) continue;
    if (!(a.begin < begin + n && begin < a.end)) continue;
    if (!captured) {
      site = capture_call_site();
      captured = true;
    }
    uintptr_t lo = std::max(a.begin, begin), hi = std::min(a.end, begin + n);
    std::ostringstream out;
    out << "host-race: " << api << " " << (write ? "writes" : "reads") << " "
        << memory_name(region->kind) << " " << range_text(lo, hi) << " that a pending task still "
        << (a.write ? "writes" : "reads") << "\n";
    out << "  task: " << (a.write ? "writes " : "reads  ") << task_text(*a.task) << "\n";
    out << "        enqueued by " << describe(*a.task->site) << "\n";
    out << "  host: " << describe(site) << "\n";
    out << "  missing: the host did not wait for the task. Call aclrtSynchronizeStream("
        << stream_arg(*a.task)
        << ") (or aclrtSynchronizeEvent on an event recorded after the "
           "task) before touching the buffer";
    reporter_.problem({"host-race", user_pc(*a.task->site), user_pc(site), 0}, out.str());
  }
}

void RaceChecker::on_free(const Allocation &a, const char *api) {
  CallSite site = capture_call_site();
  std::lock_guard lock(mu_);
  auto it = regions_.find(a.base);
  if (it == regions_.end()) return;
  const Access *pending = nullptr;
  size_t others = 0;
  for (const Access &acc : it->second.accesses) {
    if (dead(acc)) continue;
    if (pending == nullptr) {
      pending = &acc;
    } else {
      ++others;
    }
  }
  if (pending != nullptr) {
    std::ostringstream out;
    out << "use-after-free: " << api << " frees " << memory_name(a.kind) << " "
        << range_text(a.base, a.base + a.size) << " that a pending task still "
        << (pending->write ? "writes" : "reads") << "\n";
    out << "  task: " << task_text(*pending->task) << "\n";
    out << "        enqueued by " << describe(*pending->task->site) << "\n";
    if (others > 0) out << "  (and " << others << " more pending access(es))\n";
    out << "  free: " << describe(site) << "\n";
    out << "  missing: call aclrtSynchronizeStream(" << stream_arg(*pending->task) << ") before "
        << api << (a.kind == MemoryKind::device ? " (or use aclrtFreeWithDevSync)" : "");
    reporter_.problem({"use-after-free", user_pc(*pending->task->site), user_pc(site), 0},
                      out.str());
  }
  regions_.erase(it);
}

// --- objects, leaks, default context -------------------------------------------------------

void RaceChecker::on_object(ObjectKind kind, const void *handle, bool created) {
  if (!created) {
    std::lock_guard lock(mu_);
    objects_.erase(handle);
    if (is_memory(kind)) regions_.erase(reinterpret_cast<uintptr_t>(handle));
    return;
  }
  Object obj{kind, 0, 0, capture_call_site()};
  std::optional<Allocation> a;
  if (is_memory(kind)) a = Runtime::get().memory().find(handle);
  std::lock_guard lock(mu_);
  obj.order = object_order_++;
  if (a) {
    obj.bytes = a->size;
    regions_[a->base] = Region{a->size, a->kind, {}};
  }
  objects_.insert_or_assign(handle, std::move(obj));
}

bool RaceChecker::live(ObjectKind kind, const void *handle) const {
  Runtime &rt = Runtime::get();
  switch (kind) {
    case ObjectKind::context: {
      auto c = rt.contexts.find(handle);
      return c && !c->destroyed();
    }
    case ObjectKind::stream:
      return rt.streams.find(handle) != nullptr;
    case ObjectKind::event:
      return rt.events.find(handle) != nullptr;
    case ObjectKind::notify:
      return rt.notifies.find(handle) != nullptr;
    case ObjectKind::binary:
      return rt.binaries.find(handle) != nullptr;
    case ObjectKind::device_memory:
    case ObjectKind::host_memory:
    case ObjectKind::memory_mapping: {
      auto a = rt.memory().find(handle);
      return a && a->base == reinterpret_cast<uintptr_t>(handle);
    }
  }
  return false;
}

void RaceChecker::on_finalize_begin() {
  // Leaks are grouped by kind and creation site: a loop that leaks reports once, with a count.
  struct Group {
    ObjectKind kind = ObjectKind::context;
    uint64_t order = 0;
    size_t count = 0, bytes = 0;
    const void *first = nullptr;
    CallSite site;
  };
  std::map<std::pair<int, uintptr_t>, Group> groups;
  {
    std::lock_guard lock(mu_);
    for (const auto &[handle, obj] : objects_) {
      if (!live(obj.kind, handle)) continue;  // released with its context or device
      auto key = std::make_pair(static_cast<int>(obj.kind), user_pc(obj.site));
      auto [g, fresh] = groups.try_emplace(key);
      if (fresh) g->second.kind = obj.kind;
      if (fresh || obj.order < g->second.order) {
        g->second.order = obj.order;
        g->second.first = handle;
        g->second.site = obj.site;
      }
      ++g->second.count;
      g->second.bytes += obj.bytes;
    }
  }
  std::vector<const Group *> ordered;
  for (const auto &[key, g] : groups) ordered.push_back(&g);
  std::sort(ordered.begin(), ordered.end(),
            [](const Group *x, const Group *y) { return x->order < y->order; });
  for (const Group *g : ordered) {
    std::ostringstream out;
    out << "leak: ";
    if (g->count == 1) {
      out << object_name(g->kind, false) << " " << hex(g->first);
    } else {
      out << g->count << " " << object_name(g->kind, true) << " (the first " << hex(g->first)
          << ")";
    }
    if (g->bytes > 0) out << ", " << g->bytes << " bytes,";
    out << (g->count == 1 ? " was" : " were") << " never released with " << release_api(g->kind)
        << " before aclFinalize\n";
    out << "  created by " << describe(g->site);
    reporter_.problem({"leak", static_cast<uintptr_t>(g->kind), user_pc(g->site), 0}, out.str());
  }
}

void RaceChecker::on_default_context(const char *api) {
  CallSite site = capture_call_site();
  std::string name = api_name(api, site);
  std::ostringstream out;
  out << "warning: " << name << " used the default context of a device (the one aclrtSetDevice "
      << "creates); the AscendCL documentation says not to get or set it through the context "
      << "calls: create a context with aclrtCreateContext, or keep switching with aclrtSetDevice\n";
  out << "  call: " << describe(site);
  reporter_.warning({"warning", user_pc(site), 0, 0}, out.str());
}

void RaceChecker::on_finalize_end() {
  std::fprintf(stderr, "openacl-check: finished: %zu problem(s), %zu warning(s)\n",
               reporter_.problems(), reporter_.warnings());
}

void RaceChecker::on_exit_without_finalize() {
  // No leak report: without aclFinalize every object is still in use.
  std::fprintf(
      stderr,
      "openacl-check: finished at exit, without aclFinalize: %zu problem(s), %zu warning(s)\n",
      reporter_.problems(), reporter_.warnings());
}

}  // namespace openacl::check
