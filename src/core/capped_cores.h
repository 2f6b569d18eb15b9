// The AI cores a task may use under its resource limit (core/res_limits.h): a view of the
// device's cores that runs a job on at most `limit` of them at a time, each taking every
// limit-th block, so a kernel of 8 blocks under a limit of 2 runs as 2 lanes of 4 blocks.
//
// Thread safety: as the AiCores it views; it lives on the stack of the task that uses it.
#pragma once

#include <functional>

#include "backend/ai_cores.h"
#include "core/task.h"

namespace openacl {

class CappedCores final : public backend::AiCores {
 public:
  CappedCores(backend::AiCores &all, unsigned limit);
  unsigned count() const override { return limit_; }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override;
  unsigned busy() const override { return all_.busy(); }
  void host_enter() override { all_.host_enter(); }
  void host_leave() override { all_.host_leave(); }

 private:
  backend::AiCores &all_;
  const unsigned limit_;
};

// Runs the task on the cores its limit allows.
inline void run_task(Task &t, ExecContext &exec) {
  if (t.core_limit == 0 || t.core_limit >= exec.cores.count()) return t.run(exec);
  CappedCores capped(exec.cores, t.core_limit);
  ExecContext limited{exec.device, capped};
  t.run(limited);
}

}  // namespace openacl
