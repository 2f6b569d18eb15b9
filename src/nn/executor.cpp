#include "nn/executor.h"

#include <mutex>
#include <span>
#include <unordered_set>

#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "nn/objects.h"
#include "nn/thread_scratch.h"

namespace openacl::nn {

namespace {

using Live = LiveExecutors;

struct Registry {
  std::mutex mutex;
  Live live;
};

Registry &registry() {
  static Registry r;
  return r;
}

void keep_node(Live::node_type node) {
  auto &nodes = thread_scratch().registry_nodes;
  if (node && nodes.size() < ThreadScratch::kMaxSpares) nodes.push_back(std::move(node));
}

[[noreturn]] void not_live() {
  fail(Errc::invalid_argument,
       "executor is not a live aclOpExecutor: destroyed, already run (an executor runs once "
       "unless aclSetAclOpExecutorRepeatable made it repeatable), or never made");
}

// The live executor e; one that `leaves` (or is single-use, when `leaves` is false) is taken out
// of the registry and its node returned. One lock.
Live::node_type claim(aclOpExecutor *e, bool leaves) {
  if (e == nullptr) fail(Errc::null_pointer, "executor is NULL");
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.live.find(e);
  if (it == r.live.end()) not_live();
  if (!leaves && e->repeatable) return {};
  return r.live.extract(it);
}

// Puts an executor that claim() took out back (its run failed).
void restore(Live::node_type node) {
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  r.live.insert(std::move(node));
}

// One run of a plan: the plan, the slot addresses as they were when it was enqueued, the
// workspace. Up to kInline addresses (every operator ggml calls but a long Cat) are held
// without an allocation.
class PlanTask final : public Task {
 public:
  // at_call: may run at the call when its stream is at rest once enqueued (a replica); phase 2
  // has tried that already for the runs it queues.
  PlanTask(std::shared_ptr<const Plan> plan, std::span<void *const> addresses, void *workspace,
           bool at_call)
      : Task(TaskKind::op),
        plan_(std::move(plan)),
        count_(addresses.size()),
        workspace_(workspace),
        at_call_(at_call) {
    if (count_ <= kInline) std::copy(addresses.begin(), addresses.end(), inline_);
    else more_.assign(addresses.begin(), addresses.end());
  }
  void run(ExecContext &ctx) override {
    run_plan(*plan_, addresses(), workspace_, ctx.device.backend(), ctx.cores, overflow_check);
  }
  std::string label() const override { return plan_->name; }
  // A replica that a model run instance launches on a stream at rest (ggml's graph mode) runs
  // at the call, as phase 2 runs a small plan.
  bool runs_at_call() const override { return at_call_; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    auto t = std::make_unique<PlanTask>(plan_, addresses(), workspace_, plan_->at_call);
    t->copy_ranges(*this);
    return t;
  }

 private:
  std::span<void *const> addresses() const {
    return count_ <= kInline ? std::span<void *const>(inline_, count_)
                             : std::span<void *const>(more_);
  }

  static constexpr size_t kInline = 8;
  std::shared_ptr<const Plan> plan_;
  size_t count_;
  void *inline_[kInline];
  std::vector<void *> more_;
  void *workspace_;
  bool at_call_;
};

// A run at the call, built on the caller's stack (core/tasks.h's AtCall): no ranges recorded
// and no share of the plan taken, as it ends with the call.
class PlanAtCall final : public Task {
 public:
  PlanAtCall(const Plan &plan, std::span<void *const> addresses, void *workspace)
      : Task(TaskKind::op), plan_(plan), addresses_(addresses), workspace_(workspace) {}
  void run(ExecContext &ctx) override {
    run_plan(plan_, addresses_, workspace_, ctx.device.backend(), ctx.cores, overflow_check);
  }
  bool runs_at_call() const override { return true; }
  std::string label() const override { return plan_.name; }

 private:
  const Plan &plan_;
  std::span<void *const> addresses_;
  void *workspace_;
};

// Refuses a run of e with this workspace, or one whose tensors are not device memory.
void check_run(const aclOpExecutor &e, void *workspace, uint64_t workspace_size) {
  const Plan &plan = *e.plan;
  const auto &memory = Runtime::get().memory();
  if (plan.workspace > 0) {
    if (workspace == nullptr)
      fail(Errc::null_pointer, "workspace is NULL; " + plan.name + " needs " +
                                   std::to_string(plan.workspace) + " bytes");
    if (workspace_size < plan.workspace)
      fail(Errc::invalid_argument, "workspaceSize " + std::to_string(workspace_size) +
                                       " is smaller than the " + std::to_string(plan.workspace) +
                                       " bytes " + plan.name + "GetWorkspaceSize returned");
    memory.check_device_range(workspace, plan.workspace, "workspace");
  }
  for (size_t i = 0; i < plan.slots.size(); ++i) {
    const Slot &s = plan.slots[i];
    if (s.bytes == 0) continue;
    if (e.addresses[i] == nullptr) fail(Errc::null_pointer, s.name + " has a NULL device address");
    memory.check_device_range(static_cast<uint8_t *>(e.addresses[i]) + s.begin,
                              static_cast<size_t>(s.bytes), s.name.c_str());
  }
}

// The task of one run of e for the stream's queue, with the memory it reads and writes.
std::unique_ptr<Task> make_task(const aclOpExecutor &e, void *workspace) {
  const Plan &plan = *e.plan;
  auto task = std::make_unique<PlanTask>(e.plan, e.addresses, workspace, false);
  for (size_t i = 0; i < plan.slots.size(); ++i) {
    const Slot &s = plan.slots[i];
    auto *p = static_cast<uint8_t *>(e.addresses[i]) + s.begin;
    if (s.read) task->add_range(p, static_cast<size_t>(s.bytes), false);
    if (s.write) task->add_range(p, static_cast<size_t>(s.bytes), true);
  }
  if (plan.workspace > 0) task->add_range(workspace, plan.workspace, true);
  return task;
}

}  // namespace

bool runs_at_call(const Plan &plan) {
  uint64_t bytes = plan.workspace;
  for (const Slot &s : plan.slots) bytes += static_cast<uint64_t>(s.bytes);
  if (bytes > kAtCallBytes) return false;
  for (const Step &s : plan.steps)
    if (s.kind != Step::Kind::copy && !(s.kind == Step::Kind::op && s.op->per_element()))
      return false;
  return true;
}

void Recycle::operator()(aclOpExecutor *e) const noexcept {
  e->plan.reset();
  e->addresses.clear();
  e->repeatable = false;
  auto &kept = thread_scratch().executors;
  if (kept.size() < ThreadScratch::kMaxSpares) kept.push_back(e);
  else delete e;
}

ExecutorPtr spare_executor() {
  auto &kept = thread_scratch().executors;
  if (kept.empty()) return ExecutorPtr(new aclOpExecutor);
  ExecutorPtr e(kept.back());
  kept.pop_back();
  return e;
}

aclOpExecutor *adopt_executor(ExecutorPtr e) {
  auto &nodes = thread_scratch().registry_nodes;
  Live::node_type node;
  if (!nodes.empty()) {
    node = std::move(nodes.back());
    nodes.pop_back();
    node.value() = e.get();
  }
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  if (node) r.live.insert(std::move(node));
  else r.live.insert(e.get());
  return e.release();
}

aclOpExecutor &live_executor(aclOpExecutor *e) {
  if (e == nullptr) fail(Errc::null_pointer, "executor is NULL");
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  if (r.live.count(e) == 0) not_live();
  return *e;
}

void destroy_executor(aclOpExecutor *e) {
  keep_node(claim(e, true));
  Recycle()(e);
}

void set_address(aclOpExecutor &e, Side side, size_t index, size_t relative, void *addr) {
  const Plan &p = *e.plan;
  const std::vector<std::vector<size_t>> *list = side == Side::output ? &p.outputs : &p.inputs;
  if (side == Side::either && index >= p.inputs.size()) {
    index -= p.inputs.size();
    list = &p.outputs;
  }
  const char *what = list == &p.inputs ? "input" : "output";
  if (index >= list->size())
    fail(Errc::invalid_argument, "index " + std::to_string(index) + " is out of range: " + p.name +
                                     " has " + std::to_string(list->size()) + " tensor " + what +
                                     "s");
  const auto &slots = (*list)[index];
  if (relative >= slots.size())
    fail(Errc::invalid_argument,
         "relativeIndex " + std::to_string(relative) + " is out of range: " + p.name + " " + what +
             " " + std::to_string(index) + " holds " + std::to_string(slots.size()) + " tensors");
  e.addresses[slots[relative]] = addr;
}

void run(aclOpExecutor *executor, void *workspace, uint64_t workspace_size,
         const std::function<Stream &()> &stream) {
  // A single-use executor leaves the registry now (one lock) and comes back if the run fails.
  Live::node_type node = claim(executor, false);
  try {
    Stream &s = stream();
    check_run(*executor, workspace, workspace_size);
    PlanAtCall now(*executor->plan, executor->addresses, workspace);
    if (!executor->plan->at_call || s.try_run_at_call(now) == 0)
      s.enqueue(make_task(*executor, workspace));
  } catch (...) {
    if (node) restore(std::move(node));
    throw;
  }
  if (node) {
    keep_node(std::move(node));
    Recycle()(executor);
  }
}

}  // namespace openacl::nn
