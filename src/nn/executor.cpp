#include "nn/executor.h"

#include <mutex>
#include <unordered_set>

#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "nn/objects.h"

namespace openacl::nn {

namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_set<aclOpExecutor *> live;
};

Registry &registry() {
  static Registry r;
  return r;
}

// Takes a live executor out of the registry (it is then the caller's to delete).
std::unique_ptr<aclOpExecutor> take(aclOpExecutor *e) {
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  r.live.erase(e);
  return std::unique_ptr<aclOpExecutor>(e);
}

}  // namespace

aclOpExecutor *adopt_executor(std::unique_ptr<aclOpExecutor> e) {
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  r.live.insert(e.get());
  return e.release();
}

aclOpExecutor &live_executor(aclOpExecutor *e) {
  if (e == nullptr) fail(Errc::null_pointer, "executor is NULL");
  auto &r = registry();
  std::lock_guard lock(r.mutex);
  if (r.live.count(e) == 0)
    fail(Errc::invalid_argument,
         "executor is not a live aclOpExecutor: destroyed, already run (an executor runs once "
         "unless "
         "aclSetAclOpExecutorRepeatable made it repeatable), or never made");
  return *e;
}

void destroy_executor(aclOpExecutor *e) {
  live_executor(e);
  take(e);
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

void run(aclOpExecutor *executor, void *workspace, uint64_t workspace_size, Stream &stream) {
  aclOpExecutor &e = live_executor(executor);
  auto plan = e.plan;
  const auto &memory = Runtime::get().memory();
  if (plan->workspace > 0) {
    if (workspace == nullptr)
      fail(Errc::null_pointer, "workspace is NULL; " + plan->name + " needs " +
                                   std::to_string(plan->workspace) + " bytes");
    if (workspace_size < plan->workspace)
      fail(Errc::invalid_argument, "workspaceSize " + std::to_string(workspace_size) +
                                       " is smaller than the " + std::to_string(plan->workspace) +
                                       " bytes " + plan->name + "GetWorkspaceSize returned");
    memory.check_device_range(workspace, plan->workspace, "workspace");
  }
  for (size_t i = 0; i < plan->slots.size(); ++i) {
    const Slot &s = plan->slots[i];
    if (s.bytes == 0) continue;
    if (e.addresses[i] == nullptr) fail(Errc::null_pointer, s.name + " has a NULL device address");
    memory.check_device_range(static_cast<uint8_t *>(e.addresses[i]) + s.begin,
                              static_cast<size_t>(s.bytes), s.name.c_str());
  }
  auto task = std::make_unique<FunctionTask>(
      TaskKind::op, plan->name, [plan, addresses = e.addresses, workspace](ExecContext &ctx) {
        run_plan(*plan, addresses, workspace, ctx.device.backend(), ctx.cores);
      });
  for (size_t i = 0; i < plan->slots.size(); ++i) {
    const Slot &s = plan->slots[i];
    auto *p = static_cast<uint8_t *>(e.addresses[i]) + s.begin;
    if (s.read) task->add_range(p, static_cast<size_t>(s.bytes), false);
    if (s.write) task->add_range(p, static_cast<size_t>(s.bytes), true);
  }
  if (plan->workspace > 0) task->add_range(workspace, plan->workspace, true);
  stream.enqueue(std::move(task));
  if (!e.repeatable) take(executor);
}

}  // namespace openacl::nn
