/* acl/ops/acl_cblas.h: AscendCL's BLAS calls (libacl_cblas), with the names, values and
 * signatures of CANN's header. Written by hand: the API reference extraction leaves BLAS out.
 *
 * Contract, as in CANN: matrices and vectors are dense and row-major in device memory; every
 * leading dimension / increment must be -1; alpha and beta point to device memory holding one
 * scalar of C's (y's) data type, and when beta is 0, C (y) is not read. Supported types
 * (A, B, C): (f16, f16, f16), (f16, f16, f32), (i8, i8, f32), (i8, i8, i32), and in openacl also
 * (f32, f32, f32). Products accumulate in f32 (i32 for int8). transA / transB take ACL_TRANS_N or
 * ACL_TRANS_T; transC ACL_TRANS_N; type ACL_COMPUTE_HIGH_PRECISION. The fractal-NZ layouts
 * (ACL_TRANS_NZ) are Ascend storage formats that openacl rejects with ACL_ERROR_INVALID_PARAM.
 * The calls are asynchronous: they enqueue one op ("GEMM") on the stream and return. The
 * CreateHandleFor* calls prepare the same op for aclopExecWithHandle, with the inputs
 * (A, B, C, alpha, beta) and the output (C). Gemv calls are Gemm calls with n = 1. */

#ifndef INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_
#define INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_

#include "../acl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclTransType {
    ACL_TRANS_N,
    ACL_TRANS_T,
    ACL_TRANS_NZ,
    ACL_TRANS_NZ_T
} aclTransType;

typedef enum aclComputeType {
    ACL_COMPUTE_HIGH_PRECISION,
    ACL_COMPUTE_LOW_PRECISION
} aclComputeType;

/* y = alpha * op(A) x + beta * y; A is m x n (as op(A)). */
ACL_FUNC_VISIBILITY aclError aclblasGemvEx(aclTransType transA, int m, int n,
    const void *alpha, const void *a, int lda, aclDataType dataTypeA,
    const void *x, int incx, aclDataType dataTypeX,
    const void *beta, void *y, int incy, aclDataType dataTypeY,
    aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n,
    aclDataType dataTypeA, aclDataType dataTypeX, aclDataType dataTypeY,
    aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n,
    const aclFloat16 *alpha, const aclFloat16 *a, int lda,
    const aclFloat16 *x, int incx, const aclFloat16 *beta,
    aclFloat16 *y, int incy, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n,
    aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasS8gemv(aclTransType transA, int m, int n,
    const int32_t *alpha, const int8_t *a, int lda,
    const int8_t *x, int incx, const int32_t *beta,
    int32_t *y, int incy, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n,
    aclComputeType type, aclopHandle **handle);

/* C = alpha * op(A) op(B) + beta * C; op(A) is m x k, op(B) k x n, C m x n. */
ACL_FUNC_VISIBILITY aclError aclblasGemmEx(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    const void *alpha, const void *matrixA, int lda, aclDataType dataTypeA,
    const void *matrixB, int ldb, aclDataType dataTypeB,
    const void *beta, void *matrixC, int ldc, aclDataType dataTypeC,
    aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    aclDataType dataTypeA, aclDataType dataTypeB, aclDataType dataTypeC,
    aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasHgemm(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
    const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
    aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasS8gemm(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    const int32_t *alpha, const int8_t *matrixA, int lda,
    const int8_t *matrixB, int ldb, const int32_t *beta,
    int32_t *matrixC, int ldc, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB,
    aclTransType transC, int m, int n, int k,
    aclComputeType type, aclopHandle **handle);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_OPS_ACL_CBLAS_H_ */
