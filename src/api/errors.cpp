// Errc → aclError, the recent-error message, and aclGetRecentErrMsg.
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/runtime.h"
#include "core/thread_state.h"

namespace openacl::api {

aclError to_acl_error(Errc code) {
  switch (code) {
    case Errc::ok:
      return ACL_SUCCESS;
    case Errc::invalid_argument:
      return ACL_ERROR_INVALID_PARAM;
    case Errc::null_pointer:
      return ACL_ERROR_INVALID_PARAM;
    case Errc::invalid_value:
      return ACL_ERROR_RT_PARAM_INVALID;
    case Errc::not_initialized:
      return ACL_ERROR_UNINITIALIZE;
    case Errc::repeat_initialize:
      return ACL_ERROR_REPEAT_INITIALIZE;
    case Errc::repeat_finalize:
      return ACL_ERROR_REPEAT_FINALIZE;
    case Errc::invalid_file:
      return ACL_ERROR_INVALID_FILE;
    case Errc::parse_file:
      return ACL_ERROR_PARSE_FILE;
    case Errc::write_file:
      return ACL_ERROR_WRITE_FILE;
    case Errc::invalid_device:
      return ACL_ERROR_RT_INVALID_DEVICEID;
    case Errc::context_null:
      return ACL_ERROR_RT_CONTEXT_NULL;
    case Errc::stream_context:
      return ACL_ERROR_RT_STREAM_CONTEXT;
    case Errc::invalid_handle:
      return ACL_ERROR_RT_INVALID_HANDLE;
    case Errc::feature_not_supported:
      return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    case Errc::no_stream_resource:
      return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    case Errc::prof_already_run:
      return ACL_ERROR_PROF_ALREADY_RUN;
    case Errc::prof_not_run:
      return ACL_ERROR_PROF_NOT_RUN;
    case Errc::prof_config:
      return ACL_ERROR_INVALID_PROFILING_CONFIG;
    case Errc::dump_already_run:
      return ACL_ERROR_DUMP_ALREADY_RUN;
    case Errc::dump_not_run:
      return ACL_ERROR_DUMP_NOT_RUN;
    case Errc::dump_config:
      return ACL_ERROR_INVALID_DUMP_CONFIG;
    case Errc::symbol_not_found:
      return ACL_ERROR_RT_SYMBOL_NOT_FOUND;
    case Errc::api_not_supported:
      return ACL_ERROR_API_NOT_SUPPORT;
    case Errc::out_of_memory:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case Errc::context_release:
      return ACL_ERROR_RT_CONTEXT_RELEASE_ERROR;
    case Errc::stream_sync_timeout:
      return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    case Errc::event_sync_timeout:
      return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
    case Errc::report_timeout:
      return ACL_ERROR_RT_REPORT_TIMEOUT;
    case Errc::wait_timeout:
      return ACL_ERROR_RT_WAIT_TIMEOUT;
    case Errc::event_timestamp_invalid:
      return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
    case Errc::event_timestamp_reversal:
      return ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
    case Errc::stream_captured:
      return ACL_ERROR_RT_STREAM_CAPTURED;
    case Errc::stream_not_captured:
      return ACL_ERROR_RT_STREAM_NOT_CAPTURED;
    case Errc::model_captured:
      return ACL_ERROR_RT_MODEL_CAPTURED;
    case Errc::capture_mode:
      return ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT;
    case Errc::capture_implicit:
      return ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT;
    case Errc::capture_wrong_thread:
      return ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD;
    case Errc::capture_invalidated:
      return ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
    case Errc::capture_conflict:
      return ACL_ERROR_STREAM_CAPTURE_CONFLICT;
    case Errc::capture_unmatched:
      return ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED;
    case Errc::stream_unjoined:
      return ACL_ERROR_RT_STREAM_UNJOINED;
    case Errc::stream_subscribe:
      return ACL_ERROR_RT_STREAM_SUBSCRIBE;
    case Errc::thread_subscribe:
      return ACL_ERROR_RT_THREAD_SUBSCRIBE;
    case Errc::stream_no_callback_subscriber:
      return ACL_ERROR_RT_STREAM_NO_CB_REG;
    case Errc::kernel_failure:
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    case Errc::task_failure:
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    case Errc::task_dropped:
      return ACL_ERROR_RT_STREAM_ABORT;
    case Errc::task_timeout:
      return ACL_ERROR_RT_AICORE_TIMEOUT;
    case Errc::op_type_not_match:
      return ACL_ERROR_OP_TYPE_NOT_MATCH;
    case Errc::op_input_not_match:
      return ACL_ERROR_OP_INPUT_NOT_MATCH;
    case Errc::op_output_not_match:
      return ACL_ERROR_OP_OUTPUT_NOT_MATCH;
    case Errc::op_attr_not_match:
      return ACL_ERROR_OP_ATTR_NOT_MATCH;
    case Errc::unsupported_data_type:
      return ACL_ERROR_UNSUPPORTED_DATA_TYPE;
    case Errc::invalid_model_id:
      return ACL_ERROR_INVALID_MODEL_ID;
    case Errc::parse_model:
      return ACL_ERROR_PARSE_MODEL;
    case Errc::read_model:
      return ACL_ERROR_READ_MODEL_FAILURE;
    case Errc::model_input_not_match:
      return ACL_ERROR_MODEL_INPUT_NOT_MATCH;
    case Errc::model_output_not_match:
      return ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
    case Errc::model_not_dynamic:
      return ACL_ERROR_MODEL_NOT_DYNAMIC;
    case Errc::model_unsupported_op:
      return ACL_ERROR_OP_NOT_FOUND;
    case Errc::unsupported_jpeg:
      return ACL_ERROR_UNSUPPORTED_JPEG;
    case Errc::internal:
      return ACL_ERROR_INTERNAL_ERROR;
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

void record_error(const char *api, const char *message, aclError code) {
  this_thread().last_error_code = code;
  std::string &msg = this_thread().last_error;
  msg.assign(api);
  msg += ": ";
  msg += message;
}

aclError report_unsupported(const char *api) {
  record_error(api, "not supported by openacl (sim backend); see docs/API.md",
               ACL_ERROR_API_NOT_SUPPORT);
  return ACL_ERROR_API_NOT_SUPPORT;
}

void require_initialized() { Runtime::get().require_initialized(); }

}  // namespace openacl::api

extern "C" {

const char *aclGetRecentErrMsg() { return openacl::this_thread().last_error.c_str(); }

// The thread's last error code; aclrtGetLastError also clears it. Neither records an error of
// its own, so that they never overwrite what they report.
aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (openacl::api::enum_value(level) != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  return openacl::this_thread().last_error_code;
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (openacl::api::enum_value(level) != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  aclError code = openacl::this_thread().last_error_code;
  openacl::this_thread().last_error_code = ACL_SUCCESS;
  return code;
}

}  // extern "C"
