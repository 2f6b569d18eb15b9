/*
 * openacl extension: the instruction set the sim device's kernels run with.
 *
 * openacl's own kernels have a baseline x86-64 build and an AVX2+FMA build of their hot loops;
 * oneDNN (convolutions, matmuls, pooling) has JIT kernels up to AVX-512. Both take the host
 * CPU's best, capped by the environment variable OPENACL_MAX_ISA (sse41, avx2 or avx512), so
 * that an AVX-512 machine can measure the paths an AVX2 machine takes. oneDNN follows the cap
 * unless ONEDNN_MAX_CPU_ISA is set, which then decides for oneDNN alone. The choice is made
 * once per process, at the first kernel or at the first of these calls.
 */
#ifndef OPENACL_ISA_H_
#define OPENACL_ISA_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * *kernels: "sse41", "avx2" or "avx512", the level of openacl's own kernels; *onednn: oneDNN's
 * effective ISA in its own words ("avx2", "avx512_core_bf16", ...). Either pointer may be NULL.
 * The strings are static. Needs no aclInit; thread safe.
 */
ACL_FUNC_VISIBILITY aclError openaclGetIsa(const char **kernels, const char **onednn);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ISA_H_ */
