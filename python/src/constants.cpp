// The C constants as module attributes (acl.ACL_SUCCESS, acl.ACL_MEMCPY_HOST_TO_DEVICE, ...).
// pyACL itself has none and its samples define their own; these are a convenience and
// do not clash with a script's own definitions, which live in the script's namespace.
#include "common.h"

#include <acl/acl.h>
#include <acl/acl_dump.h>
#include <acl/acl_op_compiler.h>
#include <acl/acl_prof.h>
#include <acl/acl_rt_allocator.h>
#include <acl/ops/acl_cblas.h>
#define ENABLE_DVPP_INTERFACE  // acl_dvpp.h asks for it, as CANN's does
#include <acl/ops/acl_dvpp.h>

#include <type_traits>

namespace openacl::py_acl {

namespace {

template <class T>
py::int_ as_int(T v) {
  if constexpr (std::is_enum_v<T>) return py::int_(static_cast<std::underlying_type_t<T>>(v));
  else return py::int_(v);
}

}  // namespace

void register_constants(py::module_ &m) {
#define OPENACL_CONST(name) m.attr(#name) = as_int(name);
#include "acl_constants.inc"
#undef OPENACL_CONST
}

}  // namespace openacl::py_acl
