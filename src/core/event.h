// An Event: a handle on the latest record made on a stream (R11, R12). Each aclrtRecordEvent
// creates a new Signal; waits and synchronizations bind to the record that was latest when
// they were called.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "core/handle.h"

namespace openacl {

class Context;
class ModelRI;
class Signal;
class Stream;

class Event : public Handled {
 public:
  // Keeps its context object alive, as a stream does (core/stream.h).
  Event(std::shared_ptr<Context> context, uint32_t flags, bool ex)
      : context_(std::move(context)), flags_(flags), ex_(ex) {}

  Context &context() const { return *context_; }
  uint32_t flags() const { return flags_; }
  bool ex() const { return ex_; }  // created by aclrtCreateEventExWithFlag

  // Queues a new record on `stream`; it completes when the stream reaches it and becomes the
  // latest once queued. Published before, a wait bound to it from another thread could be
  // queued ahead of it on the same stream, which would then wait for itself forever.
  void record(Stream &stream);
  // The latest record, or nullptr when never recorded (or reset).
  std::shared_ptr<Signal> latest() const;
  // Clears the latest record if it is still `record` (aclrtResetEvent, in stream order).
  void reset(const Signal *record);
  // The stream capture that last recorded the event (its record happens at each launch).
  void set_captured_by(const std::shared_ptr<ModelRI> &capture);
  std::shared_ptr<ModelRI> captured_by() const;

 private:
  const std::shared_ptr<Context> context_;
  const uint32_t flags_;
  const bool ex_;
  mutable std::mutex mu_;
  std::shared_ptr<Signal> latest_;
  std::weak_ptr<ModelRI> captured_by_;
};

}  // namespace openacl
