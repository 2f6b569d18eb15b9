// Copy planning shared by the copy calls (aclrtMemcpy*, aclrtMemcpyBatch*): where each side of
// a copy lives, whether the kind the program gave matches, and enqueueing it with CANN's
// pageable-memory semantics (R13, R14).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace openacl {
class Device;
}  // namespace openacl

namespace openacl::api {

enum class Place { device, pinned, pageable };

struct CopyPlan {
  Place dst;
  Place src;
  const char *direction;  // "H2D", "D2H", ...
  // Whose backend copies at the call: the device owning a side's allocation (device memory
  // first); device 0 when both sides are the program's own host memory.
  Device *device;
};

// Where [p, p + span) lives; a range that starts inside a runtime allocation must end inside
// it (Errc::invalid_argument). `what` names the argument in the message. *owner (when given)
// is set to the allocation's device, or null.
Place place_of(const void *p, size_t span, const char *what, Device **owner = nullptr);
// Checks a copy's arguments in CANN's order and that its kind matches its pointers.
CopyPlan plan_copy(void *dst, size_t dst_span, const void *src, size_t src_span, int64_t kind);
[[noreturn, gnu::cold]] void fail_count(void *dst, const void *src, size_t destMax, size_t count);
// count > destMax is the runtime's check (Errc::invalid_value), after the NULL checks.
inline void check_count(void *dst, const void *src, size_t destMax, size_t count) {
  if (count > destMax) fail_count(dst, src, destMax, count);
}
// The copies made at the call (aclrtMemcpy, aclrtMemcpy2d, aclrtMemcpyBatch): by the plan's
// device backend, like the copies its tasks make. 2D: `height` rows of `width` bytes.
void copy_now(const CopyPlan &plan, void *dst, size_t dpitch, const void *src, size_t spitch,
              size_t width, size_t height = 1);
// Enqueues the copy (2D: `height` rows of `width` bytes); R14: pageable sources are staged at
// the call, pageable destinations are written before the call returns (both unsafe during a
// stream capture).
void copy_async(const char *api, aclrtStream stream, const CopyPlan &plan, void *dst, size_t dpitch,
                const void *src, size_t spitch, size_t width, size_t height = 1);

}  // namespace openacl::api
