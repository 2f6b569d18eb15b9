// The one wrapper every C entry point goes through: it runs the body, turns exceptions into
// aclError values, and records the calling thread's message for aclGetRecentErrMsg (R19).
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <type_traits>
#include <new>

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

template <class F>
aclError guarded(const char *api, F &&body) noexcept {
  CallScope in_call;  // aclFinalize waits for it (core/call_gate.h)
  try {
    body();
    return ACL_SUCCESS;
  } catch (const Error &e) {
    aclError code = to_acl_error(e.code());
    record_error(api, e.what(), code);
    return code;
  } catch (const std::bad_alloc &) {
    record_error(api, "host memory exhausted", ACL_ERROR_BAD_ALLOC);
    return ACL_ERROR_BAD_ALLOC;
  } catch (const std::exception &e) {
    record_error(api, e.what(), ACL_ERROR_INTERNAL_ERROR);
    return ACL_ERROR_INTERNAL_ERROR;
  } catch (...) {
    record_error(api, "unknown internal error", ACL_ERROR_INTERNAL_ERROR);
    return ACL_ERROR_INTERNAL_ERROR;
  }
}

}  // namespace openacl::api
