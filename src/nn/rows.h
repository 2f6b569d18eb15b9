// Row kernels of nn operators (RmsNorm, RotaryPositionEmbedding) over the caller's views: a
// row is the contiguous innermost elements, rows are indexed over the leading dims, whatever
// their strides.
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

}  // namespace openacl::nn
