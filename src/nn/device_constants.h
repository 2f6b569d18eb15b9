// Where the device reads a plan's constants (the scalars and arrays a planner knew): a backend
// whose device reads host memory (sim: one address space with the host) reads the plan's own
// host bytes in place; any other gets a device copy, made once when the plan is finished and
// released with the plan, so that its operator kernels are handed device memory only.
#pragma once

#include "nn/plan.h"

namespace openacl::nn {

// Fills plan.constant_at (and plan.device_copy) for device 0, whose kernels the plan's ops
// were prepared with; before aclInit, the host bytes. Throws Errc::out_of_memory when the
// device has no room for the copy.
void place_constants(Plan &plan);

}  // namespace openacl::nn
