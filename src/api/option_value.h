// The value of a configuration attribute passed as (attrValue, valueSize), CANN's way for its
// *SetConfigOpt calls: the bytes of a T, checked to be exactly sizeof(T).
#pragma once

#include <cstring>
#include <string>

#include "core/status.h"

namespace openacl::api {

template <class T>
T option_value(const void *attrValue, size_t valueSize, const char *attr) {
  if (attrValue == nullptr) fail(Errc::invalid_argument, "attrValue is NULL");
  if (valueSize != sizeof(T))
    fail(Errc::invalid_argument, std::string(attr) + " takes " + std::to_string(sizeof(T)) +
                                     " bytes; valueSize is " + std::to_string(valueSize));
  T v;
  std::memcpy(&v, attrValue, sizeof(T));
  return v;
}

}  // namespace openacl::api
