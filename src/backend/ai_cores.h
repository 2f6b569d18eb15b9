// The AI cores of a device, as seen by code that runs on it (kernels, ops, models, media
// tasks): part of the backend interface, since each backend brings its own (sim's are a worker
// pool, backend/sim/worker_pool.h).
#pragma once

#include <cstddef>
#include <functional>

namespace openacl::backend {

class AiCores {
 public:
  virtual ~AiCores() = default;
  // Number of AI cores (worker threads) of the device.
  virtual unsigned count() const = 0;
  // Runs body(i) for every i in [0, n), spread over the device's AI cores; the calling
  // worker takes part. Returns when all n calls returned. An exception thrown by a body is
  // rethrown here (the first one); the other indices still run.
  virtual void parallel_for(size_t n, const std::function<void(size_t)> &body) = 0;
  // How many of the cores run work at this moment (aclrtGetDeviceUtilizationRate).
  virtual unsigned busy() const { return 0; }
  // A host thread runs a stream's tasks between these calls (a synchronize that took its
  // stream instead of sleeping): it counts as a busy core, as a worker running a stream does.
  virtual void host_enter() {}
  virtual void host_leave() {}
};

}  // namespace openacl::backend
