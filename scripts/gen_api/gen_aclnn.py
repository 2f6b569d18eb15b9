#!/usr/bin/env python3
"""Generates the aclnn operator headers (include/aclnnop/aclnn_<op>.h) and libopapi's entry
points (src/api/aclnn/opapi/<family>.cpp) from one table of CANN's signatures, so that the two can
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
        ("InplaceAdds", "aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha"),
    ]),
    "aclnn_sub.h": ("elementwise", [
        ("Sub", "const aclTensor *self, const aclTensor *other, const aclScalar *alpha, aclTensor *out"),
        ("InplaceSub", "aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha"),
        ("Subs", "const aclTensor *self, const aclScalar *other, const aclScalar *alpha, aclTensor *out"),
        ("InplaceSubs", "aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha"),
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
        ("Divs", "const aclTensor *self, const aclScalar *other, aclTensor *out"),
        ("InplaceDivs", "aclTensor *selfRef, const aclScalar *other"),
    ]),
    "aclnn_sin.h": ("elementwise", [
        ("Sin", "const aclTensor *self, aclTensor *out"),
        ("InplaceSin", "aclTensor *selfRef"),
    ]),
    "aclnn_cos.h": ("elementwise", [
        ("Cos", "const aclTensor *self, aclTensor *out"),
        ("InplaceCos", "aclTensor *selfRef"),
    ]),
    "aclnn_gelu.h": ("elementwise", [("Gelu", "const aclTensor *self, aclTensor *out")]),
    "aclnn_silu.h": ("elementwise", [("Silu", "const aclTensor *self, aclTensor *out")]),
    "aclnn_clamp.h": ("elementwise", [
        ("Clamp", "const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out"),
        ("ClampMin", "const aclTensor *self, const aclScalar *clipValueMin, aclTensor *out"),
        ("ClampMax", "const aclTensor *self, const aclScalar *clipValueMax, aclTensor *out"),
        ("InplaceClampMax", "const aclTensor *selfRef, const aclScalar *clipValueMax"),
    ]),
    "aclnn_exp.h": ("elementwise", [
        ("Exp", "const aclTensor *self, aclTensor *out"),
        ("InplaceExp", "aclTensor *selfRef"),
    ]),
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
        ("InplacePowTensorTensor", "aclTensor *selfRef, const aclTensor *exponent"),
    ]),
    "aclnn_mean.h": ("reduce", [
        ("Mean", "const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out"),
    ]),
    "aclnn_argmax.h": ("reduce", [("ArgMax", "const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out")]),
    "aclnn_embedding.h": ("index", [("Embedding", "const aclTensor *weight, const aclTensor *indices, const aclTensor *out")]),
    "aclnn_tril.h": ("copy", [("Tril", "const aclTensor *self, int64_t diagonal, aclTensor *out")]),
    "aclnn_triu.h": ("copy", [
        ("Triu", "const aclTensor *self, int64_t diagonal, aclTensor *out"),
        ("InplaceTriu", "aclTensor *selfRef, int64_t diagonal"),
    ]),
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
    # The functions issue 13 adds (ggml's CANN backend calls them), CANN's signatures.
    "aclnn_hardsigmoid.h": ("elementwise", [("Hardsigmoid", "const aclTensor *self, aclTensor *out")]),
    "aclnn_hardswish.h": ("elementwise", [("Hardswish", "const aclTensor *self, aclTensor *out")]),
    "aclnn_sign.h": ("elementwise", [("Sign", "const aclTensor *self, aclTensor *out")]),
    "aclnn_leaky_relu.h": ("elementwise", [
        ("LeakyRelu", "const aclTensor *self, const aclScalar *negativeSlope, aclTensor *out"),
    ]),
    "aclnn_elu.h": ("elementwise", [
        ("Elu", "const aclTensor *self, const aclScalar *alpha, const aclScalar *scale, const aclScalar *inputScale, "
                "aclTensor *out"),
    ]),
    "aclnn_softplus.h": ("elementwise", [
        ("Softplus", "const aclTensor *self, const aclScalar *beta, const aclScalar *threshold, aclTensor *out"),
    ]),
    "aclnn_gelu_v2.h": ("elementwise", [("GeluV2", "const aclTensor *x, int64_t approximate, aclTensor *y")]),
    "aclnn_geglu.h": ("elementwise", [
        ("GeGluV3", "const aclTensor *self, int64_t dim, int64_t approximate, bool activateLeft, aclTensor *out, "
                    "aclTensor *outGelu"),
    ]),
    "aclnn_threshold.h": ("elementwise", [
        ("Threshold", "const aclTensor *self, const aclScalar *threshold, const aclScalar *value, aclTensor *out"),
        ("InplaceThreshold", "aclTensor *selfRef, const aclScalar *threshold, const aclScalar *value"),
    ]),
    "aclnn_logical_not.h": ("elementwise", [
        ("LogicalNot", "const aclTensor *self, aclTensor *out"),
        ("InplaceLogicalNot", "aclTensor *selfRef"),
    ]),
    "aclnn_addcdiv.h": ("elementwise", [
        ("Addcdiv", "const aclTensor *self, const aclTensor *tensor1, const aclTensor *tensor2, const aclScalar *value, "
                    "aclTensor *out"),
        ("InplaceAddcdiv", "aclTensor *selfRef, const aclTensor *tensor1, const aclTensor *tensor2, "
                           "const aclScalar *value"),
    ]),
    "aclnn_add_rms_norm.h": ("norm", [
        ("AddRmsNorm", "const aclTensor *x1, const aclTensor *x2, const aclTensor *gamma, double epsilon, "
                       "const aclTensor *yOut, const aclTensor *rstdOut, const aclTensor *xOut"),
    ]),
    "aclnn_group_norm.h": ("norm", [
        ("GroupNorm", "const aclTensor *self, const aclTensor *gammaOptional, const aclTensor *betaOptional, int64_t N, "
                      "int64_t C, int64_t HxW, int64_t group, double eps, aclTensor *out, aclTensor *meanOut, "
                      "aclTensor *rstdOut"),
    ]),
    "aclnn_norm.h": ("reduce", [
        ("Norm", "const aclTensor *self, const aclScalar *pScalar, const aclIntArray *dim, bool keepdim, aclTensor *out"),
    ]),
    "aclnn_cumsum.h": ("reduce", [
        ("Cumsum", "const aclTensor *self, int64_t dim, aclDataType dtype, aclTensor *out"),
    ]),
    "aclnn_logsoftmax.h": ("reduce", [("LogSoftmax", "const aclTensor *self, int64_t dim, aclTensor *out")]),
    "aclnn_softmax_cross_entropy_with_logits.h": ("reduce", [
        ("SoftmaxCrossEntropyWithLogits", "const aclTensor *features, const aclTensor *labels, aclTensor *loss, "
                                          "aclTensor *backprop"),
    ]),
    "aclnn_mv.h": ("matmul", [
        ("Mv", "const aclTensor *self, const aclTensor *vec, aclTensor *out, int8_t cubeMathType"),
    ]),
    "aclnn_ger.h": ("matmul", [("Ger", "const aclTensor *self, const aclTensor *vec2, aclTensor *out")]),
    "aclnn_triangular_solve.h": ("matmul", [
        ("TriangularSolve", "const aclTensor *self, const aclTensor *A, bool upper, bool transpose, bool unitriangular, "
                            "aclTensor *xOut, aclTensor *mOut"),
    ]),
    "aclnn_trans_matmul_weight.h": ("matmul", [("TransMatmulWeight", "aclTensor *mmWeightRef")]),
    "aclnn_grouped_matmul_v3.h": ("matmul", [
        ("GroupedMatmulV3",
         "const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional, "
         "const aclTensorList *scaleOptional, const aclTensorList *offsetOptional, "
         "const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional, "
         "const aclTensor *groupListOptional, int64_t splitItem, int64_t groupType, const aclTensorList *y"),
    ]),
    "aclnn_recurrent_gated_delta_rule.h": ("attention", [
        ("RecurrentGatedDeltaRule",
         "const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *beta, "
         "aclTensor *stateRef, const aclTensor *actualSeqLengths, const aclTensor *ssmStateIndices, "
         "const aclTensor *g, const aclTensor *gk, const aclTensor *numAcceptedTokens, float scaleValue, "
         "aclTensor *out"),
    ]),
    "aclnn_avgpool2d.h": ("pool", [
        ("AvgPool2d", "const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *strides, "
                      "const aclIntArray *paddings, const bool ceilMode, const bool countIncludePad, "
                      "const int64_t divisorOverride, const int8_t cubeMathType, aclTensor *out"),
    ]),
    "aclnn_max_pool.h": ("pool", [
        ("MaxPool", "const aclTensor *self, const aclIntArray *kernelShape, const aclIntArray *strides, "
                    "const int64_t autoPad, const aclIntArray *pads, const aclIntArray *dilations, "
                    "const int64_t ceilMode, aclTensor *out"),
    ]),
    "aclnn_im2col.h": ("pool", [
        ("Im2col", "const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *dilation, "
                   "const aclIntArray *padding, const aclIntArray *stride, const aclTensor *out"),
    ]),
    "aclnn_upsample_nearest_2d.h": ("pool", [
        ("UpsampleNearest2d", "const aclTensor *self, const aclIntArray *outputSize, aclTensor *out"),
    ]),
    "aclnn_reflection_pad1d.h": ("copy", [
        ("ReflectionPad1d", "const aclTensor *self, const aclIntArray *padding, aclTensor *out"),
    ]),
    "aclnn_index_fill_tensor.h": ("index", [
        ("InplaceIndexFillTensor", "aclTensor *selfRef, int64_t dim, const aclIntArray *index, const aclScalar *value"),
    ]),
    "aclnn_masked_fill_scalar.h": ("index", [
        ("InplaceMaskedFillScalar", "aclTensor *selfRef, const aclTensor *mask, const aclScalar *value"),
    ]),
    "aclnn_scatter.h": ("index", [
        ("Scatter", "const aclTensor *self, int64_t dim, const aclTensor *index, const aclTensor *src, int64_t reduce, "
                    "aclTensor *out"),
        ("InplaceScatter", "aclTensor *selfRef, int64_t dim, const aclTensor *index, const aclTensor *src, "
                           "int64_t reduce"),
    ]),
}

# Functions outside the two-phase form: header -> (family, [(name, parameters, the call into src/nn/)]).
PLAIN = {
    "aclnn_trans_matmul_weight.h": ("matmul", [
        ("CalculateMatmulWeightSizeV2", "const aclIntArray *tensorShape, aclDataType dataType, uint64_t *weightTensorSize",
         "openacl::nn::matmul_weight_size(tensorShape, openacl::api::enum_value(dataType), weightTensorSize)"),
    ]),
}

# Headers ggml includes for no function it calls, kept without declarations until their
# operators are planned.
EMPTY = ["aclnn_sum.h"]

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
#include "api/aclnn/aclnn_call.h"

using openacl::api::aclnn_plan;
using openacl::api::aclnn_run;

extern "C" {{
{defs}
}}  // extern "C"
"""

PLAIN_DECL = """
ACL_FUNC_VISIBILITY aclnnStatus aclnn{name}({params});
"""

PLAIN_DEF = """
aclnnStatus aclnn{name}({params}) {{
  return openacl::api::aclnn_guarded(__func__, [&] {{ {call}; }});
}}
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
    if ctype == "float":
        return f"static_cast<double>({name})"
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
    plain = {}
    for header, (family, fns) in PLAIN.items():
        plain.setdefault(family, []).append((header, fns))
    for header in list(OPS) + EMPTY:
        family, ops = OPS.get(header, (None, []))
        guard = header.upper().replace(".", "_")
        decls = "".join(DECL.format(op=op, params=params) for op, params in ops)
        decls += "".join(PLAIN_DECL.format(name=n, params=ps) for n, ps, _ in PLAIN.get(header, (None, []))[1])
        (root / "include/aclnnop" / header).write_text(HEADER.format(name=header, guard=guard, decls=decls))
        if family:
            families.setdefault(family, []).append((header, ops))
    includes = "".join(f'#include "aclnnop/{h}"\n' for h in sorted(list(OPS) + EMPTY))
    (root / "tests/aclnn/headers_c11.c").write_text(CHECK.format(includes=includes))
    for family, entries in families.items():
        includes = "".join(f'#include "aclnnop/{h}"\n' for h, _ in entries)
        defs = ""
        for _, ops in entries:
            for op, params in ops:
                args = ", ".join(arg(p) for p in params.split(","))
                defs += DEF.format(op=op, params=params, args=args)
        for _, fns in plain.get(family, []):
            for name, params, call in fns:
                defs += PLAIN_DEF.format(name=name, params=params, call=call)
        (root / "src/api/aclnn/opapi" / f"{family}.cpp").write_text(SKIN.format(family=family, includes=includes, defs=defs))


if __name__ == "__main__":
    main()
