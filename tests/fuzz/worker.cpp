// The fuzz thread's frame: argument choices, own memory, pool eviction, finalize, the main
// loop, and the callbacks it launches.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "worker.h"

namespace fuzz {

uintptr_t Worker::garbage() {
  switch (rng_.below(5)) {
    case 0:
      return 0x1;
    case 1:
      return 0x1234;
    case 2:
      return 0xdeadbeef;
    case 3:
      return ~uintptr_t{0};
    default:
      return rng_.next() | (uintptr_t{1} << 63);  // non-canonical: never mapped
  }
}

void *Worker::handle(Pool &pool, double null_p) {
  if (rng_.chance(null_p)) return nullptr;
  if (rng_.chance(0.5))
    if (void *h = mine(pool)) return h;
  Entry e;
  if (rng_.chance(0.05) || !pool.pick(rng_, &e)) return reinterpret_cast<void *>(garbage());
  return reinterpret_cast<void *>(e.value);
}

// One of this thread's objects of `pool` made in the current context, or nullptr.
void *Worker::mine(Pool &pool) {
  size_t n = 0;
  for (auto &m : mine_) n += m.pool == &pool && m.context == context_;
  if (n == 0) return nullptr;
  size_t k = rng_.below(n);
  for (auto &m : mine_)
    if (m.pool == &pool && m.context == context_ && k-- == 0)
      return reinterpret_cast<void *>(m.handle);
  return nullptr;
}

// A new object: into the shared pool, and into this thread's own recent list.
void Worker::created(Pool &pool, void *h) {
  if (mine_.size() >= 24) mine_.erase(mine_.begin());
  mine_.push_back({&pool, reinterpret_cast<uintptr_t>(h), context_});
  add(pool, reinterpret_cast<uintptr_t>(h));
}

// After aclrtSetDevice: which (default) context this thread is bound to now.
void Worker::learn_context() {
  aclrtContext c = nullptr;
  context_ =
      call("aclrtGetCurrentContext", [&] { return aclrtGetCurrentContext(&c); }) == ACL_SUCCESS
          ? reinterpret_cast<uintptr_t>(c)
          : 0;
}

int32_t Worker::device_id() {
  if (rng_.chance(0.03)) return rng_.chance(0.5) ? -1 : 2 + static_cast<int32_t>(rng_.below(1000));
  return static_cast<int32_t>(rng_.below(2));
}

// A size around n: 0, n, a part of it, one past, or huge.
size_t Worker::size_near(size_t n) {
  switch (rng_.below(10)) {
    case 0:
      return 0;
    case 1:
      return n + 1;
    case 2:
      return rng_.chance(0.5) ? kHuge : ~size_t{0};
    case 3:
    case 4:
      return n;
    default:
      return n == 0 ? 0 : 1 + rng_.below(n);
  }
}

int32_t Worker::timeout_ms() {
  switch (rng_.below(8)) {
    case 0:
      return -1;  // forever: every fuzz task finishes in bounded time
    case 1:
      return -2 - static_cast<int32_t>(rng_.below(5));  // invalid
    default:
      return 1 + static_cast<int32_t>(rng_.below(20));
  }
}

// A device-side pointer for a call that the runtime must validate: anything in wild mode; in
// race-safe mode only made-up values (never allocated), which the runtime must reject.
void *Worker::dev_ptr(size_t *avail) {
  *avail = kMaxAlloc;
  if (rng_.chance(0.05)) return nullptr;
  if (race_safe_ || rng_.chance(0.1)) return reinterpret_cast<void *>(garbage());
  Entry e;
  Pool &pool = rng_.chance(0.85) ? w_.dev_mem : w_.host_mem;  // host_mem: wrong kind
  if (!pool.pick(rng_, &e)) return reinterpret_cast<void *>(garbage());
  size_t off = 0;
  switch (rng_.below(6)) {
    case 0:
      off = e.size;
      break;  // one past the end
    case 1:
      off = e.size == 0 ? 0 : rng_.below(e.size);
      break;  // inside
    case 2:
      off = (e.size == 0 ? 0 : rng_.below(e.size)) & ~size_t{63};
      break;
    default:
      break;  // the start
  }
  *avail = e.size - std::min(off, e.size);
  return reinterpret_cast<void *>(e.value + off);
}

// One of this thread's own live device buffers (nullptr if none), under h.
void *Worker::own_dev(Hold &h, size_t *avail, Own **own) {
  *own = nullptr;
  if (own_dev_.empty()) return nullptr;
  Own &o = own_dev_[rng_.below(own_dev_.size())];
  if (!h.alive(o)) return nullptr;
  *own = &o;
  size_t off = o.size == 0 ? 0 : rng_.below(o.size) & ~size_t{3};
  *avail = o.size - off;
  return reinterpret_cast<void *>(o.p + off);
}

// Drops an own buffer that a failed synchronization left possibly in use: never touched again
// (aclFinalize releases it).
void Worker::forget(uintptr_t p, std::vector<Own> &list) {
  std::lock_guard lock(w_.owned.mu);
  std::erase_if(list, [&](const Own &x) {
    if (x.p != p) return false;
    w_.owned.release(x.p, this, x.fin);
    return true;
  });
}

// aclrtFree / aclrtFreeWithDevSync / aclrtFreeHost of a value from a pool (or made up),
// unless it lies in a buffer some thread owns (see Owned).
void Worker::free_other(void *p, bool host, bool sync) {
  std::lock_guard lock(w_.owned.mu);
  if (w_.owned.contains(reinterpret_cast<uintptr_t>(p))) return;
  aclError e =
      host ? (sync ? call("aclrtFreeHostWithDevSync", [&] { return aclrtFreeHostWithDevSync(p); })
                   : call("aclrtFreeHost", [&] { return aclrtFreeHost(p); }))
           : (sync ? call("aclrtFreeWithDevSync", [&] { return aclrtFreeWithDevSync(p); })
                   : call("aclrtFree", [&] { return aclrtFree(p); }));
  if (e == ACL_SUCCESS && !host) w_.stats.live_mem.fetch_sub(1);
}

// An own buffer leaves this thread: freed if it is still alive (and `free`), and no longer owned.
void Worker::drop_own(const Own &o, bool host, bool free, const Hold &h) {
  std::lock_guard lock(w_.owned.mu);
  void *p = reinterpret_cast<void *>(o.p);
  if (free && h.alive(o)) {
    aclError e = host ? call("aclrtFreeHost", [&] { return aclrtFreeHost(p); })
                      : call("aclrtFree", [&] { return aclrtFree(p); });
    if (e == ACL_SUCCESS && !host) w_.stats.live_mem.fetch_sub(1);
  }
  w_.owned.release(o.p, this, o.fin);
}

// A value pushed out of a full pool is destroyed, so that long runs do not pile up objects.
void Worker::destroy_evicted(Pool &pool, const Entry &e) {
  if (e.value == 0) return;
  void *h = reinterpret_cast<void *>(e.value);
  aclError r = ACL_ERROR_INVALID_PARAM;
  if (&pool == &w_.streams) {
    r = call("aclrtDestroyStream", [&] { return aclrtDestroyStream(h); });
    if (r == ACL_SUCCESS) w_.stats.live_streams.fetch_sub(1);
  } else if (&pool == &w_.events) {
    r = call("aclrtDestroyEvent", [&] { return aclrtDestroyEvent(h); });
    if (r == ACL_SUCCESS) w_.stats.live_events.fetch_sub(1);
  } else if (&pool == &w_.contexts) {
    r = call("aclrtDestroyContext", [&] { return aclrtDestroyContext(h); });
    if (r == ACL_SUCCESS) w_.stats.live_contexts.fetch_sub(1);
  } else if (&pool == &w_.notifies) {
    call("aclrtDestroyNotify", [&] { return aclrtDestroyNotify(h); });
  } else if (&pool == &w_.dev_mem) {
    free_other(h, false, false);
  } else if (&pool == &w_.host_mem) {
    free_other(h, true, false);
  } else if (&pool == &w_.binaries) {
    call("aclrtBinaryUnLoad", [&] { return aclrtBinaryUnLoad(h); });
  }
}

void Worker::reinit() {
  aclError e = call("aclInit", [] { return aclInit(nullptr); });
  if (e == ACL_SUCCESS) w_.stats.inits.fetch_add(1);
}

// aclFinalize, at most once per `finalize_every` calls of all threads together.
void Worker::maybe_finalize() {
  Lifecycle &l = w_.life;
  uint64_t now = w_.stats.calls.load(), last = l.calls_at_last.load();
  if (now - last < w_.opt.finalize_every || !l.calls_at_last.compare_exchange_strong(last, now)) {
    call("aclrtGetDevice", [] {
      int32_t d;
      return aclrtGetDevice(&d);
    });
    return;
  }
  {
    // Close: no thread may start passing its own memory; wait for those that do.
    std::lock_guard lock(l.fin_mu);
    l.closing.store(true);
    while (l.holders.load() != 0) std::this_thread::yield();
    l.started.fetch_add(1);
    l.closing.store(false);
  }
  aclError e = call("aclFinalize", [] { return aclFinalize(); });
  l.ended.fetch_add(1);
  if (e == ACL_SUCCESS) {
    w_.stats.finalizes.fetch_add(1);
    w_.stats.live_streams.store(0);
    w_.stats.live_events.store(0);
    w_.stats.live_contexts.store(0);
    w_.stats.live_mem.store(0);
  }
  if (rng_.chance(0.9)) reinit();
}

// One call (or a short dependent pair) from a family drawn by weight.
void Worker::step() {
  uint64_t r = rng_.next();
  uint64_t family = r % 100;
  r >>= 8;
  if (family < 6) op_lifecycle(r);
  else if (family < 12) op_context(r);
  else if (family < 24) op_stream(r);
  else if (family < 36) op_event(r);
  else if (family < 40) op_notify(r);
  else if (family < 50) op_alloc(r);
  else if (family < 62) op_copy(r);
  else if (family < 70) op_set(r);
  else if (family < 78) op_callback(r);
  else if (family < 88) op_kernel(r);
  else op_scenario(r);
}

void Worker::run() {
  name_thread(p_);
  int32_t d = static_cast<int32_t>(rng_.below(2));
  if (call("aclrtSetDevice", [&] { return aclrtSetDevice(d); }) == ACL_SUCCESS) learn_context();
  while (!w_.stop.load(std::memory_order_relaxed)) {
    if (w_.opt.seconds <= 0 && p_.calls.load(std::memory_order_relaxed) >= w_.opt.calls) break;
    step();
  }
  std::lock_guard lock(w_.owned.mu);  // this thread's buffers stay allocated but unowned
  for (auto *list : {&own_dev_, &own_pinned_})
    for (const Own &o : *list) w_.owned.release(o.p, this, o.fin);
  p_.call.store("(done)");
  p_.done.store(true);
  w_.workers_left.fetch_sub(1);
}

int32_t g_sink[64];
int32_t g_count[64];
int32_t g_ran;
std::atomic<uint64_t> g_callback_data[16];

void fuzz_callback(void *data) {
  world().stats.callbacks_run.fetch_add(1, std::memory_order_relaxed);
  if (data) static_cast<std::atomic<uint64_t> *>(data)->fetch_add(1, std::memory_order_relaxed);
  // A fault in user code (issue 10): the runtime must fail the stream, not the process.
  if (world().opt.faults && (world().stats.callbacks_run.load() % 997) == 0)
    throw std::runtime_error("fuzz: a callback that throws");
}

void fuzz_host_func(void *data) {
  world().stats.callbacks_run.fetch_add(1, std::memory_order_relaxed);
  if (data) static_cast<std::atomic<uint64_t> *>(data)->fetch_add(1, std::memory_order_relaxed);
  if (world().opt.faults && (world().stats.callbacks_run.load() % 1009) == 0)
    throw 42;  // not a std::exception
}

void run_worker(int index, Progress &p) { Worker(index, p).run(); }

}  // namespace fuzz
