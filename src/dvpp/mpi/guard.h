// The one error path of the hi_mpi_* entry points: openacl's guarded() with CANN's V2 error
// codes. An openacl::Error becomes HI_DEFINE_ERR(module, HI_ERR_LEVEL_ERROR, errno) by its
// Errc; the states CANN has codes for and openacl's Errc does not (a channel that exists, an
// empty queue, ...) are thrown as Reject with their errno. The message goes to
// aclGetRecentErrMsg either way.
#pragma once

#include <string>

#include "acl/dvpp/hi_dvpp_common.h"
#include "api/guard.h"

namespace openacl::dvpp::mpi {

class Reject : public std::exception {
 public:
  Reject(hi_errno code, std::string message) : message_(std::move(message)), code_(code) {}
  const char *what() const noexcept override { return message_.c_str(); }
  hi_errno code() const noexcept { return code_; }

 private:
  std::string message_;
  hi_errno code_;
};

[[noreturn]] inline void reject(hi_errno code, std::string message) {
  throw Reject(code, std::move(message));
}

constexpr hi_s32 error_code(hi_mod_id mod, hi_errno e) {
  return HI_DEFINE_ERR(mod, HI_ERR_LEVEL_ERROR, e);
}
hi_errno errno_of(Errc code);

template <hi_mod_id Mod>
hi_s32 translate(Errc code) {
  return error_code(Mod, errno_of(code));
}

// Runs body; returns HI_SUCCESS or the module's error code, recorded with its message.
template <hi_mod_id Mod, class F>
hi_s32 guarded(const char *api, F &&body) noexcept {
  hi_s32 rejected = HI_SUCCESS;
  const hi_s32 rc =
      openacl::api::guarded_as<hi_s32>(api, &translate<Mod>, error_code(Mod, HI_ERR_NO_MEM), [&] {
        try {
          body();
        } catch (const Reject &r) {
          rejected = error_code(Mod, r.code());
          openacl::api::record_error(api, r.what(), static_cast<aclError>(rejected));
        }
      });
  return rejected != HI_SUCCESS ? rejected : rc;
}

// A required pointer argument: HI_ERR_NULL_PTR naming it when NULL.
template <class T>
T *required(T *p, const char *what) {
  if (p == nullptr) reject(HI_ERR_NULL_PTR, std::string(what) + " is NULL");
  return p;
}

}  // namespace openacl::dvpp::mpi
