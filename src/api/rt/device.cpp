// Devices (R2, R3): set/reset counting, queries, device-wide synchronization.
#include <algorithm>
#include <cstring>
#include <thread>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/context.h"
#include "core/device.h"
#include "core/observer.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

template <class T>
void check_out(T *p, const char *name) {
  if (p == nullptr) fail(Errc::invalid_argument, std::string(name) + " is NULL");
}

void set_peer_access(int32_t peer, bool enabled, uint32_t flags) {
  require_initialized();
  Runtime::get().device(peer);
  if (flags != 0) fail(Errc::invalid_argument, "flags must be 0");
  auto &device = openacl::api::current_device();
  if (device.id() == peer) {
    fail(Errc::invalid_value, "peerDeviceId " + std::to_string(peer) + " is the current device");
  }
  device.set_peer_access(peer, enabled);
}

}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().set_device(deviceId);
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().reset_device(deviceId, false);
  });
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().reset_device(deviceId, true);
  });
}

aclError aclrtGetDevice(int32_t *deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(deviceId, "deviceId");
    *deviceId = openacl::api::current_device().id();
  });
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(count, "count");
    *count = Runtime::get().device_count();
  });
}

// No init check, as in CANN: samples ask for the run mode before aclInit.
aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  return guarded(__func__, [&] {
    check_out(runMode, "runMode");
    *runMode = ACL_HOST;  // the program runs on the host, beside the (simulated) device
  });
}

aclError aclrtSetTsDevice(aclrtTsId tsId) {
  return guarded(__func__, [&] {
    require_initialized();
    int64_t ts = openacl::api::enum_value(tsId);
    if (ts != ACL_TS_ID_AICORE && ts != ACL_TS_ID_AIVECTOR) {
      fail(Errc::invalid_argument, "tsId must be ACL_TS_ID_AICORE or ACL_TS_ID_AIVECTOR");
    }
  });
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  return guarded(__func__, [&] {
    require_initialized();
    int64_t m = openacl::api::enum_value(mode);
    if (m != ACL_RT_OVERFLOW_MODE_SATURATION && m != ACL_RT_OVERFLOW_MODE_INFNAN) {
      fail(Errc::invalid_argument,
           "mode must be ACL_RT_OVERFLOW_MODE_SATURATION or ACL_RT_OVERFLOW_MODE_INFNAN");
    }
    openacl::api::current_device().set_overflow_mode(static_cast<int32_t>(m));
  });
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(mode, "mode");
    *mode = static_cast<aclrtFloatOverflowMode>(openacl::api::current_device().overflow_mode());
  });
}

aclError aclrtSynchronizeDevice() {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::HostSpan span("aclrtSynchronizeDevice");
    auto ctx = openacl::api::current_context();
    ctx->device().synchronize(-1, ctx.get());
  });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    int32_t ms = openacl::api::timeout_ms(timeout);
    openacl::HostSpan span("aclrtSynchronizeDeviceWithTimeout");
    auto ctx = openacl::api::current_context();
    ctx->device().synchronize(ms, ctx.get());
  });
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(value, "value");
    openacl::Device &d = Runtime::get().device(deviceId);
    int64_t a = openacl::api::enum_value(attr);
    switch (a) {
      case ACL_DEV_ATTR_AICORE_CORE_NUM:
      case ACL_DEV_ATTR_CUBE_CORE_NUM:
      case ACL_DEV_ATTR_VECTOR_CORE_NUM:
        *value = d.props().ai_cores;
        break;
      case ACL_DEV_ATTR_AICPU_CORE_NUM:
        *value = std::thread::hardware_concurrency();
        break;
      case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
        *value = static_cast<int64_t>(d.capacity());
        break;
      case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
        *value = UINT32_MAX;
        break;
      case ACL_DEV_ATTR_IS_VIRTUAL:
        *value = 1;
        break;
      default:
        fail(Errc::feature_not_supported,
             "device attribute " + std::to_string(a) + " is not reported by the sim device");
    }
  });
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(value, "value");
    openacl::Device &d = Runtime::get().device(deviceId);
    int64_t info = openacl::api::enum_value(deviceInfo);
    switch (info) {
      case ACL_DEVICE_INFO_AI_CORE_NUM:
      case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = d.props().ai_cores;
        break;
      default:
        fail(Errc::feature_not_supported,
             "device capability " + std::to_string(info) + " is not reported");
    }
  });
}

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(canAccessPeer, "canAccessPeer");
    Runtime::get().device(deviceId);
    Runtime::get().device(peerDeviceId);
    if (deviceId == peerDeviceId) {
      fail(Errc::invalid_value, "deviceId and peerDeviceId are the same device");
    }
    *canAccessPeer = 1;  // sim devices share the host's memory
  });
}

// From the current device to peerDeviceId.
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  return guarded(__func__, [&] { set_peer_access(peerDeviceId, true, flags); });
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  return guarded(__func__, [&] { set_peer_access(peerDeviceId, false, 0); });
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(status, "status");
    auto &device = Runtime::get().device(deviceId);
    Runtime::get().device(peerDeviceId);
    *status = device.peer_access(peerDeviceId) ? 1 : 0;
  });
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(active, "active");
    *active = Runtime::get().device(deviceId).default_context_active() ? 1 : 0;
    if (flags != nullptr) *flags = 0;
  });
}

}  // extern "C"

extern "C" {

// Streams take priorities 0 (highest) to 7 (lowest), as on Ascend devices.
aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority) {
  return guarded(__func__, [&] {
    check_out(leastPriority, "leastPriority");
    check_out(greatestPriority, "greatestPriority");
    *leastPriority = 7;
    *greatestPriority = 0;
  });
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(deviceStatus, "deviceStatus");
    if (deviceId < 0)
      fail(Errc::invalid_argument, "deviceId " + std::to_string(deviceId) + " is negative");
    Runtime::get().device(deviceId);              // throws for an id past the device count
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;  // a simulated device never faults on its own
  });
}

// One component holds all of a simulated device's memory: the runtime's allocations (aclrtMalloc,
// physical allocations, model weights and work memory), now and at their peak.
aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                              size_t *outputNum) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(outputNum, "outputNum");
    if (inputNum > 0) check_out(memUsageInfo, "memUsageInfo");
    auto &device = Runtime::get().device(deviceId);
    *outputNum = inputNum == 0 ? 0 : 1;
    if (inputNum == 0) return;
    memUsageInfo[0] = aclrtMemUsageInfo{};
    std::strncpy(memUsageInfo[0].name, "runtime", sizeof(memUsageInfo[0].name) - 1);
    memUsageInfo[0].curMemSize = device.used_bytes();
    memUsageInfo[0].memPeakSize = device.peak_bytes();
  });
}

// A fixed identity per device id, the same in every run: "openacl-sim" and the id.
aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(uuid, "uuid");
    if (deviceId < 0)
      fail(Errc::invalid_argument, "deviceId " + std::to_string(deviceId) + " is negative");
    Runtime::get().device(deviceId);
    std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
    std::memcpy(uuid->bytes, "openacl-sim", 11);
    const auto id = static_cast<uint32_t>(deviceId);
    std::memcpy(uuid->bytes + 12, &id, sizeof(id));
  });
}

}  // extern "C"

// Process-wide limits (core/device_limits.h). Atlas A2 has no SIMT units: those limits are
// refused as CANN refuses them there.
namespace {

bool simt_limit(int64_t limit) {
  return limit == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ||
         limit == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ||
         limit == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE;
}

int64_t checked_limit(const aclrtDeviceLimit &limit) {
  const int64_t v = openacl::api::enum_value(limit);
  if (v < ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || v > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE)
    fail(Errc::invalid_argument,
         "limit " + std::to_string(v) + " is not an aclrtDeviceLimit value");
  if (simt_limit(v))
    fail(Errc::feature_not_supported,
         "limit " + std::to_string(v) +
             " is a SIMT limit; the simulated NPU (an Atlas A2 kind) has only SIMD "
             "limits: ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, "
             "ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE");
  return v;
}

}  // namespace

extern "C" {

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
  return guarded(__func__, [&] {
    require_initialized();
    auto &limits = Runtime::get().device_limits();
    if (checked_limit(limit) == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE) limits.set_simd_stack(value);
    else limits.set_printf_fifo(value);
  });
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    check_out(value, "value");
    const auto &limits = Runtime::get().device_limits();
    *value = checked_limit(limit) == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE ? limits.simd_stack()
                                                                      : limits.printf_fifo();
  });
}

// Cube and vector utilization: the share of the device's AI cores running work right now (the
// simulated cores do both). No AI CPU here; memory utilization is -1 as in CANN's current
// release.
aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo) {
  return guarded(__func__, [&] {
    require_initialized();
    auto &device = Runtime::get().device(deviceId);
    check_out(utilizationInfo, "utilizationInfo");
    const unsigned cores = std::max(1u, device.cores().count());
    const auto percent = static_cast<int32_t>(std::min(100u, 100u * device.cores().busy() / cores));
    utilizationInfo->cubeUtilization = percent;
    utilizationInfo->vectorUtilization = percent;
    utilizationInfo->aicpuUtilization = 0;
    utilizationInfo->memoryUtilization = -1;
  });
}

}  // extern "C"
