// Virtual memory management: reserved address ranges, physical allocations and their mappings
// (src/core/virtual_memory.h).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/observer.h"
#include "core/runtime.h"
#include "core/virtual_memory.h"

using openacl::Errc;
using openacl::fail;
using openacl::PhysicalMemory;
using openacl::Runtime;
using openacl::VirtualMemory;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

std::shared_ptr<PhysicalMemory> physical_of(aclrtDrvMemHandle handle) {
  if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
  auto p = Runtime::get().physical_memory.find(handle);
  if (!p)
    fail(Errc::invalid_handle,
         "handle is an unknown or freed physical allocation (aclrtMallocPhysical)");
  return p;
}

// The device a physical allocation lives on: prop->location, a device.
openacl::Device &device_of(const aclrtPhysicalMemProp &prop) {
  if (openacl::api::enum_value(prop.location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
    fail(Errc::invalid_argument, "prop->location.type must be ACL_MEM_LOCATION_TYPE_DEVICE");
  }
  const int64_t handle_type = openacl::api::enum_value(prop.handleType);
  if (handle_type != ACL_MEM_HANDLE_TYPE_NONE && handle_type != ACL_MEM_HANDLE_TYPE_POSIX) {
    fail(Errc::invalid_argument,
         "prop->handleType " + std::to_string(handle_type) + " is not an aclrtMemHandleType");
  }
  if (openacl::api::enum_value(prop.allocationType) != ACL_MEM_ALLOCATION_TYPE_PINNED) {
    fail(Errc::invalid_argument, "prop->allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED");
  }
  return Runtime::get().device(prop.location.id);
}

// [virPtr, virPtr + size) inside one mapping.
void require_mapped(const void *virPtr, size_t size) {
  if (virPtr == nullptr) fail(Errc::invalid_argument, "virPtr is NULL");
  auto a = Runtime::get().memory().find(virPtr);
  if (!a || !a->mapped || size > a->size - (reinterpret_cast<uintptr_t>(virPtr) - a->base)) {
    fail(Errc::invalid_argument, "[virPtr, virPtr + size) is not inside one mapping (aclrtMapMem)");
  }
}

void require_device(const aclrtMemLocation &location, const char *what) {
  if (openacl::api::enum_value(location.type) != ACL_MEM_LOCATION_TYPE_DEVICE) {
    fail(Errc::feature_not_supported,
         std::string(what) + ": only device locations have access to mapped memory here");
  }
  Runtime::get().device(location.id);
}

void require_no_flags(uint64_t flags) {
  if (flags != 0) fail(Errc::invalid_argument, "flags must be 0");
}

}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                          aclrtMemGranularityOptions option, size_t *granularity) {
  return guarded(__func__, [&] {
    require_initialized();
    if (prop == nullptr || granularity == nullptr)
      fail(Errc::invalid_argument, "prop or granularity is NULL");
    device_of(*prop);
    const int64_t o = openacl::api::enum_value(option);
    if (o != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
        o != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
      fail(Errc::invalid_argument,
           "option " + std::to_string(o) + " is not an aclrtMemGranularityOptions");
    }
    *granularity = VirtualMemory::kGranularity;
  });
}

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                uint64_t flags) {
  return guarded(__func__, [&] {
    require_initialized();
    if (virPtr == nullptr) fail(Errc::invalid_argument, "virPtr is NULL");
    // 1 asks for a huge-page range (CANN accepts it; ggml's pool passes it): a hint the
    // simulated device's single page size satisfies.
    if (flags != 0 && flags != HUGE_PAGE_TYPE)
      fail(Errc::invalid_argument, "flags must be 0 or 1 (huge pages)");
    *virPtr = Runtime::get().virtual_memory().reserve(size, alignment, expectPtr);
  });
}

aclError aclrtReleaseMemAddress(void *virPtr) {
  return guarded(__func__, [&] {
    require_initialized();
    if (virPtr == nullptr) fail(Errc::invalid_argument, "virPtr is NULL");
    Runtime::get().virtual_memory().release(virPtr);
  });
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                             const aclrtPhysicalMemProp *prop, uint64_t flags) {
  return guarded(__func__, [&] {
    require_initialized();
    if (handle == nullptr || prop == nullptr)
      fail(Errc::invalid_argument, "handle or prop is NULL");
    require_no_flags(flags);
    if (size == 0 || size % VirtualMemory::kGranularity != 0) {
      fail(Errc::invalid_argument, "size " + std::to_string(size) +
                                       " is not a non-zero multiple of the granularity " +
                                       std::to_string(VirtualMemory::kGranularity));
    }
    *handle = Runtime::get().physical_memory.add(
        std::make_shared<PhysicalMemory>(device_of(*prop), size));
  });
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  return guarded(__func__, [&] {
    require_initialized();
    auto p = physical_of(handle);
    if (Runtime::get().virtual_memory().mapped(*p)) {
      fail(Errc::invalid_argument,
           "the physical allocation is still mapped: aclrtUnmapMem its mappings first");
    }
    Runtime::get().physical_memory.remove(handle);
  });
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                     uint64_t flags) {
  return guarded(__func__, [&] {
    require_initialized();
    if (virPtr == nullptr) fail(Errc::invalid_argument, "virPtr is NULL");
    require_no_flags(flags);
    Runtime::get().virtual_memory().map(virPtr, size, offset, physical_of(handle));
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::memory_mapping, virPtr,
                    true);
  });
}

// Waits for the device's streams first: a task still using the mapping must not find it gone.
aclError aclrtUnmapMem(void *virPtr) {
  return guarded(__func__, [&] {
    require_initialized();
    if (virPtr == nullptr) fail(Errc::invalid_argument, "virPtr is NULL");
    auto p = Runtime::get().virtual_memory().physical_at(virPtr);
    if (!p) fail(Errc::invalid_argument, "virPtr does not start a mapping (aclrtMapMem)");
    p->device().synchronize(-1, nullptr);
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::memory_mapping, virPtr,
                    false);
    Runtime::get().virtual_memory().unmap(virPtr);
  });
}

aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (virPtr == nullptr || handle == nullptr)
      fail(Errc::invalid_argument, "virPtr or handle is NULL");
    auto p = Runtime::get().virtual_memory().physical_at(virPtr);
    if (!p) fail(Errc::invalid_argument, "virPtr is not inside a mapping (aclrtMapMem)");
    *handle = p->handle();
  });
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp *prop) {
  return guarded(__func__, [&] {
    require_initialized();
    if (prop == nullptr) fail(Errc::invalid_argument, "prop is NULL");
    auto p = physical_of(handle);
    *prop = aclrtPhysicalMemProp{};
    prop->handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop->memAttr = ACL_HBM_MEM;
    prop->location.id = static_cast<uint32_t>(p->device().id());
    prop->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  });
}

// Mapped memory is read-write for every device of the simulator (they share the host's memory):
// that is the one access this can set.
aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count) {
  return guarded(__func__, [&] {
    require_initialized();
    require_mapped(virPtr, size);
    if (desc == nullptr || count == 0) fail(Errc::invalid_argument, "desc is NULL or count is 0");
    for (size_t i = 0; i < count; ++i) {
      require_device(desc[i].location, ("desc[" + std::to_string(i) + "].location").c_str());
      if (openacl::api::enum_value(desc[i].flags) != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
        fail(Errc::feature_not_supported,
             "desc[" + std::to_string(i) +
                 "].flags: the simulated devices map memory "
                 "read-write only (ACL_RT_MEM_ACCESS_FLAGS_READWRITE)");
      }
    }
  });
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag) {
  return guarded(__func__, [&] {
    require_initialized();
    require_mapped(virPtr, 1);
    if (location == nullptr || flag == nullptr)
      fail(Errc::invalid_argument, "location or flag is NULL");
    require_device(*location, "location");
    *flag = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  });
}

// The allocation (aclrtMalloc, aclrtMallocHost, a mapping) that contains ptr.
aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize) {
  return guarded(__func__, [&] {
    require_initialized();
    if (ptr == nullptr) fail(Errc::invalid_argument, "ptr is NULL");
    auto a = Runtime::get().memory().find(ptr);
    if (!a)
      fail(Errc::invalid_argument, "ptr is not inside memory the runtime allocated or mapped");
    if (pbase != nullptr) *pbase = reinterpret_cast<void *>(a->base);
    if (psize != nullptr) *psize = a->size;
  });
}

}  // extern "C"
