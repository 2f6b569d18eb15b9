/* Argument blocks of the test kernels (test_kernels.c), shared with the C++ tests. */
#ifndef OPENACL_TESTS_KERNEL_ARGS_H_
#define OPENACL_TESTS_KERNEL_ARGS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A host-side gate: a kernel holds its stream until the host sets `open`. */
typedef struct OatGate {
  int32_t open;
  int32_t started;
  int32_t finished;
  int32_t timed_out;
  int32_t timeout_ms;
} OatGate;

typedef struct OatStore {
  int32_t *p;
  int32_t value;
} OatStore;

typedef struct OatAppend {
  int32_t *log;
  int32_t *count;
  int32_t capacity;
  int32_t value;
} OatAppend;

typedef struct OatRendezvous {
  int32_t *mine;
  int32_t *other;
  int32_t *done;
  int32_t timeout_ms;
} OatRendezvous;

typedef struct OatBarrier {
  int32_t *arrived;
  int32_t timeout_ms;
} OatBarrier;

typedef struct OatBlockIds {
  uint32_t *out;
  uint32_t capacity;
} OatBlockIds;

typedef struct OatVadd {
  const float *a;
  const float *b;
  float *c;
  uint64_t n;
} OatVadd;

#define OAT_ECHO_WORDS 16
typedef struct OatEcho {
  int32_t *out;
  int32_t words[OAT_ECHO_WORDS];
} OatEcho;

typedef struct OatFail {
  uint32_t fail_block;
  int32_t *ran;
} OatFail;

typedef struct OatSpin {
  uint64_t us;
} OatSpin;

typedef struct OatOccupancy {
  int32_t *running;
  int32_t *peak;
  int32_t *ran;
} OatOccupancy;

#ifdef __cplusplus
}
#endif

#endif
