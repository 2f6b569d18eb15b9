// aclrtDeviceSetLimit / GetLimit values, shared by every device of the process (as in CANN)
// and reset by each aclInit. Rules of Atlas A2: the SIMD stack size counts only above 32 KiB
// (rounded up to 16 KiB) and may not pass 192 KiB when a device is set; the per-core printf
// FIFO takes [1 KiB, 64 MiB], rounded up to 8 bytes. The simulated cores run kernels on host
// threads, so the values are kept and checked but size nothing.
#pragma once

#include <atomic>
#include <cstddef>

namespace openacl {

class DeviceLimits {
 public:
  static constexpr size_t kDefaultSimdStack = size_t{32} << 10;
  static constexpr size_t kMaxSimdStack = size_t{192} << 10;
  static constexpr size_t kDefaultPrintfFifo = size_t{1} << 20;

  void reset() {
    simd_stack_.store(kDefaultSimdStack, std::memory_order_relaxed);
    printf_fifo_.store(kDefaultPrintfFifo, std::memory_order_relaxed);
  }
  void set_simd_stack(size_t bytes);   // values <= 32 KiB leave the default
  void set_printf_fifo(size_t bytes);  // throws Errc::invalid_value outside [1 KiB, 64 MiB]
  size_t simd_stack() const { return simd_stack_.load(std::memory_order_relaxed); }
  size_t printf_fifo() const { return printf_fifo_.load(std::memory_order_relaxed); }
  // Throws Errc::invalid_value when the stack size is past what a device can be set up with.
  void check_for_set_device() const;

 private:
  std::atomic<size_t> simd_stack_{kDefaultSimdStack};
  std::atomic<size_t> printf_fifo_{kDefaultPrintfFifo};
};

}  // namespace openacl
