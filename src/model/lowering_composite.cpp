// ONNX ops that the op library has no single op for, built from several: PRelu, Softsign,
// Mean, InstanceNormalization, the composite reductions (ReduceL1, ReduceL2, ReduceSumSquare,
// ReduceLogSum, ReduceLogSumExp), DepthToSpace / SpaceToDepth, Selu, Celu, ThresholdedRelu,
// LpNormalization, IsNaN, IsInf;
// and the one-op mappings that need a word of checking (Mod, Xor, Mish, Gelu). Float ops are
// float32 only.
#include <limits>
#include <numeric>

#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

void lower_prelu(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const int pos = emit(c, "Relu", {in(n, 0)});
  const int neg = emit(c, "Minimum", {in(n, 0), scalar(c, 0.0f)});
  const int scaled = emit(c, "Mul", {neg, in(n, 1)});
  c.op("Add", {pos, scaled}, {out(n, 0)}, {});
}

void lower_softsign(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const int denom = emit(c, "Add", {emit(c, "Abs", {in(n, 0)}), scalar(c, 1.0f)});
  c.op("RealDiv", {in(n, 0), denom}, {out(n, 0)}, {});
}

void lower_mean(const Node &n, LoweringContext &c) {
  for (int v : n.inputs) require_f32(n, c, v);
  int acc = in(n, 0);
  for (size_t k = 1; k < n.inputs.size(); ++k) acc = emit(c, "Add", {acc, in(n, k)});
  c.op("Mul", {acc, scalar(c, 1.0f / static_cast<float>(n.inputs.size()))}, {out(n, 0)}, {});
}

// y = (x - mean) / sqrt(var + eps) * scale + B, statistics over the spatial axes of each
// image and channel.
void lower_instance_norm(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const auto dims = c.desc(x).dims;
  if (dims.size() < 3) mismatch(n, "the input must have at least 3 dims (N, C, spatial...)");
  std::vector<int64_t> axes(dims.size() - 2);
  std::iota(axes.begin(), axes.end(), 2);
  const ops::Attrs reduce{{"axes", axes}, {"keep_dims", true}};
  const int centered = emit(c, "Sub", {x, emit(c, "ReduceMeanD", {x}, reduce)});
  const int var = emit(c, "ReduceMeanD", {emit(c, "Mul", {centered, centered})}, reduce);
  const int inv = emit(c, "Rsqrt", {emit(c, "Add", {var, scalar(c, attr_f(n, "epsilon", 1e-5f))})});
  std::vector<int64_t> per_channel(dims.size() - 1, 1);  // [C, 1, ...]: broadcasts over N and space
  per_channel[0] = dims[1];
  const int scale = c.temporary(), bias = c.temporary();
  c.view(in(n, 1), scale, per_channel);
  c.view(in(n, 2), bias, per_channel);
  const int scaled = emit(c, "Mul", {emit(c, "Mul", {centered, inv}), scale});
  c.op("Add", {scaled, bias}, {out(n, 0)}, {});
}

// The reductions ONNX defines on top of ReduceSum: axes from the input since opset 18.
Lower composite_reduce(const std::string &kind) {
  return [kind](const Node &n, LoweringContext &c) {
    const int x = in(n, 0);
    require_f32(n, c, x);
    std::vector<int64_t> axes;
    if (c.opset() >= 18) {
      if (in(n, 1) >= 0) axes = const_ints(n, c, in(n, 1), "axes");
      if (axes.empty() && attr_i(n, "noop_with_empty_axes", 0) != 0)
        unsupported(n, "noop_with_empty_axes");
    } else {
      axes = attr_ints(n, "axes", {});
    }
    const bool keep = attr_i(n, "keepdims", 1) != 0;
    const ops::Attrs sum{{"axes", axes}, {"keep_dims", keep}};
    if (kind == "ReduceSumSquare")
      return c.op("ReduceSumD", {emit(c, "Mul", {x, x})}, {out(n, 0)}, sum);
    if (kind == "ReduceL1") return c.op("ReduceSumD", {emit(c, "Abs", {x})}, {out(n, 0)}, sum);
    if (kind == "ReduceL2")
      return c.op("Sqrt", {emit(c, "ReduceSumD", {emit(c, "Mul", {x, x})}, sum)}, {out(n, 0)}, {});
    if (kind == "ReduceLogSum")
      return c.op("Log", {emit(c, "ReduceSumD", {x}, sum)}, {out(n, 0)}, {});
    // ReduceLogSumExp, shifted by the maximum so that exp cannot overflow.
    const int peak = emit(c, "ReduceMaxD", {x}, {{"axes", axes}, {"keep_dims", true}});
    const int sums = emit(c, "ReduceSumD", {emit(c, "Exp", {emit(c, "Sub", {x, peak})})}, sum);
    const int shift = keep ? peak : emit(c, "ReduceMaxD", {x}, sum);
    c.op("Add", {emit(c, "Log", {sums}), shift}, {out(n, 0)}, {});
  };
}

// Both are a reshape to 6-D, a transpose and a reshape back.
void lower_depth_to_space(const Node &n, LoweringContext &c) {
  const auto d = c.desc(in(n, 0)).dims;
  if (d.size() != 4) mismatch(n, "the input must be 4-D");
  const int64_t b = attr_i(n, "blocksize", 0);
  if (b <= 0 || d[1] % (b * b) != 0)
    mismatch(n, "blocksize must divide the channels into blocksize^2 parts");
  const bool crd = attr_s(n, "mode", "DCR") == "CRD";
  const int64_t c2 = d[1] / (b * b);
  const int split = c.temporary(), moved = c.temporary();
  c.view(in(n, 0), split,
         crd ? std::vector<int64_t>{d[0], c2, b, b, d[2], d[3]}
             : std::vector<int64_t>{d[0], b, b, c2, d[2], d[3]});
  c.op("TransposeD", {split}, {moved},
       {{"perm",
         crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2}}});
  c.view(moved, out(n, 0), {d[0], c2, d[2] * b, d[3] * b});
}

void lower_space_to_depth(const Node &n, LoweringContext &c) {
  const auto d = c.desc(in(n, 0)).dims;
  if (d.size() != 4) mismatch(n, "the input must be 4-D");
  const int64_t b = attr_i(n, "blocksize", 0);
  if (b <= 0 || d[2] % b != 0 || d[3] % b != 0)
    mismatch(n, "blocksize must divide the height and width");
  const int split = c.temporary(), moved = c.temporary();
  c.view(in(n, 0), split, {d[0], d[1], d[2] / b, b, d[3] / b, b});
  c.op("TransposeD", {split}, {moved}, {{"perm", std::vector<int64_t>{0, 3, 5, 1, 2, 4}}});
  c.view(moved, out(n, 0), {d[0], d[1] * b * b, d[2] / b, d[3] / b});
}

void lower_mod(const Node &n, LoweringContext &c) {
  if (attr_i(n, "fmod", 0) != 0) return binary("Mod")(n, c);  // truncated, the dividend's sign
  const DType t = c.desc(in(n, 0)).dtype;
  if (t == DType::f32 || t == DType::f16 || t == DType::bf16 || t == DType::f64)
    mismatch(n, "floating-point Mod needs fmod=1");
  binary("FloorMod")(n, c);  // ONNX's integer Mod takes the divisor's sign, as floor mod does
}

// Selu: gamma * elu(x, alpha).
void lower_selu(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const int e =
      emit(c, "Elu", {in(n, 0)}, {{"alpha", attr_f(n, "alpha", 1.67326319217681884765625f)}});
  c.op("Mul", {e, scalar(c, attr_f(n, "gamma", 1.05070102214813232421875f))}, {out(n, 0)}, {});
}

// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) = alpha * elu(x / alpha, 1).
void lower_celu(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const float alpha = attr_f(n, "alpha", 1.0f);
  if (alpha == 0.0f) mismatch(n, "alpha must not be 0");
  const int e =
      emit(c, "Elu", {emit(c, "Mul", {in(n, 0), scalar(c, 1.0f / alpha)})}, {{"alpha", 1.0f}});
  c.op("Mul", {e, scalar(c, alpha)}, {out(n, 0)}, {});
}

// ThresholdedRelu: x where x > alpha, else 0.
void lower_thresholded_relu(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const int keep = emit(c, "Greater", {in(n, 0), scalar(c, attr_f(n, "alpha", 1.0f))});
  c.op("Mul", {in(n, 0), emit(c, "Cast", {keep}, {{"dst_type", DType::f32}})}, {out(n, 0)}, {});
}

// Gelu (opset 20): approximate "none" (erf) or "tanh".
void lower_gelu(const Node &n, LoweringContext &c) {
  const std::string approximate = attr_s(n, "approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    mismatch(n, "approximate must be 'none' or 'tanh'");
  c.op("GeluV2", {in(n, 0)}, {out(n, 0)}, {{"approximate", approximate}});
}

// LpNormalization: x / ||x||_p along one axis (p = 1 or 2).
void lower_lp_normalization(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const int64_t p = attr_i(n, "p", 2);
  if (p != 1 && p != 2) mismatch(n, "p must be 1 or 2");
  const int64_t axis = norm_axis(n, attr_i(n, "axis", -1), c.desc(x).dims.size());
  const ops::Attrs sum{{"axes", std::vector<int64_t>{axis}}, {"keep_dims", true}};
  const int norm = p == 1 ? emit(c, "ReduceSumD", {emit(c, "Abs", {x})}, sum)
                          : emit(c, "Sqrt", {emit(c, "ReduceSumD", {emit(c, "Mul", {x, x})}, sum)});
  c.op("RealDiv", {x, norm}, {out(n, 0)}, {});
}

// IsNaN: x != x. IsInf: x == +inf (detect_positive) or x == -inf (detect_negative).
void lower_is_nan(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  c.op("NotEqual", {in(n, 0), in(n, 0)}, {out(n, 0)}, {});
}

void lower_is_inf(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const bool pos = attr_i(n, "detect_positive", 1) != 0, neg = attr_i(n, "detect_negative", 1) != 0;
  const float inf = std::numeric_limits<float>::infinity();
  if (pos && neg) return c.op("Equal", {emit(c, "Abs", {x}), scalar(c, inf)}, {out(n, 0)}, {});
  if (!pos && !neg)
    unsupported(n, "detect_positive and detect_negative both 0 (an all-false output)");
  c.op("Equal", {x, scalar(c, pos ? inf : -inf)}, {out(n, 0)}, {});
}

}  // namespace

void add_composite_lowerings(std::unordered_map<std::string, Lower> &m) {
  m["PRelu"] = lower_prelu;
  m["Softsign"] = lower_softsign;
  m["Mean"] = lower_mean;
  m["InstanceNormalization"] = lower_instance_norm;
  for (const char *r :
       {"ReduceSumSquare", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp"})
    m[r] = composite_reduce(r);
  m["DepthToSpace"] = lower_depth_to_space;
  m["SpaceToDepth"] = lower_space_to_depth;
  m["Mod"] = lower_mod;
  m["Xor"] = binary("NotEqual");  // on booleans, exclusive or
  m["Mish"] = unary("Mish");
  m["Selu"] = lower_selu;
  m["Celu"] = lower_celu;
  m["ThresholdedRelu"] = lower_thresholded_relu;
  m["Gelu"] = lower_gelu;
  m["LpNormalization"] = lower_lp_normalization;
  m["IsNaN"] = lower_is_nan;
  m["IsInf"] = lower_is_inf;
}

}  // namespace openacl::model::lowering_util
