#include "api/rt/copy_plan.h"

#include <sstream>
#include <string>

#include "acl/acl.h"
#include "api/handles.h"
#include "api/rt/capture.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/tasks.h"

namespace openacl::api {
namespace {

const char *place_name(Place p) {
  switch (p) {
    case Place::device:
      return "device memory";
    case Place::pinned:
      return "page-locked host memory";
    case Place::pageable:
      return "pageable host memory";
  }
  return "?";
}

const char *kind_name(int64_t kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
      return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    default:
      return "?";
  }
}

// The error paths stay out of line: the checks run at every copy, the messages almost never.
[[noreturn, gnu::cold, gnu::noinline]] void fail_past_end(const Allocation &a, const void *p,
                                                          size_t span, const char *what) {
  std::ostringstream msg;
  msg << what << ": " << span << " bytes at " << p << " run past the end of its allocation ("
      << a.size << " bytes at " << reinterpret_cast<void *>(a.base) << ")";
  fail(Errc::invalid_argument, msg.str());
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_kind(int64_t kind) {
  fail(Errc::invalid_argument,
       "kind " + std::to_string(kind) + " is not a valid aclrtMemcpyKind for this call");
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_contradiction(int64_t kind, const CopyPlan &plan) {
  fail(Errc::invalid_argument, std::string(kind_name(kind)) + " contradicts the pointers: dst is " +
                                   place_name(plan.dst) + ", src is " + place_name(plan.src));
}

// Where [p, p + span) lives, given the allocation found there (size 0: none).
Place place_in(const Allocation &a, const void *p, size_t span, const char *what) {
  if (a.size == 0) return Place::pageable;
  if (span > a.size - (reinterpret_cast<uintptr_t>(p) - a.base)) fail_past_end(a, p, span, what);
  return a.kind == MemoryKind::device ? Place::device : Place::pinned;
}

}  // namespace

Place place_of(const void *p, size_t span, const char *what, Device **owner) {
  auto a = Runtime::get().memory().find_range(p, span).value_or(Allocation{});
  if (owner != nullptr) *owner = a.device;
  return place_in(a, p, span, what);
}

CopyPlan plan_copy(void *dst, size_t dst_span, const void *src, size_t src_span, int64_t kind) {
  if (dst == nullptr) fail(Errc::invalid_argument, "dst is NULL");
  if (src == nullptr) fail(Errc::invalid_argument, "src is NULL");
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) fail_kind(kind);
  // Both sides in one lookup: this runs at every copy.
  Allocation dst_alloc, src_alloc;
  Runtime::get().memory().find_ranges(dst, dst_span, dst_alloc, src, src_span, src_alloc);
  Device *dst_owner = dst_alloc.device;
  Device *src_owner = src_alloc.device;
  CopyPlan plan{place_in(dst_alloc, dst, dst_span, "dst"),
                place_in(src_alloc, src, src_span, "src"), "", nullptr};
  bool dst_dev = plan.dst == Place::device;
  bool src_dev = plan.src == Place::device;
  bool ok = true;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      ok = !dst_dev && !src_dev;
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      ok = dst_dev && !src_dev;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      ok = !dst_dev && src_dev;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      ok = dst_dev && src_dev;
      break;
    default:
      break;
  }
  if (!ok) fail_contradiction(kind, plan);
  plan.direction = src_dev ? (dst_dev ? "D2D" : "D2H") : (dst_dev ? "H2D" : "H2H");
  Device *owner = dst_dev                ? dst_owner
                  : src_dev              ? src_owner
                  : dst_owner != nullptr ? dst_owner
                                         : src_owner;
  plan.device = owner != nullptr ? owner : &Runtime::get().device(0);
  return plan;
}

void fail_count(void *dst, const void *src, size_t destMax, size_t count) {
  if (dst == nullptr || src == nullptr) fail(Errc::invalid_argument, "dst or src is NULL");
  fail(Errc::invalid_value,
       "count (" + std::to_string(count) + ") exceeds destMax (" + std::to_string(destMax) + ")");
}

void copy_now(const CopyPlan &plan, void *dst, size_t dpitch, const void *src, size_t spitch,
              size_t width, size_t height) {
  backend::DeviceBackend &be = plan.device->backend();
  for (size_t row = 0; row < height; ++row) {
    be.copy(static_cast<uint8_t *>(dst) + row * dpitch,
            static_cast<const uint8_t *>(src) + row * spitch, width);
  }
}

void copy_async(const char *api, aclrtStream stream, const CopyPlan &plan, void *dst, size_t dpitch,
                const void *src, size_t spitch, size_t width, size_t height) {
  const bool staged = plan.src == Place::pageable;
  if (staged || plan.dst == Place::pageable) require_capture_safe(api);
  std::shared_ptr<Stream> held;
  Stream &s = stream_ref_for_submit(stream, held);
  // The call then waits, and the waiting thread may run tasks that look streams up, which ends
  // a borrowed reference.
  if (plan.dst == Place::pageable && !held) held = s.shared_from_this();
  auto make_task = [&] {
    return std::make_unique<CopyTask>(dst, dpitch, src, spitch, width, height, staged,
                                      plan.direction);
  };
  uint64_t seq = 0;
  if (!staged) {
    // A small copy on a stream at rest runs now: its task need not leave the stack.
    CopyTask now(AtCall{}, dst, dpitch, src, spitch, width, height, plan.direction);
    seq = s.try_run_at_call(now);
  }
  if (seq == 0) seq = s.enqueue(make_task());
  if (plan.dst == Place::pageable) {
    held->wait_for(seq);
    if (auto failure = held->failure()) throw *failure;
  }
}

}  // namespace openacl::api
