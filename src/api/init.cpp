// aclInit, aclFinalize and version queries (R1).
#include "acl/acl.h"
#include "api/guard.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::Runtime;
using openacl::api::guarded;

extern "C" {

aclError aclInit(const char *configPath) {
  return guarded(__func__, [&] { Runtime::get().init(configPath); });
}

aclError aclFinalize() {
  return guarded(__func__, [&] { Runtime::get().finalize(); });
}

aclError aclFinalizeReference(uint64_t *refCount) {
  return guarded(__func__, [&] {
    uint64_t left = Runtime::get().finalize_reference();
    if (refCount != nullptr) *refCount = left;
  });
}

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
  return guarded(__func__, [&] {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
      openacl::fail(Errc::invalid_argument, "an output pointer is NULL");
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
  });
}

const char *aclrtGetSocName() {
  // Never NULL: programs put the result straight into std::string or printf.
  static const openacl::Config defaults;
  Runtime &rt = Runtime::get();
  return rt.initialized() ? rt.config().device_name.c_str() : defaults.device_name.c_str();
}

}  // extern "C"
