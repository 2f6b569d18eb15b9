// Stream creation from a configuration (aclrtCreateStreamConfigHandle, aclrtSetStreamConfigOpt,
// aclrtCreateStreamV2) and stream attributes (aclrtSetStreamAttribute /
// aclrtGetStreamAttribute). aclrtStreamConfigHandle is a public struct in CANN's header:
// aclrtCreateStreamV2 reads its fields, however the program filled them.
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/option_value.h"
#include "core/context.h"
#include "core/observer.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::option_value;
using openacl::api::require_initialized;

namespace {

openacl::Registry<aclrtStreamConfigHandle> &configs() {
  return openacl::Runtime::get().tables.kept<aclrtStreamConfigHandle>();
}

[[noreturn]] void no_stream_work_memory() {
  fail(Errc::feature_not_supported,
       "work memory per stream (ACL_RT_STREAM_WORK_ADDR_PTR / ACL_RT_STREAM_WORK_SIZE) is not "
       "supported: give a "
       "model its work memory at load (aclmdlLoadFromFileWithMem)");
}

}  // namespace

extern "C" {

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void) {
  aclrtStreamConfigHandle *out = nullptr;
  guarded(__func__, [&] {
    auto h = std::make_shared<aclrtStreamConfigHandle>();
    *h = {};
    out = h.get();
    configs().add(std::move(h));
  });
  return out;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle) {
  return guarded(__func__, [&] {
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    if (!configs().remove(handle))
      fail(Errc::invalid_argument,
           "handle is not a live stream config handle (unknown or destroyed)");
  });
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                 const void *attrValue, size_t valueSize) {
  return guarded(__func__, [&] {
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    switch (openacl::api::enum_value(attr)) {
      case ACL_RT_STREAM_FLAG:
        handle->flag = option_value<uint32_t>(attrValue, valueSize, "ACL_RT_STREAM_FLAG");
        return;
      case ACL_RT_STREAM_PRIORITY:
        handle->priority = option_value<uint32_t>(attrValue, valueSize, "ACL_RT_STREAM_PRIORITY");
        return;
      case ACL_RT_STREAM_WORK_ADDR_PTR:
      case ACL_RT_STREAM_WORK_SIZE:
        no_stream_work_memory();
      default:
        fail(Errc::invalid_argument, "attr " + std::to_string(openacl::api::enum_value(attr)) +
                                         " is not an aclrtStreamConfigAttr");
    }
  });
}

aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    if (handle->workptr != nullptr || handle->workSize != 0) no_stream_work_memory();
    auto s = openacl::api::current_context()->create_stream(handle->priority,
                                                            static_cast<uint32_t>(handle->flag));
    *stream = s->handle();
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::stream, *stream, true);
  });
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    auto s = openacl::api::stream_for_submit(stream);
    switch (openacl::api::enum_value(stmAttrType)) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        if (value->failureMode == ACL_STOP_ON_FAILURE) return;
        if (value->failureMode == ACL_CONTINUE_ON_FAILURE)
          fail(Errc::feature_not_supported,
               "ACL_CONTINUE_ON_FAILURE is not supported: a failed task always stops its stream");
        fail(Errc::invalid_argument,
             "failureMode must be ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE");
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        s->set_user_tag(value->userCustomTag);
        return;
      case ACL_STREAM_ATTR_PRIORITY:
        s->set_priority(value->streamPriority);
        return;
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        fail(Errc::feature_not_supported,
             "stream attribute " + std::to_string(openacl::api::enum_value(stmAttrType)) +
                 " (float overflow checks, op info caching) is not simulated");
      default:
        fail(Errc::invalid_argument, "stmAttrType " +
                                         std::to_string(openacl::api::enum_value(stmAttrType)) +
                                         " is not an aclrtStreamAttr");
    }
  });
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                 aclrtStreamAttrValue *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    auto s = openacl::api::stream_for_host(stream);
    std::memset(value, 0, sizeof(*value));
    switch (openacl::api::enum_value(stmAttrType)) {
      case ACL_STREAM_ATTR_FAILURE_MODE:
        value->failureMode = ACL_STOP_ON_FAILURE;
        return;
      case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        value->userCustomTag = s->user_tag();
        return;
      case ACL_STREAM_ATTR_PRIORITY:
        value->streamPriority = s->priority();
        return;
      case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        value->overflowSwitch = 0;
        return;  // never on
      case ACL_STREAM_ATTR_CACHE_OP_INFO:
        value->cacheOpInfoSwitch = 0;
        return;
      default:
        fail(Errc::invalid_argument, "stmAttrType " +
                                         std::to_string(openacl::api::enum_value(stmAttrType)) +
                                         " is not an aclrtStreamAttr");
    }
  });
}

}  // extern "C"
