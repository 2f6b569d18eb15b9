// ONNX Attention and RotaryEmbedding (opset 23) as composites. Attention: Q, K, V in 4-D [B, heads,
// S, D] or 3-D [B, S, heads * D] layouts; grouped K/V heads repeated to the query heads; past
// key/value concatenated (and returned as present key/value); boolean or additive masks, causal
// masking (offset by the past length), softcap; scores = softmax(Q K^T * scale) then times V.
// Float32. The optional qk_matmul_output output is refused.
#include <cmath>

#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

int reshape(LoweringContext &c, int v, std::vector<int64_t> dims) {
  const int t = c.temporary();
  c.view(v, t, std::move(dims));
  return t;
}

int slice_of(LoweringContext &c, int v, std::vector<int64_t> offsets, std::vector<int64_t> size) {
  return emit(c, "SliceD", {v}, {{"offsets", std::move(offsets)}, {"size", std::move(size)}});
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
  if (hk == 0 || hq % hk != 0)
    mismatch(n, "the query heads must be a multiple of the key/value heads");
  if (hq != hk) {  // grouped-query attention: each K/V head serves hq / hk query heads
    const int64_t g = hq / hk;
    auto repeat = [&](int t, int64_t width) {
      const int spread = emit(c, "BroadcastTo",
                              {reshape(c, t, {b, hk, 1, l, width}),
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
    scores =
        emit(c, "Mul",
             {emit(c, "Tanh", {emit(c, "Mul", {scores, scalar(c, 1.0f / cap)})}), scalar(c, cap)});
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

// RotaryEmbedding (opset 23): X as [B, S, heads, D]; its first rotary_dim values of each head
// rotate by the cached cos / sin of the token's position (halves, or interleaved pairs).
void lower_rotary(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const auto xd = c.desc(x).dims;
  int x4;
  if (xd.size() == 4) {
    x4 = transpose(c, x, {0, 2, 1, 3});
  } else {
    const int64_t heads = attr_i(n, "num_heads", 0);
    if (xd.size() != 3 || heads <= 0 || xd[2] % heads != 0)
      mismatch(n, "a 3-D input needs num_heads dividing its last dim (4-D: [B, heads, S, D])");
    x4 = reshape(c, x, {xd[0], xd[1], heads, xd[2] / heads});
  }
  const auto d = c.desc(x4).dims;  // [B, S, H, D]
  const int64_t rd =
      attr_i(n, "rotary_embedding_dim", 0) > 0 ? attr_i(n, "rotary_embedding_dim", 0) : d[3];
  if (rd > d[3] || rd % 2 != 0)
    mismatch(n, "rotary_embedding_dim must be even and at most the head size");
  const int64_t half = rd / 2;
  const bool interleaved = attr_i(n, "interleaved", 0) != 0;
  const int rot = rd < d[3] ? slice_of(c, x4, {0, 0, 0, 0}, {d[0], d[1], d[2], rd}) : x4;
  auto table = [&](size_t k) {
    int t = in(n, k);
    if (const int pos = in(n, 3); pos >= 0 && !is_empty_tensor(c, pos))
      t = emit(c, "GatherV2D", {t, pos}, {{"axis", int64_t{0}}});
    if (c.desc(t).dims != std::vector<int64_t>{d[0], d[1], half})
      mismatch(n, "the cos / sin caches must give [B, S, rotary_dim / 2] values");
    return reshape(c, t, {d[0], d[1], 1, half});
  };
  const int cos = table(1), sin = table(2);
  int x1, x2;
  const std::vector<int64_t> pairs{d[0], d[1], d[2], half, 2}, halves{d[0], d[1], d[2], half};
  if (interleaved) {
    std::vector<int> parts{c.temporary(), c.temporary()};
    c.op("SplitVD", {reshape(c, rot, pairs)}, parts,
         {{"size_splits", std::vector<int64_t>{1, 1}},
          {"split_dim", int64_t{4}},
          {"num_split", int64_t{2}}});
    x1 = reshape(c, parts[0], halves);
    x2 = reshape(c, parts[1], halves);
  } else {
    std::vector<int> parts{c.temporary(), c.temporary()};
    c.op("SplitVD", {rot}, parts,
         {{"size_splits", std::vector<int64_t>{half, half}},
          {"split_dim", int64_t{3}},
          {"num_split", int64_t{2}}});
    x1 = parts[0];
    x2 = parts[1];
  }
  const int real = emit(c, "Sub", {emit(c, "Mul", {cos, x1}), emit(c, "Mul", {sin, x2})});
  const int imag = emit(c, "Add", {emit(c, "Mul", {sin, x1}), emit(c, "Mul", {cos, x2})});
  int rotated;
  if (interleaved) {
    const std::vector<int64_t> one{d[0], d[1], d[2], half, 1};
    rotated = reshape(c,
                      emit(c, "ConcatD", {reshape(c, real, one), reshape(c, imag, one)},
                           {{"concat_dim", int64_t{4}}, {"N", int64_t{2}}}),
                      {d[0], d[1], d[2], rd});
  } else {
    rotated = emit(c, "ConcatD", {real, imag}, {{"concat_dim", int64_t{3}}, {"N", int64_t{2}}});
  }
  if (rd < d[3]) {
    const int pass = slice_of(c, x4, {0, 0, 0, rd}, {d[0], d[1], d[2], d[3] - rd});
    rotated = emit(c, "ConcatD", {rotated, pass}, {{"concat_dim", int64_t{3}}, {"N", int64_t{2}}});
  }
  if (xd.size() == 4)
    return c.op("TransposeD", {rotated}, {out(n, 0)}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  c.view(rotated, out(n, 0), xd);
}

}  // namespace

void add_attention_lowering(std::unordered_map<std::string, Lower> &m) {
  m["Attention"] = lower_attention;
  m["RotaryEmbedding"] = lower_rotary;
}

}  // namespace openacl::model::lowering_util
