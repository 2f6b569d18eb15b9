// What the VDEC and VENC entry points share: calling the runtime's own API, and the end of
// stream's wait.
#pragma once

#include <cstdint>

#include "acl/acl.h"

namespace openacl::dvpp::api {

// Calls an aclrt* function of the runtime; a failure fails the calling API with its message.
void runtime(aclError rc, const char *what);

// CANN's aclvdecSendFrame returns from an end-of-stream frame only when every frame sent is
// decoded and its callback has returned (programs close their output files right after it, as
// Huawei's venc_image sample does; VENC behaves alike): waits for the channel's stream, whose
// callbacks block it. Sent from the callback thread itself, which must run those callbacks,
// it cannot wait and returns at once. A failed stream fails the call with its message.
void wait_for_callbacks(aclrtStream stream, uint64_t callback_thread);

}  // namespace openacl::dvpp::api
