/* A user kernel for the sim device: z = x + y over n floats, the range split over blocks. */
#include <stdint.h>

#include "openacl/openacl_kernel.h"

typedef struct {
  const float *x;
  const float *y;
  float *z;
  uint64_t n;
} VectorAddArgs;

OPENACL_KERNEL void vector_add(uint32_t blockIdx, uint32_t blockDim, void *args) {
  const VectorAddArgs *a = (const VectorAddArgs *)args;
  uint64_t per = (a->n + blockDim - 1) / blockDim;
  uint64_t begin = per * blockIdx;
  uint64_t end = begin + per < a->n ? begin + per : a->n;
  for (uint64_t i = begin; i < end; ++i) a->z[i] = a->x[i] + a->y[i];
}
