// Whether a float tensor holds an inf or a NaN: the overflow an op reports when its stream
// checks for it (aclrtSetStreamOverflowSwitch).
#pragma once

#include "ops/op.h"

namespace openacl::ops {

// False for integer and boolean tensors.
bool has_non_finite(const Tensor &t);

}  // namespace openacl::ops
