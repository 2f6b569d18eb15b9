/*
 * CPU kernels used by the core test suite (docs/RULES.md R9, R11, R15, R16, R20). Every wait is
 * bounded: a kernel that waits longer than its timeout reports failure through openaclKernelFail
 * instead of hanging, so a runtime bug shows up as a failed test, never as a stuck suite.
 */
#include <stdint.h>
#include <time.h>

#include "kernel_args.h"
#include "openacl/openacl_kernel.h"

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_briefly(void) {
  struct timespec ts = {0, 50 * 1000};
  nanosleep(&ts, 0);
}

/* Waits until *flag != 0, at most timeout_ms; returns 0 on timeout. */
static int wait_flag(const int32_t *flag, int32_t timeout_ms) {
  int64_t deadline = now_ms() + timeout_ms;
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
    if (now_ms() > deadline) return 0;
    pause_briefly();
  }
  return 1;
}

/* Holds its stream until the host opens the gate. */
OPENACL_KERNEL void oat_gate(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatGate *g = *(OatGate **)args;
  __atomic_store_n(&g->started, 1, __ATOMIC_RELEASE);
  if (!wait_flag(&g->open, g->timeout_ms)) {
    __atomic_store_n(&g->timed_out, 1, __ATOMIC_RELEASE);
    openaclKernelFail("oat_gate: the host never opened the gate");
  }
  __atomic_store_n(&g->finished, 1, __ATOMIC_RELEASE);
}

/* *p = value. */
OPENACL_KERNEL void oat_store(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatStore *a = (OatStore *)args;
  __atomic_store_n(a->p, a->value, __ATOMIC_RELEASE);
}

/* log[(*count)++] = value: shows the order in which launches ran. */
OPENACL_KERNEL void oat_append(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatAppend *a = (OatAppend *)args;
  int32_t at = __atomic_fetch_add(a->count, 1, __ATOMIC_ACQ_REL);
  if (at < a->capacity) a->log[at] = a->value;
}

/* Sets its own flag, then waits for the partner's: finishes only when both run at once. */
OPENACL_KERNEL void oat_rendezvous(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatRendezvous *a = (OatRendezvous *)args;
  __atomic_store_n(a->mine, 1, __ATOMIC_RELEASE);
  if (!wait_flag(a->other, a->timeout_ms)) {
    openaclKernelFail("oat_rendezvous: the partner never ran at the same time");
    return;
  }
  __atomic_fetch_add(a->done, 1, __ATOMIC_ACQ_REL);
}

/* Block b of blockDim blocks waits until all blockDim blocks have arrived. */
OPENACL_KERNEL void oat_barrier(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatBarrier *a = (OatBarrier *)args;
  __atomic_fetch_add(a->arrived, 1, __ATOMIC_ACQ_REL);
  int64_t deadline = now_ms() + a->timeout_ms;
  while (__atomic_load_n(a->arrived, __ATOMIC_ACQUIRE) < (int32_t)blockDim) {
    if (now_ms() > deadline) {
      openaclKernelFail("oat_barrier: not all blocks ran at the same time");
      return;
    }
    pause_briefly();
  }
}

/* out[blockIdx] = {blockIdx, blockDim}. */
OPENACL_KERNEL void oat_block_ids(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatBlockIds *a = (OatBlockIds *)args;
  if (blockIdx < a->capacity) {
    a->out[2 * blockIdx] = blockIdx;
    a->out[2 * blockIdx + 1] = blockDim;
  }
}

/* c[i] = a[i] + b[i], the index range split over blocks. */
OPENACL_KERNEL void oat_vadd(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatVadd *a = (OatVadd *)args;
  uint64_t per = (a->n + blockDim - 1) / blockDim;
  uint64_t begin = per * blockIdx;
  uint64_t end = begin + per < a->n ? begin + per : a->n;
  for (uint64_t i = begin; i < end; ++i) a->c[i] = a->a[i] + a->b[i];
}

/* Copies the args payload to out, proving what bytes the kernel saw. */
OPENACL_KERNEL void oat_echo(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatEcho *a = (OatEcho *)args;
  for (int i = 0; i < OAT_ECHO_WORDS; ++i) a->out[i] = a->words[i];
}

/* Reports failure from block fail_block; other blocks count themselves. */
OPENACL_KERNEL void oat_fail(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatFail *a = (OatFail *)args;
  if (blockIdx == a->fail_block) {
    openaclKernelFail("oat_fail: deliberate failure");
    return;
  }
  if (a->ran) __atomic_fetch_add(a->ran, 1, __ATOMIC_ACQ_REL);
}

/* Busy for `us` microseconds: device work of a known duration (event timing). */
OPENACL_KERNEL void oat_spin(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatSpin *a = (OatSpin *)args;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    int64_t us = (int64_t)(t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_nsec - t0.tv_nsec) / 1000;
    if (us >= (int64_t)a->us) break;
  }
}

/* Counts the blocks that run at once: *peak ends as the most that ran together, *ran as the
   number of blocks. Each block stays a moment, so that blocks free to overlap do. */
OPENACL_KERNEL void oat_occupancy(uint32_t blockIdx, uint32_t blockDim, void *args) {
  OatOccupancy *a = (OatOccupancy *)args;
  int32_t now = __atomic_add_fetch(a->running, 1, __ATOMIC_ACQ_REL);
  int32_t seen = __atomic_load_n(a->peak, __ATOMIC_ACQUIRE);
  while (now > seen &&
         !__atomic_compare_exchange_n(a->peak, &seen, now, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
  }
  for (int i = 0; i < 4; ++i) pause_briefly();
  __atomic_fetch_add(a->ran, 1, __ATOMIC_ACQ_REL);
  __atomic_sub_fetch(a->running, 1, __ATOMIC_ACQ_REL);
}
