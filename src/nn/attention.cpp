// FusedInferAttentionScoreV2: softmax(scale * Q K^T + pseShift, masked) V per head, in f32, by
// the operator's own kernel over the caller's views (nn/attention_kernel.h). Layouts BNSD, BSND and
// BSH; grouped heads (numKeyValueHeads); a bool / int8 / uint8 attenMask (1 = masked) or a float
// pseShift. The quantized, paged, padded, prefix and sparse forms are refused, naming the argument.

#include <string>

#include "nn/attention_kernel.h"
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

// Argument positions (CANN's order).
enum : size_t {
  kQuery,
  kKey,
  kValue,
  kPseShift,
  kAttenMask,
  kActualSeqLengths,
  kActualSeqLengthsKv,
  kFirstUnsupported = 7,
  kLastUnsupported = 20,  // dequant / quant / antiquant / blockTable / paddings
  kKeySharedPrefix = 21,
  kValueSharedPrefix,
  kActualSharedPrefixLen,
  kNumHeads,
  kScale,
  kPreTokens,
  kNextTokens,
  kLayout,
  kNumKvHeads,
  kSparseMode,
  kInnerPrecise,
  kBlockSize,
  kAntiquantMode,
  kSoftmaxLse,
  kKeyAntiquantMode,
  kValueAntiquantMode,
  kOut,
  kLseOut,
};

const char *const kUnsupportedNames[] = {
    "deqScale1Optional",           "quantScale1Optional",         "deqScale2Optional",
    "quantScale2Optional",         "quantOffset2Optional",        "antiquantScaleOptional",
    "antiquantOffsetOptional",     "blockTableOptional",          "queryPaddingSizeOptional",
    "kvPaddingSizeOptional",       "keyAntiquantScaleOptional",   "keyAntiquantOffsetOptional",
    "valueAntiquantScaleOptional", "valueAntiquantOffsetOptional"};

// A [B, heads, S, D] view of a tensor in `layout` (no data moves).
size_t as_bnsd(Planner &p, size_t v, const std::string &layout, int64_t heads, const char *name) {
  const auto dims = p.dims(v);
  const auto strides = p.value(v).strides;
  if (layout == "BNSD") {
    if (dims.size() != 4 || dims[1] != heads)
      p.invalid(std::string(name) + " has shape " + ops::dims_str(dims) + "; BNSD with " +
                std::to_string(heads) + " heads expected");
    return v;
  }
  if (layout == "BSND") {
    if (dims.size() != 4 || dims[2] != heads)
      p.invalid(std::string(name) + " has shape " + ops::dims_str(dims) + "; BSND with " +
                std::to_string(heads) + " heads expected");
    return p.view(v, {dims[0], dims[2], dims[1], dims[3]},
                  {strides[0], strides[2], strides[1], strides[3]}, 0);
  }
  // BSH: H = heads * D
  if (dims.size() != 3 || dims[2] % heads != 0)
    p.invalid(std::string(name) + " has shape " + ops::dims_str(dims) + "; BSH with " +
              std::to_string(heads) + " heads expected");
  const int64_t d = dims[2] / heads;
  return p.view(v, {dims[0], heads, dims[1], d},
                {strides[0], d * strides[2], strides[1], strides[2]}, 0);
}

void plan_fused_infer_attention_score_v2(Planner &p) {
  const aclTensor &query = p.tensor(kQuery, "query");
  const aclTensorList &key = p.tensor_list(kKey, "key");
  const aclTensorList &value = p.tensor_list(kValue, "value");
  const aclTensor *pse = p.tensor_opt(kPseShift, "pseShiftOptional");
  const aclTensor *mask = p.tensor_opt(kAttenMask, "attenMaskOptional");
  if (p.int_array_opt(kActualSeqLengths, "actualSeqLengthsOptional") ||
      p.int_array_opt(kActualSeqLengthsKv, "actualSeqLengthsKvOptional"))
    p.invalid(
        "actualSeqLengths are not supported; pass NULL (every sequence has its tensor's full "
        "length)");
  for (size_t i = kFirstUnsupported; i <= kLastUnsupported; ++i)
    if (p.tensor_opt(i, kUnsupportedNames[i - kFirstUnsupported]))
      p.invalid(std::string(kUnsupportedNames[i - kFirstUnsupported]) +
                " is not supported (quantized, paged and padded attention); pass NULL");
  if (p.tensor_opt(kKeySharedPrefix, "keySharedPrefixOptional") ||
      p.tensor_opt(kValueSharedPrefix, "valueSharedPrefixOptional") ||
      p.int_array_opt(kActualSharedPrefixLen, "actualSharedPrefixLenOptional"))
    p.invalid("shared prefixes are not supported; pass NULL");
  const int64_t heads = p.i64(kNumHeads);
  const double scale = p.f64(kScale);
  const std::string layout = p.text(kLayout, "inputLayout");
  int64_t kv_heads = p.i64(kNumKvHeads);
  if (kv_heads == 0) kv_heads = heads;
  if (p.i64(kSparseMode) != 0)
    p.invalid("sparseMode " + std::to_string(p.i64(kSparseMode)) +
              " is not supported; only 0 (attenMask as given)");
  if (p.i64(kBlockSize) != 0)
    p.invalid("blockSize " + std::to_string(p.i64(kBlockSize)) +
              " is not supported (paged attention); pass 0");
  if (p.flag(kSoftmaxLse)) p.invalid("softmaxLseFlag is not supported; pass false");
  if (layout != "BNSD" && layout != "BSND" && layout != "BSH")
    p.invalid("inputLayout \"" + layout + "\" is not supported: BNSD, BSND and BSH are");
  if (heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0)
    p.invalid("numHeads " + std::to_string(heads) +
              " must be a positive multiple of numKeyValueHeads " + std::to_string(kv_heads));
  if (key.tensors.size() != 1 || value.tensors.size() != 1)
    p.invalid(
        "key and value must each hold one tensor (batches of separate tensors are not supported)");
  const aclTensor &out = p.tensor(kOut, "attentionOut");
  const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};
  p.dtype_in(query, "query", kFloat);
  p.dtype_in(out, "attentionOut", kFloat);
  p.same_shape(out, "attentionOut", query.view.dims, "query's shape");
  if (mask) p.dtype_in(*mask, "attenMaskOptional", {D::boolean, D::i8, D::u8});
  if (pse) p.dtype_in(*pse, "pseShiftOptional", kFloat);
  const size_t qv = p.input(query, "query");
  const size_t kv = p.input_list(key, "key")[0];
  const size_t vv = p.input_list(value, "value")[0];
  const size_t pv = pse ? p.input(*pse, "pseShiftOptional") : 0;
  const size_t mv = mask ? p.input(*mask, "attenMaskOptional") : 0;
  const size_t o = p.output(out, "attentionOut");
  p.dtype_in(*key.tensors[0], "key[0]", kFloat);
  p.dtype_in(*value.tensors[0], "value[0]", kFloat);
  const size_t q4 = as_bnsd(p, qv, layout, heads, "query");
  size_t k4 = as_bnsd(p, kv, layout, kv_heads, "key[0]");
  size_t v4 = as_bnsd(p, vv, layout, kv_heads, "value[0]");
  const auto qd = p.dims(q4), kd = p.dims(k4), vd = p.dims(v4);
  if (kd[0] != qd[0] || kd[3] != qd[3] || vd[0] != qd[0] || vd[2] != kd[2] || vd[3] != qd[3])
    p.invalid("query " + ops::dims_str(qd) + ", key " + ops::dims_str(kd) + " and value " +
              ops::dims_str(vd) + " (as BNSD) do not match");
  AttentionShape shape{qd[0], heads, kv_heads, qd[2], kd[2], qd[3], static_cast<float>(scale)};
  std::vector<size_t> ins = {q4, k4, v4};
  // pse and mask as [B, heads, S, Skv] views: stride 0 where they broadcast.
  const std::vector<int64_t> sd = {qd[0], heads, qd[2], kd[2]};
  auto spread = [&](size_t v, const char *name) {
    auto d = p.dims(v);
    auto st = p.value(v).strides;
    if (d.size() == 3 && std::string(name) == "attenMaskOptional") {  // [B, S, Skv]: all heads
      d.insert(d.begin() + 1, 1);
      st.insert(st.begin() + 1, 0);
    }
    if (d.size() > 4 || broadcast_shapes(p, d, sd) != sd)
      p.invalid(std::string(name) + " has shape " + ops::dims_str(p.dims(v)) +
                ", which does not broadcast to the scores' " + ops::dims_str(sd));
    std::vector<int64_t> strides(4, 0);
    const size_t lead = 4 - d.size();
    for (size_t i = 0; i < d.size(); ++i)
      if (d[i] != 1) strides[lead + i] = st[i];
    return p.view(v, sd, std::move(strides), 0);
  };
  if (pse) {
    shape.pse = true;
    ins.push_back(spread(pv, "pseShiftOptional"));
  }
  if (mask) {
    shape.mask = true;
    ins.push_back(spread(mv, "attenMaskOptional"));
  }
  p.kernel(attention_kernel(shape), std::move(ins), {as_bnsd(p, o, layout, heads, "attentionOut")});
}

const Registrar reg({{"FusedInferAttentionScoreV2", plan_fused_infer_attention_score_v2}});

}  // namespace

}  // namespace openacl::nn
