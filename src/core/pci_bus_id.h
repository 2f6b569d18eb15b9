// The PCI bus ID of a simulated device (aclrtDeviceGetPCIBusId, aclrtDeviceGetByPCIBusId), in
// the form CANN and CUDA give, "dddd:bb:dd.f" in lower-case hex (12 characters): domain 0000,
// function 0, and the device id plus one spread over bus and device number, so every id of a
// process has its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace openacl {

inline constexpr size_t kPciBusIdLength = 12;

std::string pci_bus_id(int32_t device_id);
// The device id a bus ID names; nullopt when the text is not a bus ID of a simulated device.
// Accepts "bb:dd.f" without the domain and upper-case hex, as CUDA does.
std::optional<int32_t> device_of_pci_bus_id(const std::string &text);

}  // namespace openacl
