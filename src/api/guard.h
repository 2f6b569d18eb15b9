// The one wrapper every C entry point goes through: it runs the body, turns exceptions into
// aclError values, and records the calling thread's message for aclGetRecentErrMsg (R19).
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"
#include "core/call_gate.h"
#include "core/status.h"

namespace openacl::api {

aclError to_acl_error(Errc code);
// Records "<api>: <message>" as the calling thread's recent error, and its code.
void record_error(const char *api, const char *message, aclError code);
// For functions openacl declares but does not implement.
aclError report_unsupported(const char *api);
void require_initialized();

// The numeric value of an enum argument, read without an enum load: callers may pass any
// integer, and loading an out-of-range value as the enum type is undefined behaviour.
template <class E>
int64_t enum_value(const E &e) {
  std::underlying_type_t<E> v;
  std::memcpy(&v, &e, sizeof v);
  return static_cast<int64_t>(v);
}

// The one error path: runs the body; an exception becomes the status that `translate` gives
// for its Errc (aclError for the acl* calls, aclnnStatus for the aclnn ones, which CANN codes
// differently; host memory exhaustion gives `no_host_memory`), recorded with the message as
// the thread's recent error.
template <class Status, class F>
Status guarded_as(const char *api, Status (*translate)(Errc), Status no_host_memory,
                  F &&body) noexcept {
  CallScope in_call;  // aclFinalize waits for it (core/call_gate.h)
  try {
    body();
    return Status{0};
  } catch (const Error &e) {
    const Status code = translate(e.code());
    record_error(api, e.what(), static_cast<aclError>(code));
    return code;
  } catch (const std::bad_alloc &) {
    record_error(api, "host memory exhausted", static_cast<aclError>(no_host_memory));
    return no_host_memory;
  } catch (const std::exception &e) {
    const Status code = translate(Errc::internal);
    record_error(api, e.what(), static_cast<aclError>(code));
    return code;
  } catch (...) {
    const Status code = translate(Errc::internal);
    record_error(api, "unknown internal error", static_cast<aclError>(code));
    return code;
  }
}

template <class F>
aclError guarded(const char *api, F &&body) noexcept {
  return guarded_as<aclError>(api, to_acl_error, ACL_ERROR_BAD_ALLOC, std::forward<F>(body));
}

}  // namespace openacl::api
