// The backend interface: what a device must provide to the core. A backend owns the device's
// memory, its hardware queues (the workers that run streams and AI-core blocks, ai_cores.h)
// and the operator kernels it runs (kernel_table.h). The core never includes a backend's own
// headers nor links one; it creates devices through RuntimeParts::create_device
// (core/runtime_parts.h), which libascendcl points at create_device().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "backend/ai_cores.h"
#include "backend/kernel_table.h"

namespace openacl::backend {

// Something with work to run on the device: a stream. The backend calls run_slice() on one of
// its workers, never on two at once for the same Runnable (the core schedules a stream once,
// and never while a host thread runs it).
class Runnable {
 public:
  virtual void run_slice() = 0;

 protected:
  ~Runnable() = default;
};

struct DeviceProps {
  std::string name;
  size_t memory_bytes = 0;
  unsigned ai_cores = 0;
};

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  virtual const DeviceProps &props() const = 0;

  // Device memory, aligned to at least 64 bytes; nullptr when the backend cannot provide it.
  // The core accounts the capacity; the backend only provides the bytes.
  virtual void *allocate(size_t bytes) = 0;
  virtual void deallocate(void *p, size_t bytes) = 0;
  // Page-locked host memory.
  virtual void *allocate_host(size_t bytes) = 0;
  virtual void deallocate_host(void *p, size_t bytes) = 0;

  // Copies and fills between any two addresses the device can reach (device or host).
  virtual void copy(void *dst, const void *src, size_t n) = 0;
  virtual void fill(void *dst, int value, size_t n) = 0;
  // `count` 32-bit values at a 4-byte aligned address (aclrtMemsetD32).
  virtual void fill32(void *dst, uint32_t value, size_t count) = 0;

  // Host code over device memory: what runs on the host but reads or writes device bytes (the
  // steps of aclnn plans that are no operator, the media units of DVPP) asks for a host view of
  // the n bytes at p (device memory, or host memory the device reaches) for as long as it works
  // on them, through HostView below. A backend whose memory the host addresses (sim) grants p
  // itself; one whose memory it cannot (a discrete GPU) stages the range: copies it to host
  // memory at begin, and at end back to p when the view was taken to write. Views of one task
  // may overlap only where none of them writes.
  enum class Access : uint8_t { read, write };
  virtual void *begin_host_access(void *p, size_t n, Access access) = 0;
  virtual void end_host_access(void *host, void *p, size_t n, Access access) noexcept = 0;
  // Whether host and device share one address space: the host addresses device memory itself
  // (every view is in place) and the device's kernels read host memory. Where they do not, the
  // constants of aclnn plans get a device copy (nn/device_constants.h).
  virtual bool host_addressable() const = 0;

  // Queues r to run on a worker soon. Thread safe.
  virtual void schedule(Runnable *r) = 0;
  // Takes r off the queue when no worker has started it: a host thread waiting for r runs it
  // itself. False when r is not queued (a worker has taken it). Thread safe.
  virtual bool unschedule(Runnable *r) = 0;
  virtual AiCores &cores() = 0;
  // The operator kernels this device runs. Ops are prepared through it (ops::prepare), so an
  // op the backend has no kernel for fails there, naming the op and the backend.
  virtual const KernelTable &kernels() const = 0;
};

// A host view of device memory for a scope (DeviceBackend::begin_host_access).
class HostView {
 public:
  HostView(DeviceBackend &device, const void *p, size_t n, DeviceBackend::Access access)
      : device_(device),
        p_(const_cast<void *>(p)),
        n_(n),
        access_(access),
        host_(device.begin_host_access(p_, n, access)) {}
  HostView(const HostView &) = delete;
  HostView &operator=(const HostView &) = delete;
  ~HostView() { device_.end_host_access(host_, p_, n_, access_); }
  void *data() const { return host_; }
  // The host address of device address q inside the viewed range.
  template <class T>
  T *at(const void *q) const {
    return reinterpret_cast<T *>(static_cast<uint8_t *>(host_) +
                                 (static_cast<const uint8_t *>(q) - static_cast<uint8_t *>(p_)));
  }

 private:
  DeviceBackend &device_;
  void *p_;
  size_t n_;
  DeviceBackend::Access access_;
  void *host_;
};

// The backends built into this library, by kind: "sim" (the only one so far; defined in
// backend/sim/). kernels: the operator kernels the device runs (the table outlives it), or
// nullptr for none (a build without the op library). Throws openacl::Error for an unknown kind.
std::unique_ptr<DeviceBackend> create_device(const std::string &kind, int id,
                                             const DeviceProps &props, const KernelTable *kernels);

}  // namespace openacl::backend
