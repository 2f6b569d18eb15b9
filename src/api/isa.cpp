// openaclGetIsa (include/openacl/openacl_isa.h).
#include "api/guard.h"
#include "openacl/openacl_isa.h"
#ifndef OPENACL_CORE_ONLY
#include "ops/isa.h"
#endif

extern "C" ACL_FUNC_VISIBILITY aclError openaclGetIsa(const char **kernels, const char **onednn) {
#ifdef OPENACL_CORE_ONLY
  (void)kernels, (void)onednn;
  return openacl::api::report_unsupported(__func__);  // a core-only library has no kernels
#else
  return openacl::api::guarded(__func__, [&] {
    if (kernels) *kernels = openacl::ops::isa_name(openacl::ops::isa());
    if (onednn) *onednn = openacl::ops::dnnl_isa_name();
  });
#endif
}
