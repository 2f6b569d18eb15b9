// The Set and Get calls of the DVPP descriptions and configurations: the object checked
// (dvpp/api/descs.h), then one field assigned or read. A Get on a bad object returns the
// type's zero value, as CANN's do, with the error recorded for aclGetRecentErrMsg.
#pragma once

#include "api/guard.h"
#include "dvpp/api/descs.h"

namespace openacl::dvpp::api {

template <class T, class F>
aclError set(const char *api, T *object, const char *what, F &&assign) {
  return openacl::api::guarded(api, [&] { assign(*checked(object, what)); });
}

template <class R, class T, class F>
R get(const char *api, const T *object, const char *what, F &&read) {
  R value{};
  (void)openacl::api::guarded(api, [&] { value = read(*checked(object, what)); });
  return value;
}

}  // namespace openacl::dvpp::api
