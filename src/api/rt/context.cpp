// Contexts and thread binding (R4-R6).
#include "core/context.h"
#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/observer.h"
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
    *context = Runtime::get().create_context(deviceId)->handle();
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::context, *context,
                    true);
  });
}

aclError aclrtDestroyContext(aclrtContext context) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    Runtime::get().destroy_context(context);
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::context, context,
                    false);
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
    if (ctx->is_default())
      openacl::notify(&openacl::TaskObserver::on_default_context, "aclrtSetCurrentContext");
    Runtime::get().bind(ctx);
  });
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  return guarded(__func__, [&] {
    require_initialized();
    if (context == nullptr) fail(Errc::invalid_argument, "context is NULL");
    auto ctx = openacl::api::current_context();
    if (ctx->is_default())
      openacl::notify(&openacl::TaskObserver::on_default_context, "aclrtGetCurrentContext");
    *context = ctx->handle();
  });
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    *stream = openacl::api::stream_for_host(nullptr)->handle();
  });
}

}  // extern "C"
