/* A CPU kernel for the acl.rt.launch_kernel tests: data[i] *= factor, blocks striding. */
#include <openacl/openacl_kernel.h>

#include <stdint.h>

struct ScaleArgs {
  float *data;
  uint64_t n;
  float factor;
};

OPENACL_KERNEL void scale(uint32_t blockIdx, uint32_t blockDim, void *args) {
  struct ScaleArgs *a = (struct ScaleArgs *)args;
  for (uint64_t i = blockIdx; i < a->n; i += blockDim) a->data[i] *= a->factor;
}

OPENACL_KERNEL void fail_kernel(uint32_t blockIdx, uint32_t blockDim, void *args) {
  (void)blockDim;
  (void)args;
  if (blockIdx == 0) openaclKernelFail("fail_kernel: failing on purpose");
}
