// Copy planning shared by the copy calls (aclrtMemcpy*, aclrtMemcpyBatch*): where each side of
// a copy lives, whether the kind the program gave matches, and enqueueing it with CANN's
// pageable-memory semantics (R13, R14).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "acl/acl_base.h"

namespace openacl {
class CopyTask;
}

namespace openacl::api {

enum class Place { device, pinned, pageable };

struct CopyPlan {
  Place dst;
  Place src;
  const char *direction;  // "H2D", "D2H", ...
};

// Where [p, p + span) lives; a range that starts inside a runtime allocation must end inside
// it (Errc::invalid_argument). `what` names the argument in the message.
Place place_of(const void *p, size_t span, const char *what);
// Checks a copy's arguments in CANN's order and that its kind matches its pointers.
CopyPlan plan_copy(void *dst, size_t dst_span, const void *src, size_t src_span, int64_t kind);
// count > destMax is the runtime's check (Errc::invalid_value), after the NULL checks.
void check_count(void *dst, const void *src, size_t destMax, size_t count);
// Enqueues the copy; R14: pageable sources are staged at the call, pageable destinations are
// written before the call returns (both unsafe during a stream capture).
void copy_async(const char *api, aclrtStream stream, const CopyPlan &plan, std::unique_ptr<CopyTask> task);

}  // namespace openacl::api
