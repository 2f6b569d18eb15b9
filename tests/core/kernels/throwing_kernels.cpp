// Kernels written in C++ that throw, as user code may (issue 10): the runtime must fail their
// stream with a clear error, whatever they throw, and never end the process.
#include <stdexcept>

#include "openacl/openacl_kernel.h"

// Block 1 throws something that is not a std::exception; the other blocks return.
OPENACL_KERNEL void oat_throw_int(uint32_t blockIdx, uint32_t, void *) {
  if (blockIdx == 1) throw 42;
}

OPENACL_KERNEL void oat_throw_std(uint32_t, uint32_t, void *) {
  throw std::runtime_error("oat_throw_std: bad block");
}
