// aclDataBuffer: a (pointer, size) pair that the user owns; the wrapper never owns the memory
// it points at (reference §5.8 B1).
#pragma once

#include <cstddef>

#include "acl/acl.h"

struct aclDataBuffer {
  void *data = nullptr;
  size_t length = 0;
};
