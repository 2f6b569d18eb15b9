// A Context: owns streams (with its default stream), events and notifies, isolates them and their
// errors from other contexts (R7, R20). Contexts are process-wide: any thread may bind to any
// live one (R4).
//
// Thread safety: all members may be called from any thread. Its streams, events and notifies
// keep the Context object alive (they refer to it), and it keeps them until release() breaks
// those cycles; a released context is marked destroyed and refuses further use.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/handle.h"
#include "core/sys_params.h"

namespace openacl {

class Device;
class Event;
class Notify;
class Stream;

class Context : public Handled, public std::enable_shared_from_this<Context> {
 public:
  Context(Device &device, bool is_default);
  ~Context();

  Device &device() const { return device_; }
  bool is_default() const { return is_default_; }
  bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }

  // Creates the default stream; called once right after construction (its owner holds the
  // context in a shared_ptr by then).
  void start();
  // nullptr once the context was released.
  std::shared_ptr<Stream> default_stream() const;
  // Creates and registers a stream of this context.
  std::shared_ptr<Stream> create_stream(uint32_t priority, uint32_t flags);
  void forget_stream(const Stream *s);
  std::vector<std::shared_ptr<Stream>> streams() const;  // default stream first

  std::shared_ptr<Event> create_event(uint32_t flags, bool ex);
  void forget_event(const Event *e);
  std::shared_ptr<Notify> create_notify(bool counting);
  void forget_notify(const Notify *n);

  // aclrtCtxSetSysParamOpt values; unset ones fall back to the process's.
  SysParams &sys_params() { return sys_params_; }

  // Destroys the context: unregisters its streams, events and notifies, waits for their
  // pending tasks, and marks it dead so that threads still bound to it get an error (R5).
  void release();

 private:
  Device &device_;
  const bool is_default_;
  std::atomic<bool> destroyed_{false};
  std::shared_ptr<Stream> default_stream_;
  SysParams sys_params_;
  mutable std::mutex mu_;
  // Keyed by object: destroying one of 10,000 streams must not scan the others.
  std::unordered_map<const Stream *, std::shared_ptr<Stream>> streams_;
  std::unordered_map<const Event *, std::shared_ptr<Event>> events_;
  std::unordered_map<const Notify *, std::shared_ptr<Notify>> notifies_;
};

}  // namespace openacl
