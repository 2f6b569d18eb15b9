// Single-op validation and execution shared by the entry points of acl_op.h (in libascendcl)
// and those of acl_op_compiler.h (in libacl_op_compiler, which CANN ships as its own library).
// libacl_op_compiler calls these across the library boundary, so they are exported by name.
#pragma once

#include "acl/acl_base.h"
#include "acl/acl_op.h"

namespace openacl::api {

// Validates an op call (op type, counts, descriptors, attributes) and prepares it for the
// calling thread's device, as aclopCompile and aclopUpdateParams do; enqueues nothing.
// Throws openacl::Error on a bad call.
ACL_FUNC_VISIBILITY void prepare_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                                    const aclTensorDesc *const outputDesc[], const aclopAttr *attr);

// Validates an op call in full (descriptors, buffer sizes, device ranges, stream context) and
// enqueues it on the stream as one task (R17). Throws openacl::Error, having enqueued nothing.
ACL_FUNC_VISIBILITY void execute_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                    const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
                                    aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream);

}  // namespace openacl::api
