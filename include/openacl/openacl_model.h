/*
 * openacl extension: the model converter behind the `atc` command.
 *
 * CANN's atc compiles a model into a .om for an Ascend NPU. openacl's .om keeps the ONNX graph
 * with the conversion options (input shapes, gears, AIPP, output types, precision) applied at
 * every aclmdlLoad*; only ONNX models convert (atc --framework=5).
 */
#ifndef OPENACL_MODEL_H_
#define OPENACL_MODEL_H_

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Converts the ONNX model in onnx[0, onnxSize) with atc's options (names without "--":
 * "input_shape", "dynamic_batch_size", "insert_op_conf" (the AIPP file's text, not its path),
 * ...) and writes the .om file omPath. The options are checked against the model and every
 * gear is planned, so what converts also loads. Needs no aclInit; thread safe.
 * Errors: ACL_ERROR_INVALID_PARAM (NULL pointers, onnxSize 0), ACL_ERROR_PARSE_MODEL (not
 * ONNX, a bad option: aclGetRecentErrMsg names the option and the input or node),
 * ACL_ERROR_OP_NOT_FOUND for a node openacl cannot run (naming the node),
 * ACL_ERROR_WRITE_FILE when omPath cannot be written.
 */
ACL_FUNC_VISIBILITY aclError openaclConvertModel(const void *onnx, size_t onnxSize,
                                                 const char *const *optionNames,
                                                 const char *const *optionValues,
                                                 size_t optionCount, const char *omPath);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_MODEL_H_ */
