// The arithmetic of aclrtReduceAsync: dst[i] = dst[i] op src[i], as the SDMA engine of an
// Atlas A2/A3 reduces while it copies (HCCL's inline reduce). The element types are the ones
// CANN documents for those products.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"  // aclDataType

namespace openacl::ops {

enum class ReduceOp : uint8_t { sum, max, min };

// The size of one element of `type`, or 0 when reduce_into does not take the type.
size_t reduce_element_size(aclDataType type);

// n elements of `type` (reduce_element_size(type) != 0). dst and src are the same buffer or
// disjoint. Integer sums wrap; float sums round once per element (fp16 and bf16 through
// float); max and min of a NaN give NaN.
void reduce_into(void *dst, const void *src, size_t n, ReduceOp op, aclDataType type);

}  // namespace openacl::ops
