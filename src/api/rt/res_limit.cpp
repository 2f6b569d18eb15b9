// AI-core resource limits (aclrtSet/Get/ResetDeviceResLimit, aclrtSet/Get/ResetStreamResLimit,
// aclrtUse/UnuseStreamResInCurrentThread, aclrtGetResInCurrentThread): the limits live in the
// core (core/res_limits.h), where every kernel, operator and model a thread submits takes the
// one it runs under.
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/device.h"
#include "core/res_limits.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/thread_state.h"

using openacl::CoreKind;
using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

// By reference: a value outside the enum is read through enum_value, never loaded as the enum.
CoreKind kind_of(const aclrtDevResLimitType &type) {
  switch (openacl::api::enum_value(type)) {
    case ACL_RT_DEV_RES_CUBE_CORE:
      return CoreKind::cube;
    case ACL_RT_DEV_RES_VECTOR_CORE:
      return CoreKind::vector;
    default:
      fail(Errc::invalid_argument,
           "type " + std::to_string(openacl::api::enum_value(type)) +
               " is not an aclrtDevResLimitType (ACL_RT_DEV_RES_CUBE_CORE or "
               "ACL_RT_DEV_RES_VECTOR_CORE)");
  }
}

void check_value(openacl::Device &device, uint32_t value) {
  const uint32_t cores = device.props().ai_cores;
  if (value == 0 || value > cores) {
    fail(Errc::invalid_argument, "value " + std::to_string(value) + " is outside [1, " +
                                     std::to_string(cores) + "], the AI cores of device " +
                                     std::to_string(device.id()));
  }
}

void check_out(uint32_t *value) {
  if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
}

}  // namespace

extern "C" {

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::Device &device = openacl::Runtime::get().device(deviceId);
    const CoreKind kind = kind_of(type);
    check_out(value);
    *value = openacl::device_res_limit(device, kind);
  });
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::Device &device = openacl::Runtime::get().device(deviceId);
    const CoreKind kind = kind_of(type);
    check_value(device, value);
    device.res_limits().set(kind, value);
  });
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::Runtime::get().device(deviceId).res_limits().reset();
  });
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(stream);
    const CoreKind kind = kind_of(type);
    check_out(value);
    const uint32_t set = s->res_limits().get(kind);
    *value = set != 0 ? set : openacl::device_res_limit(s->device(), kind);
  });
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(stream);
    const CoreKind kind = kind_of(type);
    check_value(s->device(), value);
    s->res_limits().set(kind, value);
  });
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::stream_for_host(stream)->res_limits().reset();
  });
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(stream);
    openacl::ThreadState &me = openacl::this_thread();
    me.res_stream_ptr = s.get();
    me.res_stream = s;
  });
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(stream);
    openacl::ThreadState &me = openacl::this_thread();
    if (me.res_stream_ptr != s.get()) {
      fail(Errc::invalid_argument,
           "the calling thread does not use this stream's resource limits "
           "(aclrtUseStreamResInCurrentThread)");
    }
    me.res_stream_ptr = nullptr;
    me.res_stream.reset();
  });
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    const CoreKind kind = kind_of(type);
    check_out(value);
    *value = openacl::thread_res_limit(openacl::api::current_device(), kind);
  });
}

}  // extern "C"
