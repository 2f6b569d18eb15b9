#include "core/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "backend/backend.h"
#include "core/asymmetric_fence.h"
#include "core/call_gate.h"
#include "core/clock.h"
#include "core/context.h"
#include "core/device.h"
#include "core/failure.h"
#include "core/stream.h"
#include "core/thread_state.h"

namespace openacl {

std::unique_lock<std::mutex> Runtime::lock_lifecycle() {
  OutsideCall waiting;  // a finalize holding the lock must not wait for this call
  return std::unique_lock(lifecycle_mu_);
}

namespace detail {

std::atomic<Runtime *> runtime_instance{nullptr};

Runtime &make_runtime() {
  // Never destroyed: threads of the program may still call in while statics are torn down.
  static Runtime *rt = new Runtime();
  runtime_instance.store(rt, std::memory_order_release);
  return *rt;
}

}  // namespace detail

void Runtime::fail_not_initialized() const {
  fail(Errc::not_initialized, ever_finalized_
                                  ? "the runtime was finalized (aclFinalize); call aclInit again"
                                  : "the runtime is not initialized: call aclInit first");
}

void Runtime::init(const char *config_path, const RuntimeParts &parts) {
  std::unique_lock lock = lock_lifecycle();
  if (initialized()) {
    ++init_count_;
    fail(Errc::repeat_initialize, "aclInit was already called in this process");
  }
  Config config = load_config(config_path);
  std::vector<std::unique_ptr<Device>> devices;
  const backend::KernelTable *kernels = parts.kernels ? parts.kernels(config.backend) : nullptr;
  for (uint32_t i = 0; i < config.device_count; ++i) {
    backend::DeviceProps props{config.device_name, config.device_memory_bytes, config.ai_cores};
    devices.push_back(std::make_unique<Device>(
        static_cast<int32_t>(i), parts.create_device(config.backend, i, props, kernels), memory_));
  }
  op_wait_timeout_s_.store(0, std::memory_order_relaxed);  // no limit until the program sets one
  diagnostics_ = parts.create_diagnostics(config);
  profiling_.use_trace(parts.create_trace);
  set_task_observer(diagnostics_.get());
  set_failure_handler(parts.on_task_failure);
  if (diagnostics_) {
    static std::once_flag registered;
    std::call_once(registered,
                   [] { std::atexit([] { Runtime::get().flush_diagnostics_at_exit(); }); });
  }
  config_ = std::move(config);
  sys_params_.clear();
  device_limits_.reset();
  dump_.reset(config_.dump ? &*config_.dump : nullptr);
  set_task_time_limit(0);
  devices_ = std::move(devices);
  init_count_ = 1;
  epoch_.fetch_add(1, std::memory_order_relaxed);
  initialized_.store(true, std::memory_order_release);
  if (!config_.profiler_output.empty()) {  // acl.json "profiler": one session until aclFinalize
    try {
      profiling_.init(config_.profiler_output);
      profiling_.start({});
    } catch (const Error &) {
      release_all();
      throw;
    }
  }
}

void Runtime::flush_diagnostics_at_exit() {
  // A finalize in progress on another thread writes them itself.
  std::unique_lock lock(lifecycle_mu_, std::try_to_lock);
  if (lock.owns_lock() && initialized() && diagnostics_) diagnostics_->on_exit_without_finalize();
}

void Runtime::drain() {
  // Outstanding work finishes first (R1), and the calls still in flight on other threads
  // return: new ones are refused already. A callback that no thread processes would hold its
  // stream forever: after a grace period it runs here instead. Streams that all wait at once,
  // for longer than another grace period, wait for something no task will ever do (a notify
  // never recorded, a value never written): their pending tasks are dropped.
  constexpr int64_t kCallbackGraceNs = 200'000'000;
  constexpr int64_t kStuckGraceNs = 2'000'000'000;
  int64_t stuck_since = 0;
  for (;;) {
    // Calls first: a call still in flight may enqueue before it returns, but once none is,
    // no stream gets new work, and idle streams stay idle.
    const bool calls = calls_in_flight_elsewhere() != 0;
    std::vector<std::shared_ptr<Stream>> busy = live_streams_.busy();
    if (busy.empty() && !calls) return;
    const bool ran = reports_.run_stale(kCallbackGraceNs);
    if (host_funcs_.run_stale(kCallbackGraceNs) || ran) continue;
    const bool all_parked =
        !busy.empty() && std::all_of(busy.begin(), busy.end(), [](auto &s) { return s->parked(); });
    if (!all_parked) {
      stuck_since = 0;
    } else if (stuck_since == 0) {
      stuck_since = now_ns();
    } else if (now_ns() - stuck_since > kStuckGraceNs) {
      for (auto &s : busy) {
        std::fprintf(stderr,
                     "openacl: aclFinalize: stream %u waited %.1f s for a notify, value or event "
                     "that no task "
                     "will complete; its pending tasks were dropped\n",
                     handle_serial(s->handle()), static_cast<double>(kStuckGraceNs) / 1e9);
        s->drop_pending();
      }
      stuck_since = 0;
    }
    busy.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void Runtime::release_all() {
  notify(&TaskObserver::on_finalize_begin);
  ever_finalized_ = true;
  initialized_.store(false, std::memory_order_seq_cst);  // no new call gets in
  heavy_fence();     // pairs with CallScope's: calls that got in show in drain() below
  reports_.close();  // threads blocked in aclrtProcessReport return
  host_funcs_.close();
  drain();
  for (auto &d : devices_) d->shutdown();
  tables.release_all();  // loaded models hold their context and device memory
  contexts.take_all();
  for (auto &s : streams.take_all()) s->end_capture();
  events.take_all();
  notifies.take_all();
  model_ris.take_all();
  functions.take_all();
  binaries.take_all();
  reports_.clear();
  host_funcs_.clear();
  virtual_memory_.release_all();  // mappings leave the memory map
  physical_memory.take_all();
  retired_memory_.release_all();
  for (auto &a : memory_.take_all()) {
    if (a.kind == MemoryKind::device) {
      a.device->backend().deallocate(reinterpret_cast<void *>(a.base), a.size);
    } else if (a.kind == MemoryKind::host_pinned) {
      a.device->backend().deallocate_host(reinterpret_cast<void *>(a.base), a.size);
    }  // registered host memory belongs to the program
  }
  devices_.clear();      // joins the AI-core workers
  profiling_.release();  // no task runs now: a session's recorders can go
  notify(&TaskObserver::on_finalize_end);
  set_task_observer(nullptr);
  diagnostics_.reset();
  init_count_ = 0;
}

void Runtime::finalize() {
  std::unique_lock lock = lock_lifecycle();
  if (!initialized()) {
    fail(ever_finalized_ ? Errc::repeat_finalize : Errc::not_initialized,
         ever_finalized_ ? "aclFinalize was already called" : "aclInit was never called");
  }
  release_all();
}

uint64_t Runtime::init_count() {
  std::unique_lock lock = lock_lifecycle();
  return initialized() ? init_count_ : 0;
}

uint64_t Runtime::finalize_reference() {
  std::unique_lock lock = lock_lifecycle();
  if (!initialized()) fail(Errc::repeat_finalize, "the runtime is not initialized");
  if (--init_count_ == 0) release_all();
  return init_count_;
}

Device &Runtime::device(int64_t id) {
  if (id < 0 || id >= static_cast<int64_t>(devices_.size())) {
    fail(Errc::invalid_device, "device id " + std::to_string(id) + " is out of range [0, " +
                                   std::to_string(devices_.size()) + ")");
  }
  return *devices_[static_cast<size_t>(id)];
}

void Runtime::bind(const std::shared_ptr<Context> &ctx) {
  ThreadState &ts = this_thread();
  ts.context = ctx;
  ts.context_ptr = ctx.get();
  ts.bound = ctx != nullptr;
  ts.epoch = epoch_.load(std::memory_order_relaxed);
}

void Runtime::set_device(int32_t id) {
  Device &d = device(id);
  device_limits_.check_for_set_device();
  auto ctx = d.retain_default_context();
  contexts.add(ctx);
  bind(ctx);
}

void Runtime::reset_device(int32_t id, bool force) {
  Device &d = device(id);
  auto ctx = d.default_context();
  if (!d.release_default_context(force)) {
    fail(Errc::context_release, "device " + std::to_string(id) +
                                    " is not set: aclrtResetDevice without a matching "
                                    "aclrtSetDevice");
  }
  if (ctx && ctx->destroyed()) contexts.remove(ctx->handle());
}

std::shared_ptr<Context> Runtime::current_context() {
  ThreadState &ts = this_thread();
  std::shared_ptr<Context> ctx = ts.context.lock();
  if (ctx && !ctx->destroyed()) return ctx;
  if (ts.bound && ts.epoch == epoch_.load(std::memory_order_relaxed)) {
    fail(Errc::context_null,
         "the calling thread's current context was destroyed (by aclrtDestroyContext or "
         "aclrtResetDevice, possibly in another thread); bind a live one with aclrtSetDevice "
         "or aclrtSetCurrentContext");
  }
  if (config_.default_device) {
    set_device(*config_.default_device);
    return this_thread().context.lock();
  }
  fail(Errc::context_null,
       "the calling thread has no current context: call aclrtSetDevice or aclrtCreateContext "
       "(or aclrtSetCurrentContext) in this thread first");
}

bool Runtime::is_current_context(const Context &ctx) {
  const ThreadState &ts = this_thread();
  // While the binding has not expired, its object lives at context_ptr; ctx lives too, so the
  // same address means the same object.
  return ts.context_ptr == &ctx && !ts.context.expired() && !ctx.destroyed();
}

std::shared_ptr<Context> Runtime::create_context(int32_t device_id) {
  Device &d = device(device_id);
  auto ctx = std::make_shared<Context>(d, false);
  ctx->start();
  d.add_context(ctx);
  contexts.add(ctx);
  bind(ctx);
  return ctx;
}

void Runtime::destroy_context(const void *handle) {
  auto ctx = contexts.find(handle);
  if (!ctx) fail(Errc::context_null, "unknown or already destroyed context");
  if (ctx->is_default()) {
    fail(Errc::context_null,
         "the default context of a device cannot be destroyed; release it with "
         "aclrtResetDevice");
  }
  contexts.remove(handle);
  ctx->release();
  ctx->device().remove_context(ctx.get());
  ThreadState &ts = this_thread();
  if (ts.context.lock() == ctx) {
    ts.context.reset();
    ts.context_ptr = nullptr;
    ts.bound = false;
  }
}

}  // namespace openacl
