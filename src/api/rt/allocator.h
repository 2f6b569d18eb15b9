// Custom allocators (acl_rt_allocator.h): what aclrtAllocatorRegister registered for a stream.
// Model executions on the stream take their workspace from it (api/mdl/model.cpp).
#pragma once

#include <optional>

#include "acl/acl_rt_allocator.h"

namespace openacl::api {

struct StreamAllocator {
  aclrtAllocator allocator = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc get_addr = nullptr;
};

// The allocator registered for the stream handle, if any.
std::optional<StreamAllocator> stream_allocator(const void *stream);

}  // namespace openacl::api
