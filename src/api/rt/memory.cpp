// Memory (R13, R14): device and page-locked allocation, copies and memsets. Every pointer is
// classified through the runtime's memory map, so kinds, ranges and frees are validated.
#include <optional>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/rt/capture.h"
#include "api/rt/copy_plan.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/observer.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/tasks.h"

using openacl::Errc;
using openacl::fail;
using openacl::MemoryKind;
using openacl::Runtime;
using openacl::api::check_count;
using openacl::api::copy_async;
using openacl::api::CopyPlan;
using openacl::api::guarded;
using openacl::api::Place;
using openacl::api::place_of;
using openacl::api::plan_copy;
using openacl::api::require_initialized;

namespace {

void check_policy(aclrtMemMallocPolicy policy) {
  auto p = static_cast<uint32_t>(openacl::api::enum_value(policy));
  uint32_t base = p & 0xFFu;
  uint32_t extra = p & ~0xFFu;
  constexpr uint32_t kFlags = ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                              ACL_MEM_ACCESS_USER_SPACE_READONLY;
  if (base > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P || (extra & ~kFlags) != 0) {
    fail(Errc::invalid_argument,
         "policy " + std::to_string(p) + " is not a valid aclrtMemMallocPolicy");
  }
}

void malloc_device(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  require_initialized();
  if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
  if (size == 0) fail(Errc::invalid_argument, "size is 0");
  check_policy(policy);
  *devPtr = openacl::api::current_device().allocate(size);
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::device_memory, *devPtr,
                  true);
}

// Returns the device whose backend fills the memory at the call.
openacl::Device &memset_common(void *devPtr, size_t maxCount, size_t count) {
  if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
  if (count > maxCount) {
    fail(Errc::invalid_value, "count (" + std::to_string(count) + ") exceeds maxCount (" +
                                  std::to_string(maxCount) + ")");
  }
  openacl::Device *owner = nullptr;
  if (place_of(devPtr, count, "devPtr", &owner) == Place::pageable) {
    fail(Errc::invalid_argument, "devPtr is not memory from aclrtMalloc or aclrtMallocHost");
  }
  return owner != nullptr ? *owner : Runtime::get().device(0);
}

void check_2d(size_t dpitch, size_t spitch, size_t width, int64_t kind) {
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST) {
    fail(Errc::invalid_argument,
         "2D copies support only ACL_MEMCPY_HOST_TO_DEVICE and ACL_MEMCPY_DEVICE_TO_HOST");
  }
  if (width > dpitch || width > spitch) {
    fail(Errc::invalid_value, "width (" + std::to_string(width) + ") exceeds dpitch (" +
                                  std::to_string(dpitch) + ") or spitch (" +
                                  std::to_string(spitch) + ")");
  }
}

size_t span_2d(size_t pitch, size_t width, size_t height) { return pitch * (height - 1) + width; }

// aclrtFree / aclrtFreeHost: p must start a live allocation of the matching kind.
void free_allocation(void *p, MemoryKind kind) {
  require_initialized();
  bool device = kind == MemoryKind::device;
  const char *api = device ? "aclrtFree" : "aclrtFreeHost";
  const char *what = device ? "devPtr" : "hostPtr";
  if (p == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
  auto a = Runtime::get().memory().find(p);
  if (!a || a->base != reinterpret_cast<uintptr_t>(p)) {
    fail(Errc::invalid_argument,
         std::string(what) + " is not the start of a live " +
             (device ? "aclrtMalloc" : "aclrtMallocHost") +
             " allocation (double free, or a pointer into the middle of one)");
  }
  if (a->kind == MemoryKind::host_registered) {
    fail(Errc::invalid_argument, std::string(what) +
                                     " is the program's memory registered with aclrtHostRegister: "
                                     "release it with aclrtHostUnregister");
  }
  if (a->mapped) {
    fail(Errc::invalid_argument,
         std::string(what) + " is a mapping of aclrtMapMem: release it with aclrtUnmapMem");
  }
  if (a->kind != kind) {
    fail(Errc::invalid_argument,
         device ? "devPtr is page-locked host memory: free it with aclrtFreeHost"
                : "hostPtr is device memory: free it with aclrtFree");
  }
  openacl::notify(&openacl::TaskObserver::on_free, *a, api);
  openacl::notify(&openacl::TaskObserver::on_object,
                  device ? openacl::ObjectKind::device_memory : openacl::ObjectKind::host_memory, p,
                  false);
  a->device->release(p);
}

// aclrtFreeWithDevSync / aclrtFreeHostWithDevSync: waits for the current device's streams,
// then frees; the free happens even when a stream reports a failure, whose error is returned.
void free_after_device_sync(void *p, MemoryKind kind) {
  require_initialized();
  auto ctx = openacl::api::current_context();
  std::optional<openacl::Error> sync_error;
  try {
    ctx->device().synchronize(-1, ctx.get());
  } catch (const openacl::Error &e) {
    sync_error = e;
  }
  free_allocation(p, kind);
  if (sync_error) throw *sync_error;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return guarded(__func__, [&] { malloc_device(devPtr, size, policy); });
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return guarded(__func__, [&] { malloc_device(devPtr, size, policy); });
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return guarded(__func__, [&] { malloc_device(devPtr, size, policy); });
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                            aclrtMallocConfig *cfg) {
  return guarded(__func__, [&] { malloc_device(devPtr, size, policy); });
}

aclError aclrtFree(void *devPtr) {
  return guarded(__func__, [&] { free_allocation(devPtr, MemoryKind::device); });
}

aclError aclrtFreeWithDevSync(void *devPtr) {
  return guarded(__func__, [&] { free_after_device_sync(devPtr, MemoryKind::device); });
}

aclError aclrtFreeHostWithDevSync(void *hostPtr) {
  return guarded(__func__, [&] { free_after_device_sync(hostPtr, MemoryKind::host_pinned); });
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  return guarded(__func__, [&] {
    require_initialized();
    if (hostPtr == nullptr) fail(Errc::invalid_argument, "hostPtr is NULL");
    if (size == 0) fail(Errc::invalid_argument, "size is 0");
    *hostPtr = Runtime::get().device(0).allocate_host(size);
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::host_memory, *hostPtr,
                    true);
  });
}

aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg) {
  return aclrtMallocHost(ptr, size);
}

aclError aclrtFreeHost(void *hostPtr) {
  return guarded(__func__, [&] { free_allocation(hostPtr, MemoryKind::host_pinned); });
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::require_capture_safe("aclrtMemcpy");
    if (count == 0) return;
    check_count(dst, src, destMax, count);
    const CopyPlan plan = plan_copy(dst, count, src, count, openacl::api::enum_value(kind));
    openacl::HostSpan span("aclrtMemcpy");
    openacl::notify(&openacl::TaskObserver::on_host_access, src, count, false, "aclrtMemcpy");
    openacl::notify(&openacl::TaskObserver::on_host_access, dst, count, true, "aclrtMemcpy");
    openacl::api::copy_now(plan, dst, count, src, count, count);
  });
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (count == 0) return;
    check_count(dst, src, destMax, count);
    CopyPlan plan = plan_copy(dst, count, src, count, openacl::api::enum_value(kind));
    if (plan.src == Place::pageable) {
      openacl::notify(&openacl::TaskObserver::on_host_access, src, count, false,
                      "aclrtMemcpyAsync");
    }
    copy_async("aclrtMemcpyAsync", stream, plan, dst, count, src, count, count);
  });
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, aclrtMemcpyKind kind) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::require_capture_safe("aclrtMemcpy2d");
    check_2d(dpitch, spitch, width, openacl::api::enum_value(kind));
    if (width == 0 || height == 0) return;
    const CopyPlan plan = plan_copy(dst, span_2d(dpitch, width, height), src,
                                    span_2d(spitch, width, height), openacl::api::enum_value(kind));
    openacl::HostSpan span("aclrtMemcpy2d");
    openacl::notify(&openacl::TaskObserver::on_host_access, src, span_2d(spitch, width, height),
                    false, "aclrtMemcpy2d");
    openacl::notify(&openacl::TaskObserver::on_host_access, dst, span_2d(dpitch, width, height),
                    true, "aclrtMemcpy2d");
    openacl::api::copy_now(plan, dst, dpitch, src, spitch, width, height);
  });
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                            size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    check_2d(dpitch, spitch, width, openacl::api::enum_value(kind));
    if (width == 0 || height == 0) return;
    CopyPlan plan = plan_copy(dst, span_2d(dpitch, width, height), src,
                              span_2d(spitch, width, height), openacl::api::enum_value(kind));
    copy_async("aclrtMemcpy2dAsync", stream, plan, dst, dpitch, src, spitch, width, height);
  });
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::require_capture_safe("aclrtMemset");
    if (count == 0) return;
    openacl::Device &device = memset_common(devPtr, maxCount, count);
    openacl::notify(&openacl::TaskObserver::on_host_access, devPtr, count, true, "aclrtMemset");
    device.backend().fill(devPtr, value, count);
  });
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (count == 0) return;
    memset_common(devPtr, maxCount, count);
    std::shared_ptr<openacl::Stream> held;
    openacl::Stream &s = openacl::api::stream_ref_for_submit(stream, held);
    // A small memset on a stream at rest runs now: its task need not leave the stack.
    openacl::MemsetTask now(openacl::AtCall{}, devPtr, value, count);
    if (s.try_run_at_call(now) == 0)
      s.enqueue(std::make_unique<openacl::MemsetTask>(devPtr, value, count));
  });
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  return guarded(__func__, [&] {
    require_initialized();
    if (free == nullptr || total == nullptr) fail(Errc::invalid_argument, "free or total is NULL");
    int64_t a = openacl::api::enum_value(attr);
    if (a < ACL_DDR_MEM || a > ACL_MEM_P2P_HUGE1G) {
      fail(Errc::invalid_argument, "attr " + std::to_string(a) + " is not a valid aclrtMemAttr");
    }
    openacl::Device &d = openacl::api::current_device();
    *total = d.capacity();
    *free = d.capacity() - d.used_bytes();
  });
}

aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes) {
  return guarded(__func__, [&] {
    require_initialized();
    if (ptr == nullptr || attributes == nullptr)
      fail(Errc::invalid_argument, "ptr or attributes is NULL");
    *attributes = {};
    attributes->pageSize = 4096;
    auto a = Runtime::get().memory().find(ptr);
    if (!a) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    } else if (a->kind == MemoryKind::device) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      attributes->location.id = static_cast<uint32_t>(a->device->id());
    } else {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
    }
  });
}

}  // extern "C"

namespace {

// aclrtMemsetD32: N 32-bit values, at a 4-byte aligned address of device or page-locked memory.
openacl::Device &check_d32(void *ptr, size_t memSize, size_t n) {
  if (n > memSize / sizeof(uint32_t))
    fail(Errc::invalid_value, "N (" + std::to_string(n) + ") 32-bit values exceed memSize (" +
                                  std::to_string(memSize) + " bytes)");
  if (reinterpret_cast<uintptr_t>(ptr) % alignof(uint32_t) != 0)
    fail(Errc::invalid_argument, "ptr is not 4-byte aligned");
  return memset_common(ptr, memSize, n * sizeof(uint32_t));
}

}  // namespace

extern "C" {

aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N) {
  return guarded(__func__, [&] {
    require_initialized();
    if (N == 0) return;
    openacl::Device &device = check_d32(ptr, memSize, N);
    openacl::notify(&openacl::TaskObserver::on_host_access, ptr, N * sizeof(uint32_t), true,
                    "aclrtMemsetD32");
    device.backend().fill32(ptr, value, N);
  });
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                             aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (N == 0) return;
    check_d32(ptr, memSize, N);
    auto task = std::make_unique<openacl::FunctionTask>(
        openacl::TaskKind::memset, "memset_d32",
        [=](openacl::ExecContext &ctx) { ctx.device.backend().fill32(ptr, value, N); });
    task->add_range(ptr, N * sizeof(uint32_t), true);
    openacl::api::stream_for_submit(stream)->enqueue(std::move(task));
  });
}

}  // extern "C"
