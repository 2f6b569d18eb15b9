// aclInit's parts: what libascendcl plugs into the runtime (the sim backend and its kernels,
// src/check's observers, the exception callbacks). A test that runs the C API on a backend of
// its own (a DeviceBackend whose memory the host cannot address, say) starts from
// default_parts(), replaces create_device, and calls init_with instead of aclInit.
#pragma once

#include "acl/acl_base.h"
#include "core/runtime_parts.h"

namespace openacl::api {

const RuntimeParts &default_parts();
// aclInit(config_path) with these parts.
aclError init_with(const char *config_path, const RuntimeParts &parts);

}  // namespace openacl::api
