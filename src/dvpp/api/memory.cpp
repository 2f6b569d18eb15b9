// acldvppMalloc / acldvppFree: DVPP buffers (dvpp/memory.h).
#include "dvpp/memory.h"
#include "api/guard.h"
#include "api/handles.h"
#include "dvpp/api/descs.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

extern "C" {

aclError acldvppMalloc(void **devPtr, size_t size) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
    if (size == 0) fail(Errc::invalid_argument, "size is 0");
    *devPtr = openacl::dvpp::allocate(openacl::api::current_device(), size);
  });
}

aclError acldvppFree(void *devPtr) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (devPtr == nullptr) fail(Errc::invalid_argument, "devPtr is NULL");
    openacl::dvpp::release(devPtr);
  });
}

}  // extern "C"
