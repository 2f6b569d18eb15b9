// DVPP memory (acldvppMalloc): device memory of the current device, registered in the runtime's
// memory map like aclrtMalloc's (so every aclrt call accepts it), and also remembered here,
// because CANN's media units accept only buffers from acldvppMalloc.
//
// Thread safety: all functions may be called from any thread.
#pragma once

#include <cstddef>

namespace openacl {
class Device;
}

namespace openacl::dvpp {

// CANN rounds the size up to a multiple of 32 and adds 32 bytes; so does openacl, so that a
// program that splits one allocation the documented way stays inside it.
void *allocate(Device &device, size_t size);
// Frees p, the start of a live acldvppMalloc allocation (Errc::invalid_argument otherwise).
void release(void *p);
// Throws Errc::invalid_argument naming `what` unless [p, p + n) lies inside one live
// acldvppMalloc allocation (device memory from aclrtMalloc gets its own message).
void check_range(const void *p, size_t n, const char *what);

}  // namespace openacl::dvpp
