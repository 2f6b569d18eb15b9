// aclInit, aclFinalize and version queries (R1).
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/init.h"
#include "api/rt/exception.h"
#include "backend/backend.h"
#include "check/diagnostics.h"
#include "core/runtime.h"
#ifndef OPENACL_CORE_ONLY
#include "ops/op.h"
#endif

using openacl::Errc;
using openacl::Runtime;
using openacl::api::guarded;

namespace {

// The CANN release whose runtime API openacl implements, reported for every package a CANN
// installation has (the driver and firmware included): a program that checks the version
// before calling newer APIs takes the path those APIs exist on.
constexpr int kCannMajor = 9, kCannMinor = 0, kCannPatch = 0;
constexpr const char *kCannVersion = "9.0.0";

void check_package(const char *pkgName) {
  static const char *const known[] = {"runtime", "compiler",   "ge_compiler", "ge_executor",
                                      "opp",     "opp_kernel", "toolkit",     "hccl",
                                      "cann",    "driver",     "firmware"};
  if (pkgName == nullptr) openacl::fail(Errc::invalid_argument, "pkgName is NULL");
  for (const char *k : known)
    if (std::strcmp(pkgName, k) == 0) return;
  openacl::fail(Errc::invalid_argument,
                std::string("no package named '") + pkgName +
                    "' (known: runtime, compiler, ge_compiler, ge_executor, opp, opp_kernel, "
                    "toolkit, hccl, cann, driver, firmware)");
}

// The operator kernels of each backend: sim runs the op library's CPU kernels. A core-only
// library has no op library, and its devices run no operators.
const openacl::backend::KernelTable *kernels_of(const std::string &kind) {
#ifdef OPENACL_CORE_ONLY
  (void)kind;
  return nullptr;
#else
  return kind == "sim" ? &openacl::ops::host_kernels() : nullptr;
#endif
}

// libascendcl runs on the sim backend and its kernels, with the trace recorder and race checker
// of src/check, and tells failing tasks to the program's exception callbacks
// (api/rt/exception.cpp).
constexpr openacl::RuntimeParts kParts{openacl::backend::create_device, kernels_of,
                                       openacl::check::create_diagnostics,
                                       openacl::check::create_trace, openacl::api::on_task_failure};

void copy_text(char *dst, size_t size, const char *text) {
  std::strncpy(dst, text, size - 1);
  dst[size - 1] = '\0';
}

}  // namespace

namespace openacl::api {

const RuntimeParts &default_parts() { return kParts; }

aclError init_with(const char *config_path, const RuntimeParts &parts) {
  // Errors are aclInit's, the entry point this serves.
  aclError callbacks = ACL_SUCCESS;
  const aclError ret = guarded("aclInit", [&] {
    Runtime::get().init(config_path, parts);
    callbacks = Runtime::get().program_callbacks().run_init(config_path);
  });
  return ret != ACL_SUCCESS ? ret : callbacks;
}

}  // namespace openacl::api

extern "C" {

aclError aclsysGetVersionStr(char *pkgName, char *versionStr) {
  return guarded(__func__, [&] {
    check_package(pkgName);
    if (versionStr == nullptr) openacl::fail(Errc::invalid_argument, "versionStr is NULL");
    copy_text(versionStr, ACL_PKG_VERSION_MAX_SIZE, kCannVersion);
  });
}

// major x 10000000 + minor x 100000 + patch x 1000, CANN's numbering for release versions.
aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum) {
  return guarded(__func__, [&] {
    check_package(pkgName);
    if (versionNum == nullptr) openacl::fail(Errc::invalid_argument, "versionNum is NULL");
    *versionNum = kCannMajor * 10000000 + kCannMinor * 100000 + kCannPatch * 1000;
  });
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version) {
  return guarded(__func__, [&] {
    const int64_t n = openacl::api::enum_value(name);
    if (n < ACL_PKG_NAME_CANN || n > ACL_PKG_NAME_DRIVER)
      openacl::fail(Errc::invalid_argument,
                    "name " + std::to_string(n) + " is not an aclCANNPackageName");
    if (version == nullptr) openacl::fail(Errc::invalid_argument, "version is NULL");
    std::memset(version, 0, sizeof(*version));
    copy_text(version->version, sizeof(version->version), kCannVersion);
    copy_text(version->majorVersion, sizeof(version->majorVersion),
              std::to_string(kCannMajor).c_str());
    copy_text(version->minorVersion, sizeof(version->minorVersion),
              std::to_string(kCannMinor).c_str());
    copy_text(version->releaseVersion, sizeof(version->releaseVersion),
              std::to_string(kCannPatch).c_str());
    copy_text(version->patchVersion, sizeof(version->patchVersion), "0");
  });
}

// The CANN features the simulated runtime has: Inf/NaN float semantics and bf16 data;
// operator binaries are not compiled at run time.
aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num) {
  static const aclCannAttr supported[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16};
  return guarded(__func__, [&] {
    if (cannAttrList == nullptr || num == nullptr)
      openacl::fail(Errc::invalid_argument, "cannAttrList or num is NULL");
    *cannAttrList = supported;
    *num = sizeof(supported) / sizeof(supported[0]);
  });
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value) {
  return guarded(__func__, [&] {
    if (value == nullptr) openacl::fail(Errc::invalid_argument, "value is NULL");
    switch (openacl::api::enum_value(cannAttr)) {
      case ACL_CANN_ATTR_INF_NAN:
      case ACL_CANN_ATTR_BF16:
        *value = 1;
        return;
      case ACL_CANN_ATTR_JIT_COMPILE:
        *value = 0;
        return;
      default:
        openacl::fail(Errc::invalid_argument,
                      "cannAttr " + std::to_string(openacl::api::enum_value(cannAttr)) +
                          " is not an aclCannAttr");
    }
  });
}

// The init callbacks (aclInitCallbackRegister) run once the runtime is up; the first one
// that fails makes aclInit return its error.
aclError aclInit(const char *configPath) { return openacl::api::init_with(configPath, kParts); }

aclError aclFinalize() {
  return guarded(__func__, [&] {
    if (Runtime::get().initialized()) Runtime::get().program_callbacks().run_finalize();
    Runtime::get().finalize();
  });
}

aclError aclFinalizeReference(uint64_t *refCount) {
  return guarded(__func__, [&] {
    if (Runtime::get().init_count() == 1) Runtime::get().program_callbacks().run_finalize();
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
