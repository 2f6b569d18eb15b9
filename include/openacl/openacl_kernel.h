/*
 * openacl extension: CPU kernels for the simulated NPU.
 *
 * CANN compiles Ascend C kernels, which cannot run here. openacl runs CPU kernels written in
 * C or C++ with the same SPMD shape: a kernel is an exported C function
 *
 *     void my_kernel(uint32_t blockIdx, uint32_t blockDim, void *args);
 *
 * built into a shared library, loaded with aclrtBinaryLoadFromFile, looked up with
 * aclrtBinaryGetFunction(bin, "my_kernel", &func) and launched with
 * aclrtLaunchKernel(func, numBlocks, &args, sizeof(args), stream). The runtime runs blockDim
 * (= numBlocks) calls, one per blockIdx, spread over the device's AI cores, in stream order.
 * The args bytes are copied at launch; device pointers in them are dereferenced directly.
 */
#ifndef OPENACL_KERNEL_H_
#define OPENACL_KERNEL_H_

#include <stdint.h>

#ifdef __cplusplus
#define OPENACL_KERNEL extern "C" __attribute__((visibility("default")))
extern "C" {
#else
#define OPENACL_KERNEL __attribute__((visibility("default")))
#endif

typedef void (*openaclKernelFunc)(uint32_t blockIdx, uint32_t blockDim, void *args);

/*
 * Called from inside a kernel block: marks the whole launch failed with `message`. The other
 * blocks still run; when the launch ends, its stream is marked failed (docs/RULES.md R20):
 * later tasks of the stream are skipped and every synchronization on it returns
 * ACL_ERROR_RT_AICORE_EXCEPTION, with `message` in aclGetRecentErrMsg. Outside a kernel it
 * does nothing. Thread safe.
 */
__attribute__((visibility("default"))) void openaclKernelFail(const char *message);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_KERNEL_H_ */
