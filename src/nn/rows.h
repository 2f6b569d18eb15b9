// Row kernels of nn operators (RmsNorm, RotaryPositionEmbedding) over the caller's views: a
// row is the contiguous innermost elements, rows are indexed over the leading dims, whatever
// their strides. And the float scratch that the operators' own kernels share.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/plan.h"

namespace openacl::nn {

// Whether value dims [lead..., cols...] with these strides keep each row's cols elements
// contiguous.
bool rows_contiguous(const std::vector<int64_t> &dims, const std::vector<int64_t> &strides,
                     size_t lead);

// The address of row r of t (r counts over `lead`, innermost fastest).
uint8_t *row_at(const StridedTensor &t, const std::vector<int64_t> &lead, size_t r);

// At least n floats of the calling thread's scratch, grown once, valid until its next call. One
// buffer for every StridedKernel: each thread_local of libascendcl takes static TLS, of which a
// program that dlopens the library (Python's acl module) has little to spare.
float *kernel_scratch(size_t n);

}  // namespace openacl::nn
