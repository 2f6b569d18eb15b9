/* Kernels for the checker suite: each touches the device buffers its arguments point to. */
#include <stdint.h>

#include "openacl/openacl_kernel.h"

typedef struct {
  int32_t *dst;
  const int32_t *src; /* may be NULL */
  int32_t n;
  int32_t value;
} ChkArgs;

/* dst[i] = value (+ src[i] when src is set), block-strided. */
OPENACL_KERNEL void chk_fill(uint32_t blockIdx, uint32_t blockDim, void *args) {
  const ChkArgs *a = (const ChkArgs *)args;
  for (int32_t i = (int32_t)blockIdx; i < a->n; i += (int32_t)blockDim) {
    a->dst[i] = a->value + (a->src ? a->src[i] : 0);
  }
}
