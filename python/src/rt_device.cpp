// acl.rt: devices and contexts.
#include "common.h"

#include <acl/acl.h>

namespace openacl::py_acl {

namespace {

void register_device(py::module_ &rt) {
  rt.def("set_device", [](int32_t device_id) { return aclrtSetDevice(device_id); });
  // Resetting releases the device's streams, which waits for their work (and callbacks).
  rt.def(
      "reset_device", [](int32_t device_id) { return aclrtResetDevice(device_id); }, nogil());
  rt.def(
      "reset_device_force", [](int32_t device_id) { return aclrtResetDeviceForce(device_id); },
      nogil());
  rt.def("get_device", [] {
    int32_t id = 0;
    aclError ret = aclrtGetDevice(&id);
    return std::make_tuple(id, ret);
  });
  rt.def("get_device_count", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetDeviceCount(&count);
    return std::make_tuple(count, ret);
  });
  rt.def("get_run_mode", [] {
    aclrtRunMode mode = ACL_HOST;
    aclError ret = aclrtGetRunMode(&mode);
    return std::make_tuple(static_cast<int>(mode), ret);
  });
  rt.def(
      "synchronize_device", [] { return aclrtSynchronizeDevice(); }, nogil());
  rt.def(
      "synchronize_device_with_timeout",
      [](int32_t timeout) { return aclrtSynchronizeDeviceWithTimeout(timeout); }, nogil());
  rt.def("set_ts_device",
         [](int ts_id) { return aclrtSetTsDevice(static_cast<aclrtTsId>(ts_id)); });
  rt.def("device_can_access_peer", [](int32_t device_id, int32_t peer_device_id) {
    int32_t can = 0;
    aclError ret = aclrtDeviceCanAccessPeer(&can, device_id, peer_device_id);
    return std::make_tuple(can, ret);
  });
  rt.def("device_enable_peer_access", [](int32_t peer_device_id, uint32_t flags) {
    return aclrtDeviceEnablePeerAccess(peer_device_id, flags);
  });
  rt.def("device_disable_peer_access",
         [](int32_t peer_device_id) { return aclrtDeviceDisablePeerAccess(peer_device_id); });
  rt.def("get_devices_topo", [](uint32_t device_id, uint32_t other_device_id) {
    uint64_t value = 0;
    aclError ret = aclrtGetDevicesTopo(device_id, other_device_id, &value);
    return std::make_tuple(value, ret);
  });
  rt.def("device_peer_access_status", [](int32_t device_id, int32_t peer_device_id) {
    int32_t status = 0;
    aclError ret = aclrtDevicePeerAccessStatus(device_id, peer_device_id, &status);
    return std::make_tuple(status, ret);
  });
  rt.def("get_device_info", [](uint32_t device_id, int attr) {
    int64_t value = 0;
    aclError ret = aclrtGetDeviceInfo(device_id, static_cast<aclrtDevAttr>(attr), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("get_device_capability", [](int32_t device_id, int feature) {
    int32_t value = 0;
    aclError ret =
        aclrtGetDeviceCapability(device_id, static_cast<aclrtDevFeatureType>(feature), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("query_device_status", [](int32_t device_id) {
    aclrtDeviceStatus status{};
    aclError ret = aclrtQueryDeviceStatus(device_id, &status);
    return std::make_tuple(static_cast<int>(status), ret);
  });
  rt.def("device_get_stream_priority_range", [] {
    int32_t least = 0, greatest = 0;
    aclError ret = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
    return std::make_tuple(least, greatest, ret);
  });
  rt.def("set_device_sat_mode",
         [](int mode) { return aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(mode)); });
  rt.def("get_device_sat_mode", [] {
    aclrtFloatOverflowMode mode{};
    aclError ret = aclrtGetDeviceSatMode(&mode);
    return std::make_tuple(static_cast<int>(mode), ret);
  });
  rt.def("get_device_utilization_rate", [](int32_t device_id) {
    aclrtUtilizationInfo info{0, 0, 0, 0, nullptr};
    aclError ret = aclrtGetDeviceUtilizationRate(device_id, &info);
    py::dict d;
    d["cube_utilization"] = info.cubeUtilization;
    d["vector_utilization"] = info.vectorUtilization;
    d["aicpu_utilization"] = info.aicpuUtilization;
    d["memory_utilization"] = info.memoryUtilization;
    d["utilization_extend"] = reinterpret_cast<std::uintptr_t>(info.utilizationExtend);
    return std::make_tuple(d, ret);
  });
  rt.def("device_set_limit", [](int limit, size_t value) {
    return aclrtDeviceSetLimit(static_cast<aclrtDeviceLimit>(limit), value);
  });
  rt.def("device_get_limit", [](int limit) {
    size_t value = 0;
    aclError ret = aclrtDeviceGetLimit(static_cast<aclrtDeviceLimit>(limit), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("set_sys_param_opt", [](int opt, int64_t value) {
    return aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(opt), value);
  });
  rt.def("get_sys_param_opt", [](int opt) {
    int64_t value = 0;
    aclError ret = aclrtGetSysParamOpt(static_cast<aclSysParamOpt>(opt), &value);
    return std::make_tuple(value, ret);
  });
}

// AI-core resource limits of the process, of a stream and of the calling thread.
void register_res_limits(py::module_ &rt) {
  auto type_of = [](int type) { return static_cast<aclrtDevResLimitType>(type); };
  rt.def("get_device_res_limit", [type_of](int32_t device_id, int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetDeviceResLimit(device_id, type_of(type), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("set_device_res_limit", [type_of](int32_t device_id, int type, uint32_t value) {
    return aclrtSetDeviceResLimit(device_id, type_of(type), value);
  });
  rt.def("reset_device_res_limit",
         [](int32_t device_id) { return aclrtResetDeviceResLimit(device_id); });
  rt.def("get_stream_res_limit", [type_of](Ptr stream, int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetStreamResLimit(to_ptr(stream), type_of(type), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("set_stream_res_limit", [type_of](Ptr stream, int type, uint32_t value) {
    return aclrtSetStreamResLimit(to_ptr(stream), type_of(type), value);
  });
  rt.def("reset_stream_res_limit",
         [](Ptr stream) { return aclrtResetStreamResLimit(to_ptr(stream)); });
  rt.def("use_stream_res_in_current_thread",
         [](Ptr stream) { return aclrtUseStreamResInCurrentThread(to_ptr(stream)); });
  rt.def("unuse_stream_res_in_current_thread",
         [](Ptr stream) { return aclrtUnuseStreamResInCurrentThread(to_ptr(stream)); });
  rt.def("get_res_in_current_thread", [type_of](int type) {
    uint32_t value = 0;
    aclError ret = aclrtGetResInCurrentThread(type_of(type), &value);
    return std::make_tuple(value, ret);
  });
}

void register_context(py::module_ &rt) {
  rt.def("create_context", [](int32_t device_id) {
    aclrtContext ctx = nullptr;
    aclError ret = aclrtCreateContext(&ctx, device_id);
    return std::make_tuple(to_int(ctx), ret);
  });
  // Destroying a context destroys its streams, which waits for their work.
  rt.def(
      "destroy_context", [](Ptr ctx) { return aclrtDestroyContext(to_ptr(ctx)); }, nogil());
  rt.def("set_context", [](Ptr ctx) { return aclrtSetCurrentContext(to_ptr(ctx)); });
  rt.def("get_context", [] {
    aclrtContext ctx = nullptr;
    aclError ret = aclrtGetCurrentContext(&ctx);
    return std::make_tuple(to_int(ctx), ret);
  });
  rt.def("ctx_get_current_default_stream", [] {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCtxGetCurrentDefaultStream(&stream);
    return std::make_tuple(to_int(stream), ret);
  });
  rt.def("ctx_set_sys_param_opt", [](int opt, int64_t value) {
    return aclrtCtxSetSysParamOpt(static_cast<aclSysParamOpt>(opt), value);
  });
  rt.def("ctx_get_sys_param_opt", [](int opt) {
    int64_t value = 0;
    aclError ret = aclrtCtxGetSysParamOpt(static_cast<aclSysParamOpt>(opt), &value);
    return std::make_tuple(value, ret);
  });
  rt.def("get_primary_ctx_state", [](int32_t device_id) {
    uint32_t flags = 0;
    int32_t active = 0;
    aclError ret = aclrtGetPrimaryCtxState(device_id, &flags, &active);
    return std::make_tuple(flags, active, ret);
  });
}

}  // namespace

void register_rt_device(py::module_ &rt) {
  register_device(rt);
  register_res_limits(rt);
  register_context(rt);
}

}  // namespace openacl::py_acl
