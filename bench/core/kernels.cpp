// Kernels for the core benchmarks: a no-op (pure launch cost) and a gate that holds its stream
// until the host opens it, so that a benchmark can queue tasks behind it.
#include <atomic>
#include <chrono>
#include <thread>

#include "openacl/openacl_kernel.h"

OPENACL_KERNEL void bench_noop(uint32_t, uint32_t, void *) {}

// args: a pointer to a std::atomic<int> in host memory; returns once it is non-zero. It polls:
// std::atomic::wait/notify do not pair up across this module and the program (each has its
// own libstdc++ waiter table), and the gate's opening latency is not what is measured.
OPENACL_KERNEL void bench_gate(uint32_t, uint32_t, void *args) {
  auto *gate = *static_cast<std::atomic<int> **>(args);
  while (gate->load(std::memory_order_acquire) == 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}
