// A Device: one simulated NPU with its memory capacity, its AI cores (through its backend),
// the process-wide count of aclrtSetDevice calls that keeps its default context alive (R3),
// and the contexts created on it.
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "backend/backend.h"
#include "core/res_limits.h"

namespace openacl {

class Context;
class MemoryMap;

class Device {
 public:
  Device(int32_t id, std::unique_ptr<backend::DeviceBackend> backend, MemoryMap &memory);

  int32_t id() const { return id_; }
  const backend::DeviceProps &props() const { return backend_->props(); }
  backend::DeviceBackend &backend() { return *backend_; }
  backend::AiCores &cores() { return backend_->cores(); }
  int64_t boot_ns() const { return boot_ns_; }

  // Device memory counted against the capacity and registered in the memory map. Throws
  // Errc::out_of_memory and changes nothing when the capacity would be exceeded.
  void *allocate(size_t bytes);
  // Page-locked host memory (aclrtMallocHost), registered in the memory map.
  void *allocate_host(size_t bytes);
  // Unregisters p (a device or page-locked allocation of this device) and gives its capacity
  // back at once. The bytes go back to the backend only when no task that may use them can
  // still run (core/retired_memory.h).
  void release(void *p);
  size_t used_bytes() const { return used_.load(std::memory_order_relaxed); }
  size_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  // Capacity taken and given back by memory the device does not allocate itself (physical
  // allocations of aclrtMallocPhysical). charge throws Errc::out_of_memory when it is short.
  void charge(size_t bytes);
  void refund(size_t bytes);
  size_t capacity() const { return props().memory_bytes; }

  // Stream and event resources of an Atlas A2 device: 1984 streams, default streams included
  // (creating one more fails with Errc::no_stream_resource), and 65536 events.
  static constexpr uint32_t kMaxStreams = 1984;
  static constexpr uint32_t kMaxEvents = 65536;
  uint32_t live_streams() const;  // registered stream handles of this device
  uint32_t live_events() const;

  // Float overflow mode (aclrtSetDeviceSatMode), as the API's numeric value. The sim device
  // computes in IEEE arithmetic either way; the mode is kept so programs read back what they set.
  int32_t overflow_mode() const { return overflow_mode_.load(std::memory_order_relaxed); }
  void set_overflow_mode(int32_t mode) { overflow_mode_.store(mode, std::memory_order_relaxed); }
  // Peer access this device enabled to another (aclrtDeviceEnablePeerAccess). Sim devices
  // share host memory, so it changes no copy; it is state the program can query.
  void set_peer_access(int32_t peer, bool enabled);
  bool peer_access(int32_t peer) const;
  // The process's AI-core limits on this device (aclrtSetDeviceResLimit), until aclFinalize.
  ResLimits &res_limits() { return res_limits_; }

  // R3: aclrtSetDevice / aclrtResetDevice[Force] counting.
  std::shared_ptr<Context> retain_default_context();
  // Returns false when the count was already 0.
  bool release_default_context(bool force);
  std::shared_ptr<Context> default_context() const;
  bool default_context_active() const;

  void add_context(const std::shared_ptr<Context> &ctx);
  void remove_context(const Context *ctx);
  std::vector<std::shared_ptr<Context>> contexts() const;
  // Waits for every stream of every context of the device; throws the first failure of a
  // stream of `context` (failures of other contexts are theirs to report, R20).
  void synchronize(int32_t timeout_ms, const Context *context);
  // Releases the device's contexts (finalize).
  void shutdown();

 private:
  const int32_t id_;
  std::unique_ptr<backend::DeviceBackend> backend_;
  MemoryMap &memory_;
  const int64_t boot_ns_;
  std::atomic<size_t> used_{0};
  std::atomic<size_t> peak_{0};
  std::atomic<int32_t> overflow_mode_{0};
  ResLimits res_limits_;
  mutable std::mutex peers_mu_;
  std::vector<int32_t> peers_;  // sorted

  mutable std::mutex mu_;
  int default_refs_ = 0;
  std::shared_ptr<Context> default_context_;
  std::vector<std::weak_ptr<Context>> contexts_;
};

}  // namespace openacl
