// aclInitCallbackRegister / aclFinalizeCallbackRegister: the callbacks the C API runs when the
// runtime initializes (with the acl.json text aclInit read) and before it finalizes.
#pragma once

namespace openacl::api {

// After an aclInit that initialized; configPath as aclInit got it. Returns the first failing
// callback's error, or ACL_SUCCESS.
int init_callbacks(const char *configPath);
// Before the runtime releases everything.
void finalize_callbacks();

}  // namespace openacl::api
