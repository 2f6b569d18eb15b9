/* Kernels for the checker suite: each touches the device buffers its arguments point to. */
#include <stdint.h>
#include <time.h>

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

typedef struct {
  int32_t *mine; /* host flags: not device memory */
  int32_t *other;
  int32_t timeout_ms;
} ChkRendezvous;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sets its flag and waits (bounded) for the partner's: two launches of it on two streams can
 * only both finish by running at the same time, so the trace must show them overlapping. */
OPENACL_KERNEL void chk_rendezvous(uint32_t blockIdx, uint32_t blockDim, void *args) {
  const ChkRendezvous *a = (const ChkRendezvous *)args;
  __atomic_store_n(a->mine, 1, __ATOMIC_RELEASE);
  int64_t deadline = now_ms() + a->timeout_ms;
  while (__atomic_load_n(a->other, __ATOMIC_ACQUIRE) == 0) {
    if (now_ms() > deadline) {
      openaclKernelFail("chk_rendezvous: the partner never ran at the same time");
      return;
    }
  }
}
