// A fuzz thread (worker.cpp, ops_*.cpp, scenarios.cpp): draws a random sequence of runtime
// calls from every family, with arguments drawn from the shared pools (live, destroyed, other
// threads' and other contexts' handles), NULL and made-up values. What a call may be given
// without the fuzzer itself misbehaving:
// - handles (context, stream, event, notify, binary, function): anything; the runtime looks
//   handles up, never dereferences them;
// - device-side pointers: anything, except in race-safe mode (fuzz.h);
// - host-side pointers the runtime dereferences (a memcpy's host side, args of a launch, out
//   parameters): a real buffer of the stated size that this thread owns, or NULL;
// - kernel arguments: only pointers to fuzzer memory with process lifetime, updated with
//   atomics (several streams may run the same kernel at once).
#pragma once

#include <chrono>
#include <vector>

#include "fuzz.h"
#include "kernel_args.h"

namespace fuzz {

inline constexpr size_t kMaxAlloc =
    64 << 10;  // fuzz allocations; the canary's are larger (canary.cpp)
inline constexpr size_t kHuge = size_t{1} << 40;

// Kernel payloads: process lifetime, touched only with atomics (worker.cpp).
extern int32_t g_sink[64];
extern int32_t g_count[64];
extern int32_t g_ran;
extern std::atomic<uint64_t> g_callback_data[16];

// The test kernels the fuzzer launches, with an argument block for each.
enum Kernel : size_t { kStore, kAppend, kSpin, kFail, kKernels };
inline const char *const kKernelNames[kKernels] = {"oat_store", "oat_append", "oat_spin",
                                                   "oat_fail"};

class Worker {
 public:
  Worker(int index, Progress &p)
      : w_(world()),
        p_(p),
        rng_(w_.opt.seed * 1000003 + static_cast<uint64_t>(index)),
        host_(kMaxAlloc + 64),
        race_safe_(w_.opt.race_safe) {}

  void run();

 private:
  template <class F>
  aclError call(const char *api, F &&f) {
    p_.call.store(api, std::memory_order_relaxed);
    auto t0 =
        w_.opt.verbose ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    aclError ret = f();
    if (w_.opt.verbose) record_time(api, std::chrono::steady_clock::now() - t0);
    aclError e = checked(p_, api, ret);
    if (e == ACL_ERROR_UNINITIALIZE && rng_.chance(0.05)) reinit();
    return e;
  }

  void step();
  void reinit();
  void maybe_finalize();

  // Argument choices.
  uintptr_t garbage();
  void *handle(Pool &pool, double null_p = 0.08);
  void *stream() { return handle(w_.streams, 0.15); }
  void created(Pool &pool, void *h);
  void *mine(Pool &pool);
  int32_t device_id();
  size_t size_near(size_t n);
  void *dev_ptr(size_t *avail);
  void *own_dev(Hold &h, size_t *avail, Own **own);
  void forget(uintptr_t p, std::vector<Own> &list);
  void free_other(void *p, bool host, bool sync);
  void drop_own(const Own &o, bool host, bool free, const Hold &h);
  int32_t timeout_ms();

  // Families.
  void op_lifecycle(uint64_t r);
  void op_context(uint64_t r);
  void op_stream(uint64_t r);
  void op_event(uint64_t r);
  void op_notify(uint64_t r);
  void op_alloc(uint64_t r);
  void op_copy(uint64_t r);
  void op_set(uint64_t r);
  void wrong_kind(bool async);
  void op_callback(uint64_t r);
  void op_kernel(uint64_t r);
  void op_scenario(uint64_t r);
  void learn_context();

  void destroy_evicted(Pool &pool, const Entry &e);
  void add(Pool &pool, uintptr_t v, size_t size = 0) {
    destroy_evicted(pool, pool.add({v, size}, rng_));
  }

  World &w_;
  Progress &p_;
  Rng rng_;
  std::vector<unsigned char> host_;  // pageable host buffer: always valid
  std::vector<Own> own_dev_, own_pinned_;
  bool race_safe_;
  // Streams, events and notifies this thread created, with the context current then, so that
  // a good share of calls pair objects of the current context (the rest fail R7's check).
  struct Mine {
    const Pool *pool;
    uintptr_t handle, context;
  };
  std::vector<Mine> mine_;
  uintptr_t context_ = 0;  // the context this thread believes is current
};

}  // namespace fuzz
