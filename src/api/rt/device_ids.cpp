// Device ids and capabilities. The sim device set has one numbering: a device's user id
// (what aclrtSetDevice takes, after any visible-device filtering), logical id and physical id
// are the same number.
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/pci_bus_id.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

void same_id(int32_t from, int32_t *to, const char *out_name) {
  require_initialized();
  if (to == nullptr) fail(Errc::invalid_argument, std::string(out_name) + " is NULL");
  if (from < 0) fail(Errc::invalid_device, "device id " + std::to_string(from) + " is negative");
  Runtime::get().device(from);
  *to = from;
}

}  // namespace

extern "C" {

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId) {
  return guarded(__func__, [&] { same_id(userDevid, logicDevId, "logicDevId"); });
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid) {
  return guarded(__func__, [&] { same_id(logicDevId, userDevid, "userDevid"); });
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId) {
  return guarded(__func__, [&] { same_id(phyDevId, logicDevId, "logicDevId"); });
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId) {
  return guarded(__func__, [&] { same_id(logicDevId, phyDevId, "phyDevId"); });
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId) {
  return guarded(__func__, [&] { same_id(phyDevId, userDevId, "userDevId"); });
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId) {
  return guarded(__func__, [&] { same_id(userDevId, phyDevId, "phyDevId"); });
}

aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len) {
  return guarded(__func__, [&] {
    require_initialized();
    if (pciBusId == nullptr) fail(Errc::invalid_argument, "pciBusId is NULL");
    Runtime::get().device(deviceId);
    const std::string id = openacl::pci_bus_id(deviceId);
    if (len < 0 || static_cast<size_t>(len) <= id.size()) {
      fail(Errc::invalid_argument, "len " + std::to_string(len) + " cannot hold the bus ID " + id +
                                       " and its NUL (" + std::to_string(id.size() + 1) +
                                       " bytes)");
    }
    std::memcpy(pciBusId, id.c_str(), id.size() + 1);
  });
}

aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (pciBusId == nullptr) fail(Errc::invalid_argument, "pciBusId is NULL");
    if (deviceId == nullptr) fail(Errc::invalid_argument, "deviceId is NULL");
    // A bus ID is 12 characters: a longer text is no bus ID, however it ends.
    const std::string text(pciBusId, strnlen(pciBusId, openacl::kPciBusIdLength + 1));
    const auto id = openacl::device_of_pci_bus_id(text);
    if (!id || static_cast<uint32_t>(*id) >= Runtime::get().device_count()) {
      fail(Errc::invalid_device, "pciBusId \"" + text +
                                     "\" is the bus ID of no device (device 0's is " +
                                     openacl::pci_bus_id(0) + ")");
    }
    *deviceId = *id;
  });
}

// Simulated devices share the host's coherent memory, as the HCCS-linked NPUs of one Atlas
// A2 server do: that is the link collective libraries (HCCL) plan for.
aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    Runtime::get().device(deviceId);
    Runtime::get().device(otherDeviceId);
    if (deviceId == otherDeviceId) {
      fail(Errc::invalid_argument, "deviceId and otherDeviceId are both " +
                                       std::to_string(deviceId) + ": a link needs two devices");
    }
    *value = ACL_RT_DEVS_TOPOLOGY_HCCS;
  });
}

// Neither feature exists on a simulated device: task updates by the device's task scheduler
// CPU, and memory-queue events across devices.
aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                  int32_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    if (deviceId < 0)
      fail(Errc::invalid_device, "deviceId " + std::to_string(deviceId) + " is negative");
    Runtime::get().device(deviceId);
    const int64_t feature = openacl::api::enum_value(devFeatureType);
    if (feature != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
        feature != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV) {
      fail(Errc::invalid_argument,
           "devFeatureType " + std::to_string(feature) + " is not an aclrtDevFeatureType");
    }
    *value = ACL_DEV_FEATURE_NOT_SUPPORT;
  });
}

}  // extern "C"
