// The program's own host memory made accessible to the device (aclrtHostRegister and its
// kin), and cache maintenance (aclrtMemFlush / aclrtMemInvalidate). The simulated device
// reaches host memory directly, so a registered range's device address is its host address;
// registration puts the range in the memory map as page-locked memory of the program's, which
// is what asynchronous copies and pointer attributes then see (R14).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"

using openacl::Allocation;
using openacl::Errc;
using openacl::fail;
using openacl::MemoryKind;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

void register_range(void *ptr, uint64_t size) {
  require_initialized();
  if (ptr == nullptr) fail(Errc::invalid_argument, "ptr is NULL");
  if (size == 0) fail(Errc::invalid_argument, "size is 0");
  const Allocation a{reinterpret_cast<uintptr_t>(ptr), static_cast<size_t>(size),
                     MemoryKind::host_registered, &openacl::api::current_device()};
  if (!Runtime::get().memory().add_if_free(a))
    fail(Errc::invalid_argument,
         "ptr..ptr+size overlaps memory the runtime already knows (an allocation of "
         "aclrtMalloc / aclrtMallocHost, or a range registered before)");
}

// The registered range containing p; Errc::invalid_argument naming `what` otherwise.
Allocation registered_at(const void *p, const char *what) {
  auto a = Runtime::get().memory().find(p);
  if (!a || a->kind != MemoryKind::host_registered)
    fail(Errc::invalid_argument,
         std::string(what) + " is not in a range registered with aclrtHostRegister");
  return *a;
}

// Flush and invalidate: device memory is coherent with the host here; the range is checked.
void check_cache_range(void *devPtr, size_t size) {
  require_initialized();
  if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
  if (size == 0) fail(Errc::invalid_argument, "size is 0");
  Runtime::get().memory().check_device_range(devPtr, size, "devPtr");
}

}  // namespace

extern "C" {

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
  return guarded(__func__, [&] {
    const int64_t t = openacl::api::enum_value(type);
    if (t != ACL_HOST_REGISTER_MAPPED && t != ACL_HOST_REGISTER_IOMEMORY &&
        t != ACL_HOST_REGISTER_READONLY)
      fail(Errc::invalid_argument,
           "type " + std::to_string(t) + " is not an aclrtHostRegisterType");
    if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
    register_range(ptr, size);
    *devPtr = ptr;
  });
}

aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag) {
  return guarded(__func__, [&] {
    constexpr uint64_t kKnown =
        ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
    if ((flag & ~kKnown) != 0)
      fail(Errc::invalid_argument, "flag " + std::to_string(flag) + " has unknown bits");
    register_range(ptr, size);
  });
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag) {
  return guarded(__func__, [&] {
    require_initialized();
    if (pDevice == nullptr) fail(Errc::invalid_argument, "pDevice is NULL");
    if (flag != 0) fail(Errc::invalid_argument, "flag must be 0");
    registered_at(pHost, "pHost");
    *pDevice = pHost;
  });
}

aclError aclrtHostUnregister(void *ptr) {
  return guarded(__func__, [&] {
    require_initialized();
    if (ptr == nullptr) fail(Errc::invalid_argument, "ptr is NULL");
    const Allocation a = registered_at(ptr, "ptr");
    if (a.base != reinterpret_cast<uintptr_t>(ptr))
      fail(Errc::invalid_argument, "ptr is inside a registered range, not its start");
    Runtime::get().memory().remove(ptr);
  });
}

aclError aclrtMemFlush(void *devPtr, size_t size) {
  return guarded(__func__, [&] { check_cache_range(devPtr, size); });
}

aclError aclrtMemInvalidate(void *devPtr, size_t size) {
  return guarded(__func__, [&] { check_cache_range(devPtr, size); });
}

}  // extern "C"
