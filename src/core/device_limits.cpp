#include "core/device_limits.h"

#include <string>

#include "core/status.h"

namespace openacl {

void DeviceLimits::set_simd_stack(size_t bytes) {
  if (bytes <= kDefaultSimdStack) return;
  constexpr size_t step = size_t{16} << 10;
  simd_stack_.store((bytes + step - 1) / step * step, std::memory_order_relaxed);
}

void DeviceLimits::set_printf_fifo(size_t bytes) {
  if (bytes < (size_t{1} << 10) || bytes > (size_t{64} << 20))
    fail(Errc::invalid_value,
         "the printf FIFO size " + std::to_string(bytes) + " is outside [1024, 67108864] bytes");
  printf_fifo_.store((bytes + 7) / 8 * 8, std::memory_order_relaxed);
}

void DeviceLimits::check_for_set_device() const {
  const size_t s = simd_stack();
  if (s > kMaxSimdStack)
    fail(Errc::invalid_value, "the SIMD stack size set with aclrtDeviceSetLimit, " +
                                  std::to_string(s) +
                                  " bytes, is above the largest, 196608 (192 KiB)");
}

}  // namespace openacl
