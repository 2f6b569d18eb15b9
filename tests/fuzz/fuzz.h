// The API-sequence fuzzer (issue 10): shared state of the fuzz threads, the canary and the
// watchdog. Everything the threads share lives in World; everything one thread owns lives in
// Worker. See README.md in this folder for the design and the invariants.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace fuzz {

// Race-safe mode (on under TSan): device and pinned memory that a call reads or writes
// successfully is always the calling thread's own, and every async data task is synchronized
// before the memory is touched again. Two streams writing one buffer is the program's own
// data race (the checker of R21 reports it); TSan would flag it inside the runtime's memcpy.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kRaceSafeDefault = true;
#else
inline constexpr bool kRaceSafeDefault = false;
#endif

struct Options {
  uint64_t seed = 1;
  uint64_t calls = 100000;      // per fuzz thread
  int threads = 8;              // fuzz threads (the canary and report servers come on top)
  int stall_s = 20;             // watchdog: abort when no thread progressed for this long
  uint64_t finalize_every = 0;  // calls (all threads) between finalizes; 0: calls*threads/4
  double seconds = 0;           // > 0: run for this long instead of a call count (soak)
  int stats_s = 0;              // > 0: print a stats line this often
  bool faults = true;           // callbacks and host functions that throw, kernels that fail
  bool race_safe = kRaceSafeDefault;
  bool verbose = false;
};

// Deterministic per-thread random numbers (splitmix64 seeding xoshiro256**).
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <class T>
  const T &pick(const std::vector<T> &v) {
    return v[below(v.size())];
  }

 private:
  uint64_t s_[4];
};

// A thread's progress as the watchdog and the death callback see it.
struct Progress {
  std::atomic<const char *> call{"(start)"};
  std::atomic<uint64_t> calls{0};
  std::atomic<bool> done{false};
  char name[24] = {};
};

// One value of a handle pool. For memory, size is the allocation size.
struct Entry {
  uintptr_t value = 0;
  size_t size = 0;
};

// A fixed-size pool of handle values shared by all threads. Values are never removed when
// their object dies: a destroyed handle stays in the pool as a stale one. A new value replaces
// a random slot once the pool is full; the caller gets the replaced value back to destroy.
class Pool {
 public:
  explicit Pool(size_t capacity) : capacity_(capacity) {}
  // Returns the evicted entry (value 0 if none).
  Entry add(Entry e, Rng &rng);
  bool pick(Rng &rng, Entry *out);
  // Whether [lo, hi) meets a value of the pool or one of the last values it evicted.
  bool overlaps(uintptr_t lo, uintptr_t hi);
  void clear();
  size_t size();

 private:
  std::mutex mu_;
  size_t capacity_;
  std::vector<Entry> items_;
  std::vector<Entry> evicted_;  // a ring of the last 256
  size_t next_evicted_ = 0;
};

// aclFinalize coordination. Finalize releases all pinned and device memory, so memory a
// thread owns is tagged with the number of finalizes started before it was allocated, and a
// thread passes it to the runtime only inside a Hold (ops.cpp) that sees no finalize started
// since: using it afterwards would be the fuzzer's own use-after-free. A finalizing thread
// sets `closing`, waits until no thread holds, raises `started`, calls aclFinalize, and raises
// `ended` (a Dekker-style handshake on seq_cst atomics; a lock would starve the finalizer).
struct Lifecycle {
  std::mutex
      fin_mu;  // one finalizer at a time through the handshake (aclFinalize itself may overlap)
  std::atomic<bool> closing{false};
  std::atomic<int> holders{0};
  std::atomic<uint64_t> started{0}, ended{0};
  std::atomic<uint64_t> calls_at_last{0};
};

// Memory a thread allocated and nobody else frees (except aclFinalize).
struct Own {
  uintptr_t p = 0;
  size_t size = 0;
  uint64_t fin = 0;  // Lifecycle::started when allocated
};

// Holds off aclFinalize while a thread passes memory it owns to the runtime; see Lifecycle.
class Hold {
 public:
  explicit Hold(Lifecycle &l) : l_(l) {
    l_.holders.fetch_add(1);
    ok_ = !l_.closing.load() && l_.started.load() == l_.ended.load();
  }
  ~Hold() { l_.holders.fetch_sub(1); }
  Hold(const Hold &) = delete;
  Hold &operator=(const Hold &) = delete;
  // No finalize runs now, and none started since `o` was allocated.
  bool alive(const Own &o) const { return ok_ && l_.started.load() == o.fin; }
  // No finalize runs now: memory allocated under this Hold is tagged with epoch().
  bool ok() const { return ok_; }
  uint64_t epoch() const { return l_.started.load(); }

 private:
  Lifecycle &l_;
  bool ok_;
};

struct Stats {
  std::atomic<uint64_t> calls{0}, failures{0}, successes{0};
  std::atomic<uint64_t> finalizes{0}, inits{0};
  std::atomic<uint64_t> violations{0}, internal_errors{0};
  std::atomic<uint64_t> canary_rounds{0}, canary_void{0}, canary_fail{0};
  std::atomic<uint64_t> callbacks_run{0};
  std::atomic<int64_t> live_streams{0}, live_events{0}, live_contexts{0}, live_mem{0};
};

// The live allocations that threads own. A stale pointer in a pool may name an address that
// the allocator has since handed to a thread as its own buffer: freeing it would free that
// buffer behind its owner's back, and the owner's next copy through it would be the fuzzer's
// use-after-free. So frees of pool values skip owned ranges, and own allocations and frees of
// pool values are serialized by `mu`. After aclFinalize one address may be owned again, by
// another thread or in another epoch: a range is released only by the owner and epoch that
// registered it, never by the holder of a stale buffer at the same address.
struct Owned {
  struct Range {
    size_t size;
    const void *owner;
    uint64_t fin;  // Lifecycle::started when allocated
  };
  std::mutex mu;
  std::map<uintptr_t, Range> ranges;
  bool contains(uintptr_t p) const {  // under mu
    auto it = ranges.upper_bound(p);
    if (it == ranges.begin()) return false;
    --it;
    return p - it->first < std::max<size_t>(it->second.size, 1);
  }
  void add(uintptr_t p, size_t size, const void *owner, uint64_t fin) {
    ranges[p] = {size, owner, fin};
  }                                                             // under mu
  void release(uintptr_t p, const void *owner, uint64_t fin) {  // under mu
    auto it = ranges.find(p);
    if (it != ranges.end() && it->second.owner == owner && it->second.fin == fin) ranges.erase(it);
  }
};

struct World {
  Options opt;
  Owned owned;
  Lifecycle life;
  Stats stats;
  Pool contexts{16}, streams{48}, events{48}, notifies{24}, dev_mem{64}, host_mem{24};
  Pool binaries{8}, funcs{24}, report_tids{4};
  std::string kernels_path;
  std::vector<Progress *> progress;  // fuzz threads, canary, report servers
  std::atomic<bool> stop{false};
  // Fuzz threads still running: the report servers serve until the last one is done (a
  // thread finishing its step may still synchronize a stream whose callback needs them).
  std::atomic<int> workers_left{0};
  std::atomic<uint64_t> total_target{0};
};

World &world();

// Checks the invariants on a call's returned code (documented; a failure leaves a message
// that starts with the call's name) and counts the call as progress. The caller has stored
// the call's name (exactly as the API spells it) in p.call before making the call.
aclError checked(Progress &p, const char *api, aclError ret);

// Invariant bookkeeping (check.cpp).
bool documented(aclError code);
void violation(const char *who, const char *api, const std::string &what);
void print_per_api();                                                      // with -v
void record_time(const char *api, std::chrono::steady_clock::duration d);  // with -v

// The threads (ops.cpp, canary.cpp).
void run_worker(int index, Progress &p);
void run_canary(Progress &p);
void run_report_server(int index, Progress &p);

// Names the calling thread after p (main.cpp).
void name_thread(const Progress &p);

// Callback and kernel payloads with process lifetime (ops.cpp).
void fuzz_callback(void *data);
void fuzz_host_func(void *data);

}  // namespace fuzz
