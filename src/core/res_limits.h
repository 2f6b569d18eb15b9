// Device resource limits (aclrtSetDeviceResLimit, aclrtSetStreamResLimit,
// aclrtUseStreamResInCurrentThread): how many AI cores of each kind (aclrtDevResLimitType) the
// kernels, operators and models a thread submits may use. Precedence, as CANN documents it: the
// limit of the stream the submitting thread uses > the process's limit for the device > the
// device's own count. The sim device's cores are cube and vector cores at once, so a task runs
// on at most the smaller of its two limits (core/capped_cores.h).
//
// Thread safety: any thread may read or set a ResLimits; a value set applies to tasks submitted
// after it (a task takes its limit when it is queued or captured).
#pragma once

#include <atomic>
#include <cstdint>

namespace openacl {

class Device;
class Task;

enum class CoreKind : uint8_t { cube = 0, vector = 1 };
inline constexpr unsigned kCoreKinds = 2;

// A limit per core kind; 0 where none is set.
class ResLimits {
 public:
  uint32_t get(CoreKind k) const { return v_[index(k)].load(std::memory_order_relaxed); }
  void set(CoreKind k, uint32_t cores) { v_[index(k)].store(cores, std::memory_order_relaxed); }
  void reset() {
    for (auto &v : v_) v.store(0, std::memory_order_relaxed);
  }

 private:
  static unsigned index(CoreKind k) { return static_cast<unsigned>(k); }
  std::atomic<uint32_t> v_[kCoreKinds]{};
};

// The limit of kind k on `device` without the thread's stream: the process's, else the count of
// the device's cores.
uint32_t device_res_limit(Device &device, CoreKind k);
// The limit of kind k that tasks the calling thread submits to `device` run under.
uint32_t thread_res_limit(Device &device, CoreKind k);
// Sets the limit of a compute task (kernel, operator, model) that the calling thread queues or
// captures on `device`, unless it has one (a captured task's replica); other tasks use no cores.
void take_res_limit(Task &task, Device &device);

}  // namespace openacl
