/* The aclnn framework calls (libnnopbase): initialization, executors and their reuse, and
 * CANN's aclnn status codes (CANN's aclnn/aclnn_base.h).
 *
 * The two phases of every operator (aclnnop/aclnn_<op>.h):
 * - aclnnXxxGetWorkspaceSize(inputs..., outputs..., &workspaceSize, &executor) checks every
 *   argument, plans the computation and enqueues nothing. It returns the device workspace the
 *   run needs (0 when none) and an executor that holds the plan.
 * - aclnnXxx(workspace, workspaceSize, executor, stream) enqueues the plan on the stream as one
 *   task and returns; the stream must belong to the calling thread's current context, and the
 *   workspace must be device memory of at least the size phase 1 returned. The executor is
 *   consumed by its first run unless aclSetAclOpExecutorRepeatable was called; a repeatable one
 *   runs any number of times until aclDestroyAclOpExecutor. A failed call enqueues nothing.
 * - Errors: ACLNN_ERR_PARAM_NULLPTR (a required pointer is NULL), ACLNN_ERR_PARAM_INVALID (a
 *   dtype, shape, value or workspace that the operator does not accept), ACLNN_ERR_RUNTIME_ERROR
 *   (the runtime refused: no context, a stream of another context, memory that is not device
 *   memory), ACLNN_ERR_INNER (an internal failure). aclGetRecentErrMsg names the call, the
 *   argument and what was wrong.
 *
 * Address updates (repeatable executors): index counts the operator's tensor inputs (or
 * outputs) in the order of its GetWorkspaceSize parameters, a tensor list as one (irIndex) whose
 * members are numbered by relativeIndex. aclSetTensorAddr numbers inputs then outputs. Each call
 * also sets the tensor's own address. */
#ifndef OPENACL_ACLNN_ACLNN_BASE_H_
#define OPENACL_ACLNN_ACLNN_BASE_H_

#include <stddef.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102
#define ACLNN_ERR_INNER_NULLPTR 561103
#define ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE 561104
#define ACLNN_ERR_INNER_KEY_CONFLICT 561105
#define ACLNN_ERR_INNER_INVALID_IMPL_MODE 561106
#define ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND 561107
#define ACLNN_ERR_INNER_LOAD_JSON_FAILED 561108
#define ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND 561109
#define ACLNN_ERR_INNER_JSON_FORMAT_INVALID 561110
#define ACLNN_ERR_INNER_JSON_DTYPE_INVALID 561111
#define ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND 561112

/* Initializes aclnn (aclInit does too); configPath may be NULL or a JSON file. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                       void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                             const size_t relativeIndex, aclTensorList *tensors,
                                                             void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                              const size_t relativeIndex, aclTensorList *tensors,
                                                              void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                 void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                        const size_t relativeIndex, aclTensorList *tensors,
                                                        void *addr);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNN_ACLNN_BASE_H_ */
