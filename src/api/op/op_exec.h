// Single-op validation and execution shared by the entry points of acl_op.h (in libascendcl)
// and those that CANN ships in libraries of their own: acl_op_compiler.h (libacl_op_compiler)
// and acl/ops/acl_cblas.h (libacl_cblas). Those call these across the library boundary, so
// they are exported by name.
#pragma once

#include "acl/acl_base.h"
#include "acl/acl_op.h"

namespace openacl::api {

// Validates an op call (op type, counts, descriptors, attributes) and prepares it for the
// calling thread's device, as aclopCompile and aclopUpdateParams do; enqueues nothing.
// Throws openacl::Error on a bad call.
ACL_FUNC_VISIBILITY void prepare_op(const char *opType, int numInputs,
                                    const aclTensorDesc *const inputDesc[], int numOutputs,
                                    const aclTensorDesc *const outputDesc[], const aclopAttr *attr);

// Validates an op call in full (descriptors, buffer sizes, device ranges, stream context) and
// enqueues it on the stream as one task (R17). Throws openacl::Error, having enqueued nothing.
ACL_FUNC_VISIBILITY void execute_op(const char *opType, int numInputs,
                                    const aclTensorDesc *const inputDesc[],
                                    const aclDataBuffer *const inputs[], int numOutputs,
                                    const aclTensorDesc *const outputDesc[],
                                    aclDataBuffer *const outputs[], const aclopAttr *attr,
                                    aclrtStream stream);

// Validates an op call and prepares it once for aclopExecWithHandle (aclopCreateHandle).
// Throws openacl::Error on a bad call; the caller owns the handle (aclopDestroyHandle).
ACL_FUNC_VISIBILITY aclopHandle *create_op_handle(const char *opType, int numInputs,
                                                  const aclTensorDesc *const inputDesc[],
                                                  int numOutputs,
                                                  const aclTensorDesc *const outputDesc[],
                                                  const aclopAttr *attr);

}  // namespace openacl::api
