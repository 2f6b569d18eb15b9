// What the aclnn layer keeps per host thread, in one object reached through the thread's
// ThreadState (an initial-exec pointer): each thread_local of libascendcl's own costs a
// __tls_get_addr call on every use, and the ten calls ggml makes for one node made 34 of them.
//
// Spare objects: ggml makes and ends an executor, three or four tensors and a scalar per
// operator call, so a thread keeps what its runs, destroys and aclDestroy* calls ended (bounded
// by kMaxSpares; more are freed) for its next ones instead of allocating each again.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/thread_state.h"
#include "nn/plan_cache.h"

struct aclOpExecutor;
struct aclTensor;
struct aclScalar;

namespace openacl::nn {

using LiveExecutors = std::unordered_set<aclOpExecutor *>;

struct ThreadScratch {
  static constexpr size_t kMaxSpares = 64;
  ThreadScratch();
  ~ThreadScratch();
  ThreadScratch(const ThreadScratch &) = delete;
  ThreadScratch &operator=(const ThreadScratch &) = delete;

  // Owned; reserved to kMaxSpares, so that keeping one never allocates (the deleters are
  // noexcept).
  std::vector<aclOpExecutor *> executors;
  std::vector<LiveExecutors::node_type> registry_nodes;
  std::vector<aclTensor *> tensors;
  std::vector<aclScalar *> scalars;
  // nn/plan_cache.h: this thread's plans by key (looked up by a view of `key`, the buffer a
  // call's key is written to), for the runtime of `epoch`.
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view k) const noexcept;  // nn/plan_cache.cpp
  };
  using Plans = std::unordered_map<std::string, CachedPlan, KeyHash, std::equal_to<>>;
  uint64_t epoch = 0;
  Plans plans;
  std::vector<char> key;
};

ThreadScratch &make_thread_scratch();

inline ThreadScratch &thread_scratch() {
  void *s = this_thread().nn_scratch.get();
  return s != nullptr ? *static_cast<ThreadScratch *>(s) : make_thread_scratch();
}

}  // namespace openacl::nn
