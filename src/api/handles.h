// Handle lookup for the C API: every aclrtStream / aclrtEvent / aclrtContext a caller passes
// is found in the runtime's registries (never dereferenced), and checked against the calling
// thread's context (R7).
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

namespace openacl {
class Context;
class Device;
class Event;
struct Function;
class Stream;
}  // namespace openacl

namespace openacl::api {

std::shared_ptr<Context> current_context();
Device &current_device();
// A stream to put work on: NULL = the current context's default stream; otherwise it must be
// live and belong to the current context (Errc::stream_context).
std::shared_ptr<Stream> stream_for_submit(aclrtStream stream);
// The same stream, for the submissions that run on every step of a program (async copies and
// memsets, kernel launches), without a reference count changed per call when the handle names
// a created stream of the current context: that stream stays valid until the calling thread's
// next stream lookup. Otherwise (the default stream, an error) `held` keeps it.
Stream &stream_ref_for_submit(aclrtStream stream, std::shared_ptr<Stream> &held);
// A stream to wait on (synchronize, query): any context (R7), NULL = current default.
std::shared_ptr<Stream> stream_for_host(aclrtStream stream);
// The timeout argument of the WithTimeout calls in ms: -1 and 0 wait forever (returned as -1),
// below -1 is Errc::invalid_value.
int32_t timeout_ms(int32_t timeout);
// A live event (Errc::invalid_argument for NULL, Errc::invalid_handle for unknown).
std::shared_ptr<Event> event_of(aclrtEvent event, const char *what = "event");
// A kernel function whose binary is still loaded (same errors).
std::shared_ptr<Function> function_of(aclrtFuncHandle funcHandle);

}  // namespace openacl::api
