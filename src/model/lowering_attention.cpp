// ONNX Attention (opset 23) as a composite: Q, K, V in 4-D [B, heads, S, D] or 3-D [B, S,
// heads * D] layouts; grouped K/V heads repeated to the query heads; past key/value concatenated
// (and returned as present key/value); boolean or additive masks, causal masking (offset by the
// past length), softcap; scores = softmax(Q K^T * scale) then times V. Float32. The optional
// qk_matmul_output output is refused.
#include <cmath>

#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

int reshape(LoweringContext &c, int v, std::vector<int64_t> dims) {
  const int t = c.temporary();
  c.view(v, t, std::move(dims));
  return t;
}

int transpose(LoweringContext &c, int v, std::vector<int64_t> perm) {
  return emit(c, "TransposeD", {v}, {{"perm", std::move(perm)}});
}

// [B, S, heads * D] -> [B, heads, S, D]; 4-D inputs pass as they are.
int heads_first(const Node &n, LoweringContext &c, int v, int64_t heads, const char *what) {
  const auto d = c.desc(v).dims;
  if (d.size() == 4) return v;
  if (d.size() != 3) mismatch(n, std::string(what) + " must have rank 3 or 4");
  if (heads <= 0 || d[2] % heads != 0)
    mismatch(n, std::string(what) + " is 3-D: q_num_heads / kv_num_heads must divide its last dim");
  return transpose(c, reshape(c, v, {d[0], d[1], heads, d[2] / heads}), {0, 2, 1, 3});
}

// A float32 constant [rows, cols] with -inf where key j is after query i + offset.
int causal_mask(LoweringContext &c, int64_t rows, int64_t cols, int64_t offset) {
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->desc.dims = {rows, cols};
  t->data.resize(static_cast<size_t>(rows * cols) * sizeof(float));
  auto *p = reinterpret_cast<float *>(t->data.data());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) p[i * cols + j] = j > i + offset ? -INFINITY : 0.0f;
  return c.constant_value(t);
}

void lower_attention(const Node &n, LoweringContext &c) {
  for (size_t k = 0; k < 3; ++k) require_f32(n, c, in(n, k));
  if (out(n, 3) >= 0) unsupported(n, "the qk_matmul_output output");
  const bool three_d = c.desc(in(n, 0)).dims.size() == 3;
  const int64_t q_heads = attr_i(n, "q_num_heads", 0), kv_heads = attr_i(n, "kv_num_heads", 0);
  const int q = heads_first(n, c, in(n, 0), q_heads, "Q");
  int k = heads_first(n, c, in(n, 1), kv_heads, "K");
  int v = heads_first(n, c, in(n, 2), kv_heads, "V");
  const auto qd = c.desc(q).dims;
  if (in(n, 4) >= 0 && !is_empty_tensor(c, in(n, 4))) {
    if (in(n, 5) < 0) mismatch(n, "past_key is given without past_value");
    k = emit(c, "ConcatD", {in(n, 4), k}, {{"concat_dim", int64_t{2}}, {"N", int64_t{2}}});
    v = emit(c, "ConcatD", {in(n, 5), v}, {{"concat_dim", int64_t{2}}, {"N", int64_t{2}}});
  }
  if (out(n, 1) >= 0) c.view(k, out(n, 1), c.desc(k).dims);
  if (out(n, 2) >= 0) c.view(v, out(n, 2), c.desc(v).dims);
  const auto kd = c.desc(k).dims, vd = c.desc(v).dims;
  const int64_t b = qd[0], hq = qd[1], s = qd[2], hd = qd[3], hk = kd[1], l = kd[2];
  if (hk == 0 || hq % hk != 0) mismatch(n, "the query heads must be a multiple of the key/value heads");
  if (hq != hk) {  // grouped-query attention: each K/V head serves hq / hk query heads
    const int64_t g = hq / hk;
    auto repeat = [&](int t, int64_t width) {
      const int spread = emit(c, "BroadcastTo", {reshape(c, t, {b, hk, 1, l, width}),
                                                 c.constant_value(int64_tensor({b, hk, g, l, width}))});
      return reshape(c, spread, {b, hq, l, width});
    };
    k = repeat(k, kd[3]);
    v = repeat(v, vd[3]);
  }
  const float scale = attr_f(n, "scale", 1.0f / std::sqrt(static_cast<float>(hd)));
  int scores = emit(c, "BatchMatMul", {q, k}, {{"adj_x2", true}});
  scores = emit(c, "Mul", {scores, scalar(c, scale)});
  if (const float cap = attr_f(n, "softcap", 0.0f); cap > 0)
    scores = emit(c, "Mul", {emit(c, "Tanh", {emit(c, "Mul", {scores, scalar(c, 1.0f / cap)})}), scalar(c, cap)});
  if (const int mask = in(n, 3); mask >= 0 && !is_empty_tensor(c, mask)) {
    const DType mt = c.desc(mask).dtype;
    if (mt == DType::boolean) scores = emit(c, "Select", {mask, scores, scalar(c, -INFINITY)});
    else if (mt == DType::f32) scores = emit(c, "Add", {scores, mask});
    else unsupported(n, std::string("a ") + ops::dtype_name(mt) + " attn_mask");
  }
  // ONNX aligns the causal mask to the upper left: query i sees keys 0..i, past ones included.
  if (attr_i(n, "is_causal", 0) != 0) scores = emit(c, "Add", {scores, causal_mask(c, s, l, 0)});
  const int probs = emit(c, "SoftmaxV2", {scores}, {{"axes", std::vector<int64_t>{-1}}});
  const int y = emit(c, "BatchMatMul", {probs, v});  // [B, hq, S, Dv]
  if (!three_d) return c.view(y, out(n, 0), c.desc(y).dims);
  c.view(transpose(c, y, {0, 2, 1, 3}), out(n, 0), {b, s, hq * vd[3]});
}

}  // namespace

void add_attention_lowering(std::unordered_map<std::string, Lower> &m) { m["Attention"] = lower_attention; }

}  // namespace openacl::model::lowering_util
