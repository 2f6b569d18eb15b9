// The sim backend: a simulated NPU made of host CPU cores. Device memory is host memory that
// only the runtime hands out; the AI cores are a worker pool.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "backend/backend.h"
#include "backend/sim/copy_kernel.h"
#include "backend/sim/worker_pool.h"
#include "core/status.h"

namespace openacl::sim {
namespace {

// Host memory: 64 bytes, as CANN documents for aclrtMallocHost. Device memory: 512 bytes. CANN
// documents 64, but a real device's allocator hands out page-granular blocks, and programs
// lean on more: ggml's CANN backend places tensors at 128-byte offsets from a buffer's start.
constexpr size_t kAlignment = 64;
constexpr size_t kDeviceAlignment = 512;

size_t round_up(size_t n, size_t alignment) { return (n + alignment - 1) / alignment * alignment; }

class SimDevice final : public backend::DeviceBackend {
 public:
  SimDevice(int id, backend::DeviceProps props, const backend::KernelTable *kernels)
      : props_(std::move(props)),
        pool_(id, props_.ai_cores),
        kernels_(kernels ? *kernels : none()) {}

  const backend::DeviceProps &props() const override { return props_; }
  void *allocate(size_t bytes) override { return aligned(bytes, kDeviceAlignment); }
  void deallocate(void *p, size_t) override { std::free(p); }
  void *allocate_host(size_t bytes) override { return aligned(bytes, kAlignment); }
  void deallocate_host(void *p, size_t) override { std::free(p); }
  void copy(void *dst, const void *src, size_t n) override { copy_bytes(dst, src, n); }
  void fill(void *dst, int value, size_t n) override { std::memset(dst, value, n); }
  void fill32(void *dst, uint32_t value, size_t count) override {
    std::fill_n(static_cast<uint32_t *>(dst), count, value);
  }
  // Device memory is host memory: a view is the memory itself.
  void *begin_host_access(void *p, size_t, Access) override { return p; }
  void end_host_access(void *, void *, size_t, Access) noexcept override {}
  bool host_addressable() const override { return true; }
  void schedule(backend::Runnable *r) override { pool_.schedule(r); }
  bool unschedule(backend::Runnable *r) override { return pool_.unschedule(r); }
  backend::AiCores &cores() override { return pool_; }
  const backend::KernelTable &kernels() const override { return kernels_; }

 private:
  // A size too large to round up fails instead of wrapping around to a small block.
  static void *aligned(size_t bytes, size_t alignment) {
    return bytes > SIZE_MAX - alignment ? nullptr
                                        : std::aligned_alloc(alignment, round_up(bytes, alignment));
  }

  // A build without the op library runs no operators.
  static const backend::KernelTable &none() {
    static const backend::KernelTable table("sim");
    return table;
  }

  backend::DeviceProps props_;
  WorkerPool pool_;
  const backend::KernelTable &kernels_;
};

}  // namespace
}  // namespace openacl::sim

namespace openacl::backend {

std::unique_ptr<DeviceBackend> create_device(const std::string &kind, int id,
                                             const DeviceProps &props, const KernelTable *kernels) {
  if (kind == "sim") return std::make_unique<sim::SimDevice>(id, props, kernels);
  fail(Errc::feature_not_supported, "unknown backend '" + kind + "' (available: sim)");
}

}  // namespace openacl::backend
