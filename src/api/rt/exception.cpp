// Exception callbacks (aclrtSetExceptionInfoCallback, aclrtExceptionInfoCallbackRegister):
// a task that fails on the device (R20) is described to them, on the device worker that ran
// it, before the failure reaches any synchronization.
#include "api/rt/exception.h"

#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/device.h"
#include "core/kernel.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"

// Opaque to programs (acl_rt.h declares only the name).
struct rtExceptionInfo {
  uint32_t task_id;
  uint32_t stream_id;
  uint32_t thread_id;
  uint32_t device_id;
  uint32_t error_code;
  void *args;  // a kernel launch's arguments, else nullptr
  uint32_t args_size;
  aclrtFuncHandle function;
};

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

namespace {

// What the documentation returns for information it cannot give.
constexpr uint32_t kUnknown = 0xFFFFFFFF;

openacl::ProgramCallbacks &callbacks() { return openacl::Runtime::get().program_callbacks(); }

uint32_t field(const aclrtExceptionInfo *info, uint32_t rtExceptionInfo::*member, const char *api) {
  if (info == nullptr) {
    openacl::api::record_error(api, "info is NULL", ACL_ERROR_INVALID_PARAM);
    return kUnknown;
  }
  return info->*member;
}

const aclrtExceptionInfo *info_or_fail(const aclrtExceptionInfo *info) {
  if (info == nullptr) fail(Errc::invalid_argument, "info is NULL");
  return info;
}

}  // namespace

namespace openacl::api {

void on_task_failure(const Stream &stream, const Task &task, const Error &error) {
  const std::vector<aclrtExceptionInfoCallback> call = callbacks().exception_callbacks();
  if (call.empty()) return;
  rtExceptionInfo info{static_cast<uint32_t>(task.seq),
                       openacl::handle_serial(stream.handle()),
                       task.thread_id,
                       static_cast<uint32_t>(stream.device().id()),
                       static_cast<uint32_t>(openacl::api::to_acl_error(error.code())),
                       nullptr,
                       0,
                       nullptr};
  if (const openacl::KernelLaunch k = task.kernel_launch(); k.function != nullptr) {
    info.args = k.args;
    info.args_size = static_cast<uint32_t>(k.args_size);
    info.function = k.function->handle();
  }
  for (auto fn : call) {
    try {
      fn(&info);
    } catch (...) {  // the task fails either way; the program's handler must not end the process
      std::fprintf(
          stderr,
          "openacl: an exception callback (aclrtSetExceptionInfoCallback) threw; ignored\n");
    }
  }
}

}  // namespace openacl::api

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  return guarded(__func__, [&] { callbacks().set_exception(callback); });  // NULL clears it
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  return guarded(__func__, [&] { callbacks().add_exception(callback); });
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  return guarded(__func__, [&] { callbacks().remove_exception(callback); });
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  return field(info, &rtExceptionInfo::task_id, __func__);
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  return field(info, &rtExceptionInfo::stream_id, __func__);
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  return field(info, &rtExceptionInfo::thread_id, __func__);
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  return field(info, &rtExceptionInfo::device_id, __func__);
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info) {
  return field(info, &rtExceptionInfo::error_code, __func__);
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                       uint32_t *devArgsLen) {
  return guarded(__func__, [&] {
    info_or_fail(info);
    if (devArgsPtr == nullptr || devArgsLen == nullptr)
      fail(Errc::invalid_argument, "devArgsPtr or devArgsLen is NULL");
    if (info->args == nullptr)
      fail(Errc::invalid_argument, "the failed task is not a kernel launch: it has no arguments");
    *devArgsPtr = info->args;
    *devArgsLen = info->args_size;
  });
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info,
                                             aclrtFuncHandle *func) {
  return guarded(__func__, [&] {
    info_or_fail(info);
    if (func == nullptr) fail(Errc::invalid_argument, "func is NULL");
    if (info->function == nullptr)
      fail(Errc::invalid_argument, "the failed task is not a kernel launch: it has no function");
    *func = info->function;
  });
}

}  // extern "C"
