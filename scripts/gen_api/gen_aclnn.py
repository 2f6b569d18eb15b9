#!/usr/bin/env python3
"""Generates the aclnn operator headers (include/aclnnop/aclnn_<op>.h) and libopapi's entry
points (src/api/aclnn/<family>.cpp) from one table of CANN's signatures, so that the two can
never disagree. The signatures are CANN's (aclnnop headers and the aclnn API reference); each
operator's computation is its planner in src/nn/. Run from the repository root; commit the
output."""
import pathlib
import re

# header -> (family, [phase-1 parameter lists, by operator name])
OPS = {
    "aclnn_add.h": ("elementwise", [
        ("Add", "const aclTensor *self, const aclTensor *other, const aclScalar *alpha, aclTensor *out"),
        ("InplaceAdd", "aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha"),
        ("Adds", "const aclTensor *self, const aclScalar *other, const aclScalar *alpha, aclTensor *out"),
    ]),
    "aclnn_sub.h": ("elementwise", [
        ("Sub", "const aclTensor *self, const aclTensor *other, const aclScalar *alpha, aclTensor *out"),
        ("InplaceSub", "aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha"),
    ]),
    "aclnn_mul.h": ("elementwise", [
        ("Mul", "const aclTensor *self, const aclTensor *other, aclTensor *out"),
        ("InplaceMul", "aclTensor *selfRef, const aclTensor *other"),
        ("Muls", "const aclTensor *self, const aclScalar *other, aclTensor *out"),
        ("InplaceMuls", "aclTensor *selfRef, const aclScalar *other"),
    ]),
    "aclnn_div.h": ("elementwise", [
        ("Div", "const aclTensor *self, const aclTensor *other, aclTensor *out"),
        ("InplaceDiv", "aclTensor *selfRef, const aclTensor *other"),
    ]),
    "aclnn_sin.h": ("elementwise", [("Sin", "const aclTensor *self, aclTensor *out")]),
    "aclnn_cos.h": ("elementwise", [("Cos", "const aclTensor *self, aclTensor *out")]),
    "aclnn_gelu.h": ("elementwise", [("Gelu", "const aclTensor *self, aclTensor *out")]),
    "aclnn_silu.h": ("elementwise", [("Silu", "const aclTensor *self, aclTensor *out")]),
    "aclnn_clamp.h": ("elementwise", [
        ("Clamp", "const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out"),
    ]),
    "aclnn_exp.h": ("elementwise", [("Exp", "const aclTensor *self, aclTensor *out")]),
    "aclnn_log.h": ("elementwise", [("Log", "const aclTensor *self, aclTensor *out")]),
    "aclnn_sqrt.h": ("elementwise", [("Sqrt", "const aclTensor *self, aclTensor *out")]),
    "aclnn_rsqrt.h": ("elementwise", [("Rsqrt", "const aclTensor *self, aclTensor *out")]),
    "aclnn_tanh.h": ("elementwise", [("Tanh", "const aclTensor *self, aclTensor *out")]),
    "aclnn_sigmoid.h": ("elementwise", [("Sigmoid", "const aclTensor *self, aclTensor *out")]),
    "aclnn_neg.h": ("elementwise", [("Neg", "const aclTensor *self, aclTensor *out")]),
    "aclnn_abs.h": ("elementwise", [("Abs", "const aclTensor *self, aclTensor *out")]),
    "aclnn_relu.h": ("elementwise", [("Relu", "const aclTensor *self, aclTensor *out")]),
    "aclnn_pow.h": ("elementwise", [
        ("PowScalarTensor", "const aclScalar *self, const aclTensor *exponent, aclTensor *out"),
        ("PowTensorScalar", "const aclTensor *self, const aclScalar *exponent, aclTensor *out"),
    ]),
    "aclnn_swi_glu.h": ("elementwise", [("SwiGlu", "const aclTensor *x, int64_t dim, const aclTensor *out")]),
    "aclnn_permute.h": ("copy", [("Permute", "const aclTensor *self, const aclIntArray *dims, aclTensor *out")]),
    "aclnn_repeat_interleave.h": ("copy", [
        ("RepeatInterleaveIntWithDim",
         "const aclTensor *self, int64_t repeats, int64_t dim, int64_t outputSize, aclTensor *out"),
    ]),
    "aclnn_index_copy.h": ("copy", [
        ("InplaceIndexCopy", "aclTensor *selfRef, int64_t dim, const aclTensor *index, const aclTensor *source"),
    ]),
    "aclnn_rotary_position_embedding.h": ("rope", [
        # ggml declares this prototype itself, with a const yOut: the definition matches it.
        ("RotaryPositionEmbedding", "const aclTensor *x, const aclTensor *cos, const aclTensor *sin, int64_t mode, "
                                    "const aclTensor *yOut"),
    ]),
    "aclnn_convolution.h": ("conv", [
        ("Convolution", "const aclTensor *input, const aclTensor *weight, const aclTensor *bias, "
                        "const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, "
                        "bool transposed, const aclIntArray *outputPadding, const int64_t groups, aclTensor *output, "
                        "int8_t cubeMathType"),
    ]),
    "aclnn_eq_tensor.h": ("elementwise", [("EqTensor", "const aclTensor *self, const aclTensor *other, aclTensor *out")]),
    "aclnn_gt_scalar.h": ("elementwise", [("GtScalar", "const aclTensor *self, const aclScalar *other, aclTensor *out")]),
    "aclnn_pow_tensor_tensor.h": ("elementwise", [
        ("PowTensorTensor", "const aclTensor *self, const aclTensor *exponent, aclTensor *out"),
    ]),
    "aclnn_mean.h": ("reduce", [
        ("Mean", "const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out"),
    ]),
    "aclnn_argmax.h": ("reduce", [("ArgMax", "const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out")]),
    "aclnn_embedding.h": ("index", [("Embedding", "const aclTensor *weight, const aclTensor *indices, const aclTensor *out")]),
    "aclnn_tril.h": ("copy", [("Tril", "const aclTensor *self, int64_t diagonal, aclTensor *out")]),
    "aclnn_triu.h": ("copy", [("Triu", "const aclTensor *self, int64_t diagonal, aclTensor *out")]),
    "aclnn_roll.h": ("copy", [("Roll", "const aclTensor *x, const aclIntArray *shifts, const aclIntArray *dims, aclTensor *out")]),
    "aclnn_cast.h": ("copy", [("Cast", "const aclTensor *self, const aclDataType dtype, aclTensor *out")]),
    "aclnn_copy.h": ("copy", [("InplaceCopy", "aclTensor *selfRef, const aclTensor *src")]),
    "aclnn_fill_scalar.h": ("copy", [("InplaceFillScalar", "aclTensor *selfRef, const aclScalar *value")]),
    "aclnn_zero.h": ("copy", [("InplaceZero", "aclTensor *selfRef")]),
    "aclnn_slice.h": ("copy", [
        ("Slice", "const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step, aclTensor *out"),
    ]),
    "aclnn_cat.h": ("copy", [("Cat", "const aclTensorList *tensors, int64_t dim, aclTensor *out")]),
    "aclnn_repeat.h": ("copy", [("Repeat", "const aclTensor *self, const aclIntArray *repeats, aclTensor *out")]),
    "aclnn_constant_pad_nd.h": ("copy", [
        ("ConstantPadNd", "const aclTensor *self, const aclIntArray *pad, const aclScalar *value, aclTensor *out"),
    ]),
    "aclnn_arange.h": ("copy", [
        ("Arange", "const aclScalar *start, const aclScalar *end, const aclScalar *step, aclTensor *out"),
    ]),
    "aclnn_matmul.h": ("matmul", [
        ("Matmul", "const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType"),
    ]),
    "aclnn_mm.h": ("matmul", [("Mm", "const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType")]),
    "aclnn_batch_matmul.h": ("matmul", [
        ("BatchMatMul", "const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType"),
    ]),
    "aclnn_weight_quant_batch_matmul_v2.h": ("matmul", [
        ("WeightQuantBatchMatmulV2",
         "const aclTensor *x, const aclTensor *weight, const aclTensor *antiquantScale, "
         "const aclTensor *antiquantOffsetOptional, const aclTensor *quantScaleOptional, "
         "const aclTensor *quantOffsetOptional, const aclTensor *biasOptional, int antiquantGroupSize, "
         "const aclTensor *y"),
    ]),
    "aclnn_fused_infer_attention_score_v2.h": ("attention", [
        ("FusedInferAttentionScoreV2",
         "const aclTensor *query, const aclTensorList *key, const aclTensorList *value, "
         "const aclTensor *pseShiftOptional, const aclTensor *attenMaskOptional, "
         "const aclIntArray *actualSeqLengthsOptional, const aclIntArray *actualSeqLengthsKvOptional, "
         "const aclTensor *deqScale1Optional, const aclTensor *quantScale1Optional, "
         "const aclTensor *deqScale2Optional, const aclTensor *quantScale2Optional, "
         "const aclTensor *quantOffset2Optional, const aclTensor *antiquantScaleOptional, "
         "const aclTensor *antiquantOffsetOptional, const aclTensor *blockTableOptional, "
         "const aclTensor *queryPaddingSizeOptional, const aclTensor *kvPaddingSizeOptional, "
         "const aclTensor *keyAntiquantScaleOptional, const aclTensor *keyAntiquantOffsetOptional, "
         "const aclTensor *valueAntiquantScaleOptional, const aclTensor *valueAntiquantOffsetOptional, "
         "const aclTensor *keySharedPrefixOptional, const aclTensor *valueSharedPrefixOptional, "
         "const aclIntArray *actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue, "
         "int64_t preTokens, int64_t nextTokens, char *inputLayout, int64_t numKeyValueHeads, "
         "int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode, "
         "bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode, "
         "const aclTensor *attentionOut, const aclTensor *softmaxLse"),
    ]),
    "aclnn_softmax.h": ("reduce", [("Softmax", "const aclTensor *self, int64_t dim, aclTensor *out")]),
    "aclnn_reduce_sum.h": ("reduce", [
        ("ReduceSum", "const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out"),
    ]),
    "aclnn_argsort.h": ("reduce", [("Argsort", "const aclTensor *self, int64_t dim, bool descending, aclTensor *out")]),
    "aclnn_layer_norm.h": ("norm", [
        ("LayerNorm", "const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional, "
                      "const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, "
                      "aclTensor *rstdOutOptional"),
    ]),
    "aclnn_rms_norm.h": ("norm", [
        ("RmsNorm", "const aclTensor *x, const aclTensor *gamma, double epsilon, const aclTensor *yOut, "
                    "const aclTensor *rstdOut"),
    ]),
    "aclnn_index_select.h": ("index", [
        ("IndexSelect", "const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out"),
    ]),
    "aclnn_gather_v2.h": ("index", [
        ("GatherV2", "const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out"),
    ]),
}

HEADER = """/* Generated by scripts/gen_api/gen_aclnn.py; do not edit by hand. CANN's aclnnop/{name}:
 * the two phases of each operator (see aclnn/aclnn_base.h for their contract). */
#ifndef OPENACL_ACLNNOP_{guard}_
#define OPENACL_ACLNNOP_{guard}_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {{
#endif
{decls}
#ifdef __cplusplus
}}
#endif

#endif /* OPENACL_ACLNNOP_{guard}_ */
"""

DECL = """
ACL_FUNC_VISIBILITY aclnnStatus aclnn{op}GetWorkspaceSize({params}, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnn{op}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);
"""

SKIN = """// Generated by scripts/gen_api/gen_aclnn.py; do not edit by hand. libopapi's entry points of
// the {family} operators: each forwards its arguments, in order, to its planner in src/nn/.
{includes}
#include "api/aclnn_call.h"

using openacl::api::aclnn_plan;
using openacl::api::aclnn_run;

extern "C" {{
{defs}
}}  // extern "C"
"""

DEF = """
aclnnStatus aclnn{op}GetWorkspaceSize({params}, uint64_t *workspaceSize, aclOpExecutor **executor) {{
  return aclnn_plan(__func__, "{op}", {{{args}}}, workspaceSize, executor);
}}
aclnnStatus aclnn{op}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {{
  return aclnn_run(__func__, workspace, workspaceSize, executor, stream);
}}
"""


def arg(param):
    """The nn::Arg expression of one parameter: enums and narrow integers widen to int64_t."""
    m = re.match(r"(.*?)(\w+)$", param.strip())
    ctype, name = m.group(1).replace("const ", "").strip(), m.group(2)
    if ctype.endswith("*"):
        return name
    if ctype in ("int64_t", "double", "bool"):
        return name
    if ctype.startswith("acl"):
        return f"openacl::api::enum_value({name})"  # any int the caller passed, without an enum load
    return f"static_cast<int64_t>({name})"  # int8_t, int


CHECK = """/* Generated by scripts/gen_api/gen_aclnn.py; do not edit by hand. Every aclnn header, compiled
 * as strict C11 by tests/aclnn/CMakeLists.txt. */
{includes}
int openacl_aclnn_headers_compile_as_c(void);
int openacl_aclnn_headers_compile_as_c(void) {{ return ACLNN_SUCCESS; }}
"""


def main():
    root = pathlib.Path(".")
    families = {}
    for header, (family, ops) in OPS.items():
        guard = header.upper().replace(".", "_")
        decls = "".join(DECL.format(op=op, params=params) for op, params in ops)
        (root / "include/aclnnop" / header).write_text(HEADER.format(name=header, guard=guard, decls=decls))
        families.setdefault(family, []).append((header, ops))
    includes = "".join(f'#include "aclnnop/{h}"\n' for h in sorted(OPS))
    (root / "tests/aclnn/headers_c11.c").write_text(CHECK.format(includes=includes))
    for family, entries in families.items():
        includes = "".join(f'#include "aclnnop/{h}"\n' for h, _ in entries)
        defs = ""
        for _, ops in entries:
            for op, params in ops:
                args = ", ".join(arg(p) for p in params.split(","))
                defs += DEF.format(op=op, params=params, args=args)
        (root / "src/api/aclnn" / f"{family}.cpp").write_text(SKIN.format(family=family, includes=includes, defs=defs))


if __name__ == "__main__":
    main()
