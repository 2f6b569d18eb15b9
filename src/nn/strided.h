// Copies between strided views of equal shape: the gather before and the scatter after a
// kernel that needs dense tensors, and the aclnn copies themselves (InplaceCopy, Slice).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace openacl::nn {

// dst[i] = src[i] for every index of `dims`; strides in elements (0 in src repeats, as a fill or
// a broadcast does). The views must not overlap each other.
void strided_copy(const void *src, const std::vector<int64_t> &src_strides, void *dst,
                  const std::vector<int64_t> &dst_strides, const std::vector<int64_t> &dims,
                  size_t element_size);

}  // namespace openacl::nn
