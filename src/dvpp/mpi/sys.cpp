// The media system (hi_mpi_sys_*) and DVPP memory (hi_mpi_dvpp_malloc / free): the same
// memory as acldvppMalloc (dvpp/memory.h).
#include <atomic>

#include "acl/acl.h"
#include "acl/dvpp/hi_dvpp_sys.h"
#include "api/handles.h"
#include "core/device.h"
#include "dvpp/memory.h"
#include "dvpp/mpi/channels.h"

namespace mpi = openacl::dvpp::mpi;

namespace {

std::atomic<bool> g_started{false};

}  // namespace

void mpi::require_sys() {
  if (!g_started.load(std::memory_order_acquire))
    reject(HI_ERR_NOT_READY, "call hi_mpi_sys_init first");
}

extern "C" {

hi_s32 hi_mpi_sys_init(hi_void) {
  return mpi::guarded<HI_ID_SYS>(__func__, [] {
    openacl::api::require_initialized();
    aclrtContext context = nullptr;
    if (aclrtGetCurrentContext(&context) != ACL_SUCCESS || context == nullptr)
      mpi::reject(HI_ERR_NOT_READY,
                  "no current context: call aclrtSetDevice (or aclrtSetCurrentContext) first");
    g_started.store(true, std::memory_order_release);
  });
}

hi_s32 hi_mpi_sys_exit(hi_void) {
  return mpi::guarded<HI_ID_SYS>(__func__, [] {
    mpi::require_sys();
    g_started.store(false, std::memory_order_release);
  });
}

hi_s32 hi_mpi_dvpp_malloc(hi_u32 dev_id, hi_void **dev_ptr, hi_u64 size) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    mpi::require_sys();
    mpi::required(dev_ptr, "dev_ptr");
    if (size == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "size is 0");
    openacl::Device &device = openacl::api::current_device();
    if (static_cast<int64_t>(dev_id) != device.id())
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "dev_id " + std::to_string(dev_id) +
                                            " is not the current device " +
                                            std::to_string(device.id()));
    *dev_ptr = openacl::dvpp::allocate(device, size);
  });
}

hi_s32 hi_mpi_dvpp_free(hi_void *dev_ptr) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    mpi::require_sys();
    openacl::dvpp::release(mpi::required(dev_ptr, "dev_ptr"));
  });
}

}  // extern "C"
