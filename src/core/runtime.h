// The Runtime: the process-wide state between aclInit and aclFinalize: configuration,
// devices, the memory map, and the handle registries through which every C handle is
// validated.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/callback.h"
#include "core/captures.h"
#include "core/config.h"
#include "core/device_limits.h"
#include "core/handle_tables.h"
#include "core/kernel.h"
#include "core/live_streams.h"
#include "core/memory.h"
#include "core/observer.h"
#include "core/profiling.h"
#include "core/program_callbacks.h"
#include "core/registry.h"
#include "core/retired_memory.h"
#include "core/runtime_parts.h"
#include "core/sys_params.h"
#include "core/virtual_memory.h"

namespace openacl {

class Context;
class Device;
class Event;
class ModelRI;
class Notify;
class Stream;

class Runtime {
 public:
  static Runtime &get();
  // Counts the aclInit calls that initialized: what a cache of one runtime's objects keys on.
  uint64_t epoch() const { return epoch_.load(std::memory_order_relaxed); }

  // R1. init throws Errc::repeat_initialize when already initialized (and counts it), or a
  // config error with nothing initialized. parts: the backend and observers to run with.
  void init(const char *config_path, const RuntimeParts &parts);
  // Closes the runtime to new calls (they fail with Errc::not_initialized), waits for the
  // calls in flight and the outstanding work, then releases every object (docs/lifetimes.md).
  // Throws Errc::repeat_finalize.
  void finalize();
  // aclFinalizeReference: drops one init count; finalizes at zero. Returns the new count.
  uint64_t finalize_reference();
  // How many aclInit calls a finalize_reference() has yet to undo (0: not initialized).
  uint64_t init_count();
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }
  void require_initialized() const {
    // Pairs with CallScope's store and finalize's close (core/call_gate.h).
    if (!initialized_.load(std::memory_order_seq_cst)) fail_not_initialized();
  }

  const Config &config() const { return config_; }
  uint32_t device_count() const { return static_cast<uint32_t>(devices_.size()); }
  // Throws Errc::invalid_device for an id outside [0, count).
  Device &device(int64_t id);
  MemoryMap &memory() { return memory_; }
  // Every Stream object, with or without a handle, and the freed memory waiting for them.
  LiveStreams &live_streams() { return live_streams_; }
  RetiredMemory &retired_memory() { return retired_memory_; }
  VirtualMemory &virtual_memory() { return virtual_memory_; }
  ReportHub &reports() { return reports_; }
  // aclrtSubscribeHostFunc threads and the host functions they run (aclrtProcessHostFunc).
  ReportHub &host_funcs() { return host_funcs_; }
  // aclrtSetOpWaitTimeout: the time limit of event waits enqueued from now on (0 = none).
  void set_op_wait_timeout_s(uint32_t s) { op_wait_timeout_s_.store(s, std::memory_order_relaxed); }
  uint32_t op_wait_timeout_s() const { return op_wait_timeout_s_.load(std::memory_order_relaxed); }
  // The float overflow status (aclrtGetOverflowStatus), of the process as on an Atlas A2: set
  // by a task whose stream checks overflow when it produces a non-finite float, until cleared.
  void note_overflow() { overflow_.store(true, std::memory_order_relaxed); }
  bool overflowed() const { return overflow_.load(std::memory_order_relaxed); }
  void clear_overflow() { overflow_.store(false, std::memory_order_relaxed); }

  // aclrtSetSysParamOpt values, cleared by each aclInit.
  SysParams &sys_params() { return sys_params_; }
  // aclrtDeviceSetLimit values, reset by each aclInit; set_device checks them.
  DeviceLimits &device_limits() { return device_limits_; }
  // aclprof sessions, ended by aclFinalize.
  Profiling &profiling() { return profiling_; }
  // The stream captures in progress (aclmdlRICaptureBegin).
  ActiveCaptures &captures() { return captures_; }
  // Model dump settings, reset by each aclInit (from acl.json's "dump").
  DumpSettings &dump() { return dump_; }
  // The program's init, finalize and exception callbacks; aclFinalize keeps them.
  ProgramCallbacks &program_callbacks() { return program_callbacks_; }

  // Thread binding (R3-R5).
  void set_device(int32_t id);
  void reset_device(int32_t id, bool force);
  void bind(const std::shared_ptr<Context> &ctx);
  // The calling thread's context; throws Errc::context_null when it has none or it died.
  std::shared_ptr<Context> current_context();
  // Whether ctx (which the caller keeps alive) is the calling thread's context and not
  // destroyed: what current_context() == &ctx says, without taking a reference.
  static bool is_current_context(const Context &ctx);
  std::shared_ptr<Context> create_context(int32_t device_id);
  void destroy_context(const void *handle);

  Registry<Context> contexts;
  Registry<Stream> streams{HandleCacheSlot::streams};
  Registry<Event> events;
  Registry<Notify> notifies;
  Registry<ModelRI> model_ris;               // aclmdlRI
  Registry<PhysicalMemory> physical_memory;  // aclrtMallocPhysical
  Registry<Binary> binaries;
  Registry<Function> functions{HandleCacheSlot::functions};
  // Every other handle kind, defined by the layers above (core/handle_tables.h).
  HandleTables tables;

 private:
  [[noreturn]] void fail_not_initialized() const;
  // aclInit, aclFinalize and aclFinalizeReference one at a time.
  std::unique_lock<std::mutex> lock_lifecycle();
  void drain();
  void release_all();
  // At process exit without aclFinalize (ggml never calls it): write out what diagnostics hold.
  void flush_diagnostics_at_exit();

  std::mutex lifecycle_mu_;
  std::atomic<bool> initialized_{false};
  std::atomic<bool> ever_finalized_{false};
  std::atomic<uint64_t> epoch_{0};  // counts aclInit calls that initialized
  std::atomic<uint32_t> op_wait_timeout_s_{0};
  std::atomic<bool> overflow_{false};
  uint64_t init_count_ = 0;
  Config config_;
  SysParams sys_params_;
  DeviceLimits device_limits_;
  Profiling profiling_;
  DumpSettings dump_;
  ProgramCallbacks program_callbacks_;
  ActiveCaptures captures_;
  std::vector<std::unique_ptr<Device>> devices_;
  MemoryMap memory_;
  LiveStreams live_streams_;
  RetiredMemory retired_memory_{live_streams_};
  VirtualMemory virtual_memory_{memory_};
  ReportHub reports_;
  ReportHub host_funcs_;
  std::unique_ptr<TaskObserver> diagnostics_;
};

namespace detail {
// The runtime once made: every API call reaches it several times, and an inline load of this
// pointer is cheaper than a call into a function-local static's guard.
extern std::atomic<Runtime *> runtime_instance;
Runtime &make_runtime();
}  // namespace detail

inline Runtime &Runtime::get() {
  Runtime *rt = detail::runtime_instance.load(std::memory_order_acquire);
  return rt != nullptr ? *rt : detail::make_runtime();
}

}  // namespace openacl
