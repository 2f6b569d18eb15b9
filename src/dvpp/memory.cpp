#include "dvpp/memory.h"

#include <cstdint>
#include <memory>
#include <string>

#include "core/device.h"
#include "core/memory.h"
#include "core/observer.h"
#include "core/runtime.h"
#include "core/status.h"

namespace openacl::dvpp {
namespace {

// The live acldvppMalloc allocations, by base address; aclFinalize empties the table with the
// device memory it frees.
struct DvppAllocation {};

Registry<DvppAllocation> &allocations() { return Runtime::get().tables.of<DvppAllocation>(); }

bool registered(uintptr_t base) {
  return allocations().find(reinterpret_cast<const void *>(base)) != nullptr;
}

}  // namespace

void *allocate(Device &device, size_t size) {
  constexpr size_t kMax = size_t{1} << 40;  // keeps the rounding below from overflowing
  if (size > kMax)
    fail(Errc::out_of_memory, "size " + std::to_string(size) + " exceeds the device memory");
  void *p = device.allocate((size + 31) / 32 * 32 + 32);
  Runtime::get().memory().mark_dvpp(p);
  allocations().add(p, std::make_shared<DvppAllocation>());
  notify(&TaskObserver::on_object, ObjectKind::device_memory, p, true);
  return p;
}

void release(void *p) {
  auto a = Runtime::get().memory().find(p);
  auto base = reinterpret_cast<uintptr_t>(p);
  if (!a || a->base != base || a->kind != MemoryKind::device || !registered(base)) {
    fail(Errc::invalid_argument,
         "devPtr is not the start of a live acldvppMalloc allocation (double free, a pointer into "
         "the middle of one, or memory from aclrtMalloc: free that with aclrtFree)");
  }
  allocations().remove(p);
  notify(&TaskObserver::on_free, *a, "acldvppFree");
  notify(&TaskObserver::on_object, ObjectKind::device_memory, p, false);
  a->device->release(p);
}

void check_range(const void *p, size_t n, const char *what) {
  std::string name(what);
  if (p == nullptr) fail(Errc::invalid_argument, name + " is NULL");
  auto a = Runtime::get().memory().find(p);
  if (!a || a->kind != MemoryKind::device) {
    fail(Errc::invalid_argument,
         name + " is not device memory: DVPP reads and writes only memory from acldvppMalloc");
  }
  if (!registered(a->base)) {
    fail(Errc::invalid_argument,
         name + " is device memory from aclrtMalloc: DVPP needs memory from acldvppMalloc");
  }
  auto offset = reinterpret_cast<uintptr_t>(p) - a->base;
  if (n > a->size - offset) {
    fail(Errc::invalid_argument, name + " needs " + std::to_string(n) +
                                     " bytes but its acldvppMalloc allocation holds " +
                                     std::to_string(a->size - offset) + " from there");
  }
}

}  // namespace openacl::dvpp
