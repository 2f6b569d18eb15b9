// aclInitCallbackRegister / aclFinalizeCallbackRegister: callbacks the runtime runs when it
// initializes (with the acl.json text aclInit read) and before it finalizes. The core keeps
// them (core/program_callbacks.h); aclInit and aclFinalize run them (api/init.cpp).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/runtime.h"

using openacl::api::enum_value;
using openacl::api::guarded;

namespace {

openacl::ProgramCallbacks &callbacks() { return openacl::Runtime::get().program_callbacks(); }

// One callback per type, except ACL_REG_TYPE_OTHER, as CANN's runtime keeps them.
bool shared(int64_t type) { return type == ACL_REG_TYPE_OTHER; }

}  // namespace

extern "C" {

// Registered before aclInit: runs at initialization; registered after: runs at once.
aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                 void *userData) {
  std::string config;
  bool now = false;
  aclError ret = guarded(__func__, [&] {
    callbacks().add_init(enum_value(type), shared(enum_value(type)), cbFunc, userData);
    now = openacl::Runtime::get().initialized();
    config = callbacks().config();
  });
  if (ret != ACL_SUCCESS || !now) return ret;
  return cbFunc(config.c_str(), config.size(), userData);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  return guarded(__func__, [&] { callbacks().remove_init(enum_value(type), cbFunc); });
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                     void *userData) {
  return guarded(__func__, [&] {
    callbacks().add_finalize(enum_value(type), shared(enum_value(type)), cbFunc, userData);
  });
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                       aclFinalizeCallbackFunc cbFunc) {
  return guarded(__func__, [&] { callbacks().remove_finalize(enum_value(type), cbFunc); });
}

}  // extern "C"
