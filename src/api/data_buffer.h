// aclDataBuffer: a (pointer, size) pair that the user owns; the wrapper never owns the memory
// it points at, as in CANN.
#pragma once

#include <cstddef>

#include "acl/acl.h"

struct aclDataBuffer {
  void *data = nullptr;
  size_t length = 0;
};
