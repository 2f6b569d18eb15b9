// Every piece of per-thread state of the runtime, in one place: the context the thread is
// bound to (R4), its last error message (R19), whether it is inside an API call
// (core/call_gate.h), and what the API families keep per thread (capture mode, profiling
// ranges, recently prepared operators).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/memory.h"

namespace openacl {

class Context;
class Stream;

// A thread's last hit in one handle registry (core/registry.h), valid while that registry's
// generation is unchanged. It holds a reference: a borrowed lookup stays valid until the
// thread's next lookup in the same registry.
struct HandleCache {
  const void *owner = nullptr;
  const void *handle = nullptr;
  uint64_t generation = 0;
  std::shared_ptr<void> obj;
};

// The registries a submission looks handles up in on every call; each has its own slot, so that
// a lookup in one never ends what another lent.
enum class HandleCacheSlot : uint8_t { streams, functions, count };

struct ThreadState {
  ThreadState();
  ~ThreadState();
  ThreadState(const ThreadState &) = delete;
  ThreadState &operator=(const ThreadState &) = delete;

  // Weak: a context destroyed by another thread must not stay alive through bindings (R5).
  std::weak_ptr<Context> context;
  const Context *context_ptr = nullptr;  // context's object, compared without locking it
  bool bound = false;  // the thread was bound to a context that may since have died
  uint64_t epoch = 0;  // the aclInit the binding belongs to; a binding of an earlier one is void
  std::string last_error;
  int32_t last_error_code = 0;  // for aclrtGetLastError / aclrtPeekAtLastError
  uint32_t last_task_id = 0;    // of the thread's latest submission (aclrtGetThreadLastTaskId)
  // The stream whose resource limits the thread's submissions use
  // (aclrtUseStreamResInCurrentThread); weak, as a destroyed stream limits nothing. The raw
  // pointer spares a submission the weak pointer's atomics when the thread uses none.
  std::weak_ptr<Stream> res_stream;
  const Stream *res_stream_ptr = nullptr;
  // aclmdlRICaptureThreadExchangeMode; ACL_MODEL_RI_CAPTURE_MODE_GLOBAL (0) until changed.
  int32_t capture_mode = 0;
  // aclprofPush / aclprofPop nest per host thread: each open range's message and start time.
  std::vector<std::pair<std::string, int64_t>> prof_ranges;
  // The operators this thread prepared last (api/op/op.cpp): aclopExecuteV2 in a loop prepares
  // once. Type-erased: the op library sits above the core.
  std::shared_ptr<void> op_cache;
  // What the aclnn layer keeps per thread (nn/thread_scratch.h: spare objects, plans by their
  // arguments). Type-erased, as op_cache: the aclnn layer sits above the core.
  std::shared_ptr<void> nn_scratch;
  // Written by the owning thread only, read by others (core/call_gate.h): how deeply the
  // thread is nested in API calls, and a clock that is odd while it is inside one.
  std::atomic<uint32_t> call_depth{0};
  std::atomic<uint64_t> call_clock{0};
  uint64_t serial = 0;  // unique per thread for the process's life
  MemoryMap::ThreadCache memory_cache;
  HandleCache handle_caches[static_cast<size_t>(HandleCacheSlot::count)];
  // The thread's Linux id (gettid), taken once.
  uint32_t os_id();

 private:
  uint32_t os_id_ = 0;
};

namespace detail {
// The calling thread's ThreadState once made. One pointer in the static TLS block
// (initial-exec: read at an offset from the thread pointer, where the object's own dynamic
// TLS costs a __tls_get_addr call): this_thread() runs several times in every API call.
extern __thread ThreadState *current_thread __attribute__((tls_model("initial-exec")));
ThreadState &make_this_thread();
}  // namespace detail

inline ThreadState &this_thread() {
  ThreadState *ts = detail::current_thread;
  return ts != nullptr ? *ts : detail::make_this_thread();
}

// The calling thread's Linux thread id.
inline uint32_t os_thread_id() { return this_thread().os_id(); }

}  // namespace openacl
