// Errors of the C++ core. The core reports failures by throwing openacl::Error with an Errc
// and a message that says what was wrong; src/api/ maps Errc to aclError values. The core
// never sees aclError codes.
#pragma once

#include <cstdint>
#include <exception>
#include <string>

namespace openacl {

enum class Errc : int32_t {
  ok = 0,
  // caller mistakes caught by argument checks
  invalid_argument,  // null pointer, bad enum, size 0 ...
  null_pointer,      // a required pointer is NULL where the API tells it apart (aclnn)
  invalid_value,     // a value the runtime rejects (count > destMax, bad timeout)
  not_initialized,
  repeat_initialize,
  repeat_finalize,
  invalid_file,  // missing or unreadable file
  parse_file,    // file content cannot be parsed
  write_file,    // a file cannot be written
  invalid_device,
  context_null,    // no current context, or a dead one
  stream_context,  // object of another context
  invalid_handle,  // unknown or destroyed handle
  feature_not_supported,
  symbol_not_found,
  api_not_supported,
  // resources
  out_of_memory,
  no_stream_resource,  // the device's streams are all in use
  // profiling (acl_prof.h)
  prof_already_run,
  prof_not_run,
  prof_config,  // an invalid profiling configuration
  // model dump (aclmdlInitDump / aclmdlSetDump, acl.json "dump")
  dump_already_run,
  dump_not_run,
  dump_config,
  context_release,  // reset of a device whose count is already 0
  // synchronization
  stream_sync_timeout,
  event_sync_timeout,
  report_timeout,
  wait_timeout,  // a stream's event wait ran out of time (aclrtSetOpWaitTimeout)
  event_timestamp_invalid,
  event_timestamp_reversal,
  // stream capture (aclmdlRI)
  stream_captured,  // the stream is being captured (or a sync call met a captured one)
  stream_not_captured,
  model_captured,    // the model run instance is still being captured
  capture_mode,      // a call the capture mode forbids while a capture is active
  capture_implicit,  // the default stream cannot be captured
  capture_wrong_thread,
  capture_invalidated,
  capture_conflict,   // an event of one capture waited on by a stream of another
  capture_unmatched,  // capture ended on a stream that did not begin it
  stream_unjoined,    // a stream that joined a capture was not joined back
  // callbacks
  stream_subscribe,
  thread_subscribe,
  stream_no_callback_subscriber,
  // device-side failures (R20)
  kernel_failure,
  task_failure,
  task_dropped,
  task_timeout,  // a kernel, op or model ran past aclrtSetOpExecuteTimeOut
  // ops (R17)
  op_type_not_match,  // unknown op type
  op_input_not_match,
  op_output_not_match,
  op_attr_not_match,
  unsupported_data_type,
  // models (R18)
  invalid_model_id,
  parse_model,
  read_model,
  model_input_not_match,
  model_output_not_match,
  model_not_dynamic,
  model_unsupported_op,
  // media (acl/ops/acl_dvpp.h)
  unsupported_jpeg,  // a JPEG stream that CANN's JPEGD unit does not decode
  internal,
};

// The message is the error's own string, not std::runtime_error's reference-counted one: a
// stream's failure is copied into every synchronization that reports it, on any thread.
class Error : public std::exception {
 public:
  Error(Errc code, std::string message) : message_(std::move(message)), code_(code) {}
  const char *what() const noexcept override { return message_.c_str(); }
  Errc code() const noexcept { return code_; }

 private:
  std::string message_;
  Errc code_;
};

[[noreturn]] inline void fail(Errc code, std::string message) {
  throw Error(code, std::move(message));
}

}  // namespace openacl
