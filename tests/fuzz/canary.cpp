// The canary: one thread that owns its context, stream, device buffers and kernel and uses them
// correctly throughout, while the fuzz threads misuse everything around it. Each round puts a
// known pattern through copies, a kernel and memsets on its stream, synchronizes, and checks
// every value exactly.
//
// aclFinalize (any fuzz thread, now and then) releases the canary's objects too. A round during
// which a finalize started proves nothing and is void: the canary re-creates its objects in the
// new runtime and goes on. Any other error, and any wrong value, is a violation.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fuzz.h"
#include "kernel_args.h"

namespace fuzz {

namespace {

// Larger than any fuzz allocation (ops.cpp, 64 KiB), so that the allocator serves it from other
// memory than the fuzz threads' freed buffers, whose stale pointers the fuzz threads still use.
constexpr size_t kFloats = 64 << 10;  // 256 KiB
constexpr size_t kBytes = kFloats * sizeof(float);

class Canary {
 public:
  explicit Canary(Progress &p) : w_(world()), p_(p) {}
  void run();

 private:
  // A call; false (and the round is over) on failure. A failure is a violation unless a
  // finalize started since the round's objects were made.
  template <class F>
  bool ok(const char *api, F &&f) {
    p_.call.store(api, std::memory_order_relaxed);
    aclError e = checked(p_, api, f());
    if (e == ACL_SUCCESS) return true;
    if (!finalized_since())
      violation(p_.name, api,
                "the canary's correct call failed with " + std::to_string(e) + " [" +
                    aclGetRecentErrMsg() + "]");
    return false;
  }
  bool finalized_since() const { return w_.life.started.load() != epoch_; }
  bool setup();
  bool aliased();
  bool round(uint32_t n);
  void drop();

  World &w_;
  Progress &p_;
  uint64_t epoch_ = 0;
  bool ready_ = false;
  aclrtContext ctx_ = nullptr;
  aclrtStream stream_ = nullptr;
  aclrtFuncHandle vadd_ = nullptr;
  void *a_ = nullptr, *b_ = nullptr, *c_ = nullptr, *pin_in_ = nullptr, *pin_out_ = nullptr;
  std::vector<float> pageable_;
};

bool Canary::setup() {
  Hold h(w_.life);
  if (!h.ok()) return false;  // a finalize runs: try again later
  epoch_ = h.epoch();
  aclError e = checked(p_, "aclInit", (p_.call.store("aclInit"), aclInit(nullptr)));
  if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) return false;
  int32_t dev = static_cast<int32_t>(w_.stats.canary_rounds.load() % 2);
  aclrtBinHandle bin = nullptr;
  // Owned (fuzz.h): frees of stale pool values never reach the canary's buffers.
  std::lock_guard lock(w_.owned.mu);
  ready_ =
      ok("aclrtCreateContext", [&] { return aclrtCreateContext(&ctx_, dev); }) &&
      ok("aclrtCreateStream", [&] { return aclrtCreateStream(&stream_); }) &&
      ok("aclrtMalloc", [&] { return aclrtMalloc(&a_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); }) &&
      ok("aclrtMalloc", [&] { return aclrtMalloc(&b_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); }) &&
      ok("aclrtMalloc", [&] { return aclrtMalloc(&c_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); }) &&
      ok("aclrtMallocHost", [&] { return aclrtMallocHost(&pin_in_, kBytes); }) &&
      ok("aclrtMallocHost", [&] { return aclrtMallocHost(&pin_out_, kBytes); }) &&
      ok("aclrtBinaryLoadFromFile",
         [&] { return aclrtBinaryLoadFromFile(w_.kernels_path.c_str(), nullptr, &bin); }) &&
      ok("aclrtBinaryGetFunction", [&] { return aclrtBinaryGetFunction(bin, "oat_vadd", &vadd_); });
  for (void *p : {a_, b_, c_, pin_in_, pin_out_})
    if (p) w_.owned.add(reinterpret_cast<uintptr_t>(p), kBytes, this, epoch_);
  return ready_;
}

// Whether a value in the fuzz memory pools points into the canary's buffers: after address reuse
// (a release build's malloc) a fuzz thread's stale pointer may, and its writes are legal misuse.
bool Canary::aliased() {
  for (void *p : {a_, b_, c_, pin_in_, pin_out_}) {
    auto lo = reinterpret_cast<uintptr_t>(p);
    if (w_.dev_mem.overlaps(lo, lo + kBytes) || w_.host_mem.overlaps(lo, lo + kBytes)) {
      std::fprintf(stderr, "[fuzz] canary: a stale fuzz pointer aliases its buffer: round void\n");
      w_.stats.canary_void.fetch_add(1);
      return true;
    }
  }
  return false;
}

// Releases the objects if they are still this runtime's; after a finalize they are gone.
void Canary::drop() {
  Hold h(w_.life);
  std::lock_guard lock(w_.owned.mu);  // no stale free reaches the buffers between the two steps
  if (ready_ && h.ok() && !finalized_since()) {
    ok("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(stream_); });
    for (void *p : {a_, b_, c_}) ok("aclrtFree", [&] { return aclrtFree(p); });
    for (void *p : {pin_in_, pin_out_}) ok("aclrtFreeHost", [&] { return aclrtFreeHost(p); });
    ok("aclrtDestroyStream", [&] { return aclrtDestroyStream(stream_); });
    ok("aclrtDestroyContext", [&] { return aclrtDestroyContext(ctx_); });
  }
  for (void *p : {a_, b_, c_, pin_in_, pin_out_})
    if (p) w_.owned.release(reinterpret_cast<uintptr_t>(p), this, epoch_);
  ready_ = false;
  a_ = b_ = c_ = pin_in_ = pin_out_ = nullptr;
}

// One round: a = in, b = pageable, c = a + b (kernel), a = 0 (memset after the kernel), then
// c and a come back; stream order makes every value exact.
bool Canary::round(uint32_t n) {
  {
    Hold h(w_.life);  // the pinned buffers and the kernel's pointers are alive while it holds
    if (!h.ok() || finalized_since()) return false;
    auto *in = static_cast<float *>(pin_in_);
    for (size_t i = 0; i < kFloats; ++i) {
      in[i] = static_cast<float>((i + n) % 1024);
      pageable_[i] = static_cast<float>((i * 3 + n) % 512);
    }
    OatVadd args{static_cast<float *>(a_), static_cast<float *>(b_), static_cast<float *>(c_),
                 kFloats};
    uint32_t blocks = 1 + n % 8;
    if (!(ok("aclrtMemsetAsync",
             [&] { return aclrtMemsetAsync(c_, kBytes, 0xff, kBytes, stream_); }) &&
          ok("aclrtMemcpyAsync",
             [&] {
               return aclrtMemcpyAsync(a_, kBytes, pin_in_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                       stream_);
             }) &&
          ok("aclrtMemcpyAsync",
             [&] {
               return aclrtMemcpyAsync(b_, kBytes, pageable_.data(), kBytes,
                                       ACL_MEMCPY_HOST_TO_DEVICE, stream_);
             }) &&
          ok("aclrtLaunchKernel",
             [&] { return aclrtLaunchKernel(vadd_, blocks, &args, sizeof args, stream_); }) &&
          ok("aclrtMemsetAsync",
             [&] { return aclrtMemsetAsync(a_, kBytes, 0, kBytes, stream_); }) &&
          ok("aclrtMemcpyAsync", [&] {
            return aclrtMemcpyAsync(pin_out_, kBytes, c_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                    stream_);
          })))
      return false;
  }
  if (!ok("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(stream_); })) return false;
  // a must read back as zeros (synchronous copy into pageable memory).
  std::vector<float> a_back(kFloats, -1.0f);
  if (!ok("aclrtMemcpy", [&] {
        return aclrtMemcpy(a_back.data(), kBytes, a_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
      }))
    return false;
  Hold h(w_.life);
  if (!h.ok() || finalized_since()) return false;
  const auto *out = static_cast<const float *>(pin_out_);
  for (size_t i = 0; i < kFloats; ++i) {
    float want = static_cast<float>((i + n) % 1024) + static_cast<float>((i * 3 + n) % 512);
    if (out[i] != want || a_back[i] != 0.0f) {
      if (aliased()) return false;  // void: a fuzz thread's stale pointer reached the buffers
      w_.stats.canary_fail.fetch_add(1);
      violation(p_.name, "canary",
                "round " + std::to_string(n) + ": c[" + std::to_string(i) +
                    "] = " + std::to_string(out[i]) + " (want " + std::to_string(want) +
                    "), a[i] = " + std::to_string(a_back[i]) + " (want 0)");
      return false;
    }
  }
  return true;
}

void Canary::run() {
  name_thread(p_);
  pageable_.resize(kFloats);
  uint32_t n = 0;
  while (!w_.stop.load()) {
    if (!ready_ && !setup()) {
      drop();
      w_.stats.canary_void.fetch_add(1);
      p_.calls.fetch_add(1);  // waiting for a finalize to end is progress too
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    if (round(n++)) {
      w_.stats.canary_rounds.fetch_add(1);
      std::this_thread::sleep_for(
          std::chrono::milliseconds(2));  // leave the cores to the fuzz threads
      // Now and then start over with new objects (destroying its own, correctly).
      if (n % 16 == 0) drop();
    } else {
      if (finalized_since()) w_.stats.canary_void.fetch_add(1);
      drop();
    }
  }
  drop();
  p_.call.store("(done)");
  p_.done.store(true);
}

}  // namespace

void run_canary(Progress &p) { Canary(p).run(); }

}  // namespace fuzz
