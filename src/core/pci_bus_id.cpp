#include "core/pci_bus_id.h"

#include <cstdio>

namespace openacl {

namespace {
constexpr unsigned kBuses = 256;
constexpr unsigned kDevicesPerBus = 32;  // a PCI bus has 32 device numbers
}  // namespace

std::string pci_bus_id(int32_t device_id) {
  const unsigned n = static_cast<unsigned>(device_id) + 1;  // bus 0 is the host bridge's
  char text[kPciBusIdLength + 1];
  std::snprintf(text, sizeof(text), "0000:%02x:%02x.0", n % kBuses, (n / kBuses) % kDevicesPerBus);
  return text;
}

std::optional<int32_t> device_of_pci_bus_id(const std::string &text) {
  // sscanf alone would take spaces and signs.
  if (text.find_first_not_of("0123456789abcdefABCDEF:.") != std::string::npos) return std::nullopt;
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  int end = 0;
  const bool full =
      std::sscanf(text.c_str(), "%4x:%2x:%2x.%1x%n", &domain, &bus, &device, &function, &end) == 4;
  if (!full) {
    domain = end = 0;
    if (std::sscanf(text.c_str(), "%2x:%2x.%1x%n", &bus, &device, &function, &end) != 3)
      return std::nullopt;
  }
  if (static_cast<size_t>(end) != text.size() || domain != 0 || function != 0 ||
      device >= kDevicesPerBus)
    return std::nullopt;
  const unsigned n = device * kBuses + bus;
  if (n == 0) return std::nullopt;
  return static_cast<int32_t>(n - 1);
}

}  // namespace openacl
