// The stream-race checker (docs/RULES.md R21, OPENACL_CHECK=1 or abort). It keeps a happens-before
// relation between tasks with vector clocks (one entry per stream):
//   - stream order: a task follows every earlier task of its stream;
//   - events: a stream wait follows the event record it waits for, and what preceded it;
//   - the host: a stream or event synchronization teaches the host everything the synchronized
//     task knew, and every task enqueued afterwards starts from the host's knowledge.
// Against that it checks every memory range a task reads or writes (Task::ranges()) and the
// host's own accesses, frees and leaks, and reports through a Reporter.
//
// Thread safety: hooks are called from API threads and device workers, under stream locks;
// one mutex guards the checker's state, and the checker never calls back into a stream.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "check/call_site.h"
#include "check/reporter.h"
#include "check/vector_clock.h"
#include "core/memory.h"
#include "core/observer.h"
#include "core/task.h"

namespace openacl::check {

class RaceChecker final : public TaskObserver {
 public:
  explicit RaceChecker(bool abort_on_problem) : reporter_(abort_on_problem) {}

  void on_enqueue(const Stream &stream, const Task &task) override;
  void on_start(const Stream &stream, const Task &task) override;
  void on_complete(const Stream &stream, const Task &task) override;
  void on_stream_synchronized(const Stream &stream, uint64_t seq) override;
  void on_record_synchronized(const Signal &record) override;
  void on_host_access(const void *p, size_t n, bool write, const char *api) override;
  void on_free(const Allocation &a, const char *api) override;
  void on_object(ObjectKind kind, const void *handle, bool created) override;
  void on_default_context(const char *api) override;
  void on_finalize_begin() override;
  void on_finalize_end() override;
  void on_exit_without_finalize() override;

  const Reporter &reporter() const { return reporter_; }

 private:
  // What a report says about a task.
  struct TaskInfo {
    const void *stream;
    const void *context;
    int32_t device;
    bool default_stream;
    TaskKind kind;
    std::string label;
    uint64_t seq;
    std::shared_ptr<const CallSite> site;
    // A kernel's guessed ranges that it really changed (their first byte), once it ran;
    // written under the checker's mutex.
    mutable std::optional<std::vector<uintptr_t>> changed;
  };
  // One range a task reads or writes, stamped with the task's clock entry.
  struct Access {
    uint32_t stream;
    uint64_t epoch;
    uintptr_t begin, end;
    bool write;
    bool guessed;  // a kernel argument's range: whether it writes is known once it ran
    std::shared_ptr<const TaskInfo> task;
  };
  // Two unordered kernel accesses that race if either kernel really wrote the range: decided
  // when both kernels have run (the range is hashed before and after each).
  struct Suspect {
    MemoryKind kind;
    Access first, second;
  };
  // An allocation the runtime handed out, with the accesses that may still race.
  struct Region {
    size_t size;
    MemoryKind kind;
    std::vector<Access> accesses;
  };
  struct Checkpoint {
    uint64_t seq;    // from this task of the stream on ...
    VectorClock vc;  // ... the other streams' entries are these
  };
  // A notify or value wait enqueued before any record that could release it: the tasks behind
  // it follow whichever record comes, which the checker learns only then.
  struct OpenWait {
    const void *key;
    uint64_t seq, epoch;
  };
  // Two unordered accesses, one of them behind an open wait of its stream: a race unless the
  // record that answers the wait turns out to follow the other access.
  struct Pending {
    MemoryKind kind;
    Access first, second;
    bool second_waits;  // which of the two sits behind the open wait
  };
  struct StreamState {
    uint32_t index = 0;
    uint64_t base = 0;      // epoch = base + seq: a new stream at a reused address goes on
    uint64_t last_seq = 0;  // from where the old one stopped
    uint64_t synced_seq = 0;
    uint64_t host_version = 0;
    VectorClock vc;  // clock of the latest enqueued task
    std::deque<Checkpoint> checkpoints;
    uint64_t completed_seq = 0;
    std::deque<uint64_t> host_code;  // seqs of callbacks and host funcs not yet started
    std::vector<OpenWait> open_waits;
  };
  struct Object {
    ObjectKind kind;
    uint64_t order;
    size_t bytes;
    CallSite site;
  };

  // Backtraces cost ~2 us, more than the rest of the checker: a task's call site is captured
  // once per signature (stream, kind, label, first range), then shared.
  struct SiteKey {
    const void *stream;
    TaskKind kind;
    uintptr_t begin;
    size_t size;
    size_t label_hash;
    bool operator==(const SiteKey &) const = default;
  };
  struct SiteKeyHash {
    size_t operator()(const SiteKey &k) const {
      size_t h = std::hash<const void *>()(k.stream);
      for (size_t v : {size_t(k.begin), k.size, k.label_hash, size_t(k.kind)}) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      }
      return h;
    }
  };
  std::shared_ptr<const CallSite> site_of(SiteKey key);

  StreamState &state_of(const Stream &stream);
  // The host has seen task `seq` of the stream complete: it learns the task's clock.
  void learn(StreamState &st, uint64_t seq);
  bool dead(const Access &a) const { return host_.get(a.stream) >= a.epoch; }
  Region *region_of(uintptr_t p);
  void check_range(Region &region, const MemRange &r, const StreamState &st, uint64_t epoch,
                   const std::shared_ptr<const TaskInfo> &task);
  void report_race(MemoryKind kind, const Access &first, const Access &second);
  // Reports or drops the suspects whose kernels have both run.
  void settle_suspects();
  // Whether the access sits behind an open wait of its stream.
  bool behind_open_wait(const Access &a) const;
  // A record (notify, value write) was enqueued with this clock: the open waits on its key now
  // follow it, and the pending races behind them are decided.
  void answer_open_waits(const void *key, const VectorClock &record);
  bool live(ObjectKind kind, const void *handle) const;

  std::mutex mu_;
  std::unordered_map<const Stream *, StreamState> streams_;
  std::vector<StreamState *> by_index_;  // streams_' states by their index (nodes never move)
  std::vector<Pending> pending_;
  VectorClock host_;           // what the host has seen complete
  uint64_t host_version_ = 0;  // bumps when host_ grows
  // Keyed by an event's record (Signal), a notify, or the address of a value write.
  std::unordered_map<const void *, VectorClock> records_;
  std::deque<const void *> record_order_;
  std::map<uintptr_t, Region> regions_;
  std::vector<Suspect> suspects_;
  // Kernels with guessed ranges between enqueue and completion: their info, and the hashes of
  // those ranges taken when they started.
  std::unordered_map<const Task *, std::shared_ptr<const TaskInfo>> guessing_;
  std::unordered_map<const Task *, std::vector<uint64_t>> before_;
  std::unordered_map<const void *, Object> objects_;
  uint64_t object_order_ = 0;
  std::mutex sites_mu_;
  std::unordered_map<SiteKey, std::shared_ptr<const CallSite>, SiteKeyHash> sites_;
  Reporter reporter_;
};

}  // namespace openacl::check
