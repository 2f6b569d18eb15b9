// aclOpExecutor: a plan and the addresses of the caller's tensors. Phase 2 (run) checks the
// workspace and the addresses, then enqueues the plan as one op task that records the memory
// it reads and writes. An executor is consumed by a successful run unless it was made
// repeatable. Executors live in a registry, so a destroyed or consumed one is refused instead
// of being touched.
//
// Thread safety: the registry is synchronized; one executor must not be used by two threads at
// once (as in CANN). A pending run holds the plan and its own copy of the addresses, so the
// executor may be updated or destroyed while runs are pending.
//
// Host cost: ggml makes about a hundred executors per generated token, so a phase 1 and its
// run take the registry's lock once each and allocate nothing in the steady state: executors
// (and the registry's nodes) that a run or a destroy ends are kept by that thread for its next
// phase 1.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "nn/plan.h"

namespace openacl {
class Stream;
}

struct aclOpExecutor {
  std::shared_ptr<const openacl::nn::Plan> plan;
  std::vector<void *> addresses;  // per slot
  bool repeatable = false;
};

namespace openacl::nn {

// An executor not yet handed out: deleting it keeps it for reuse by this thread.
struct Recycle {
  void operator()(aclOpExecutor *e) const noexcept;
};
using ExecutorPtr = std::unique_ptr<aclOpExecutor, Recycle>;

// An empty executor (no plan, no addresses, single-use), reused when this thread has one.
ExecutorPtr spare_executor();
// Registers a new executor (phase 1 hands it to the caller).
aclOpExecutor *adopt_executor(ExecutorPtr e);
// The live executor, else Error: null_pointer for NULL, invalid_argument for one destroyed,
// consumed by its run, or never made.
aclOpExecutor &live_executor(aclOpExecutor *e);
void destroy_executor(aclOpExecutor *e);

// Address updates: input or output `index` (a tensor list's member `relative`), as numbered in
// aclnn_base.h. aclSetTensorAddr numbers inputs then outputs (`either`).
enum class Side { input, output, either };
void set_address(aclOpExecutor &e, Side side, size_t index, size_t relative, void *addr);

// Whether runs of the plan may take place during phase 2 on a stream at rest, on the calling
// thread: each step a few operations per element (an elementwise op, a cast, a copy) over at
// most kAtCallBytes in all. Handing such a run to a worker costs more than the run (a wake-up,
// and the synchronize taking the stream back). Never while the trace, the race checker or
// profiling observes tasks, nor in a capture (Stream::try_run_at_call): they see every run.
inline constexpr uint64_t kAtCallBytes = uint64_t{64} << 10;
bool runs_at_call(const Plan &plan);

// Phase 2: checks the executor, then resolves the stream (so a bad executor is reported first),
// checks the workspace and every tensor's device range, runs the plan at the call or enqueues
// it on the stream, and consumes a non-repeatable executor. Throws Error, having enqueued nothing.
void run(aclOpExecutor *executor, void *workspace, uint64_t workspace_size,
         const std::function<Stream &()> &stream);

}  // namespace openacl::nn
