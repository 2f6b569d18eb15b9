// Plans by the description of their arguments. Phase 1 of an operator that a program calls
// again with arguments described the same way (dtypes, shapes, strides, formats, attribute
// values; the addresses may differ), as every decode step of ggml does, reuses the plan it made
// the first time: a plan does not depend on the tensors' addresses. Per thread, so no lock;
// a new runtime (aclInit after aclFinalize) starts an empty cache.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nn/plan.h"
#include "nn/planner.h"

namespace openacl::nn {

// Where a plan's slot takes its address from: argument `arg`, tensor-list member `item`.
struct SlotSource {
  uint32_t arg, item;
};

struct CachedPlan {
  std::shared_ptr<const Plan> plan;
  std::vector<SlotSource> sources;  // per slot
};

// The key of op with these arguments, in this thread's buffer (so that a call answered from the
// cache allocates nothing), valid until the thread's next plan_key; false when an argument is
// NULL or not a live object (planning then names it), so a failing call is never answered from
// the cache.
bool plan_key(const char *op, std::span<const Arg> args, std::string_view &key);
const CachedPlan *find_plan(std::string_view key);
void keep_plan(std::string_view key, CachedPlan plan);
// The caller's tensor a source names, its address taken per call.
void *source_address(std::span<const Arg> args, SlotSource s);

}  // namespace openacl::nn
