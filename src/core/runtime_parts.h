// What the layers above the core plug into the Runtime at aclInit: the device backend and the
// operator kernels it runs, the observers of src/check and the C API's handler of failing tasks.
// The core calls them through this table and links neither, so another backend or checker comes in
// without a change to the core. libascendcl's entry layer fills it (api/init.cpp).
#pragma once

#include <memory>
#include <string>

#include "backend/backend.h"
#include "core/failure.h"
#include "core/observer.h"

namespace openacl {

struct RuntimeParts {
  // Device `id` of the backend the configuration names ("sim").
  std::unique_ptr<backend::DeviceBackend> (*create_device)(
      const std::string &kind, int id, const backend::DeviceProps &props,
      const backend::KernelTable *kernels) = nullptr;
  // The operator kernels of the backend `kind` (the op library fills them), or nullptr when
  // this build has none for it; each device of that backend is given them.
  const backend::KernelTable *(*kernels)(const std::string &kind) = nullptr;
  // The observer the configuration asks for (trace, race checker, both), or nullptr when
  // diagnostics are off (docs/RULES.md R21).
  std::unique_ptr<TaskObserver> (*create_diagnostics)(const Config &config) = nullptr;
  // A trace recorder writing to path, for profiling sessions (core/profiling.h).
  std::unique_ptr<TaskObserver> (*create_trace)(const std::string &path) = nullptr;
  // Told of each task that fails on a device (the program's exception callbacks), or nullptr.
  FailureHandler on_task_failure = nullptr;
};

}  // namespace openacl
