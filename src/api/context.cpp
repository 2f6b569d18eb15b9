// Contexts and thread binding (R4-R6).
#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/context.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

extern "C" {

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    *context = Runtime::get().create_context(deviceId).get();
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    Runtime::get().destroy_context(context);
  });
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    auto ctx = Runtime::get().contexts.find(context);
    if (!ctx || ctx->destroyed()) {
      fail(Errc::context_null, "unknown or destroyed context (its device may have been reset)");
    }
    Runtime::get().bind(ctx);
  });
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    *context = openacl::api::current_context().get();
  });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    *stream = openacl::api::current_context()->default_stream().get();
  });
}

}  // extern "C"
