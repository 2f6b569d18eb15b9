// Runtime parameters (aclSysParamOpt) for the process and for the current context.
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/context.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::SysParams;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

int64_t option(const aclSysParamOpt &opt) {
  const int64_t v = openacl::api::enum_value(opt);
  if (v < 0 || v >= SysParams::kCount) {
    fail(Errc::invalid_argument, "opt " + std::to_string(v) + " is not an aclSysParamOpt (0 to 3)");
  }
  return v;
}

void set(SysParams &params, const aclSysParamOpt &opt, int64_t value) {
  const int64_t o = option(opt);
  // ACL_OPT_DETERMINISTIC also takes 2 (strong consistency); the others are switches.
  const int64_t max = o == ACL_OPT_DETERMINISTIC ? 2 : 1;
  if (value < 0 || value > max) {
    fail(Errc::invalid_argument, "value " + std::to_string(value) + " is out of range for opt " +
                                     std::to_string(o) + " (0 to " + std::to_string(max) + ")");
  }
  params.set(o, value);
}

int64_t process_value(int64_t opt) { return Runtime::get().sys_params().get(opt).value_or(0); }

}  // namespace

extern "C" {

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return guarded(__func__, [&] {
    require_initialized();
    set(Runtime::get().sys_params(), opt, value);
  });
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    *value = process_value(option(opt));
  });
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  return guarded(__func__, [&] {
    require_initialized();
    set(openacl::api::current_context()->sys_params(), opt, value);
  });
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  return guarded(__func__, [&] {
    require_initialized();
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    const int64_t o = option(opt);
    auto own = openacl::api::current_context()->sys_params().get(o);
    *value = own ? *own : process_value(o);
  });
}

}  // extern "C"
