// ONNX normalizations beyond BatchNormalization / LayerNormalization / InstanceNormalization:
// LRN (onto the library's LRN), GroupNormalization, MeanVarianceNormalization and
// RMSNormalization (composites).
// Float32 only.
#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

int reshape(LoweringContext &c, int v, std::vector<int64_t> dims) {
  const int t = c.temporary();
  c.view(v, t, std::move(dims));
  return t;
}

// A float32 constant of `count` copies of value, shaped dims.
int filled(LoweringContext &c, std::vector<int64_t> dims, float value) {
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->desc.dims = std::move(dims);
  const auto n = static_cast<size_t>(t->desc.element_count());
  t->data.resize(n * sizeof(float));
  std::fill_n(reinterpret_cast<float *>(t->data.data()), n, value);
  return c.constant_value(t);
}

// ONNX sums over channels c - floor((size-1)/2) .. c + ceil((size-1)/2) and scales alpha by
// 1/size; the library's LRN takes a symmetric radius and an unscaled alpha.
void lower_lrn(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  if (c.desc(in(n, 0)).dims.size() != 4) unsupported(n, "an input of rank other than 4");
  const int64_t size = attr_i(n, "size", 0);
  if (size <= 0) mismatch(n, "size must be positive");
  if (size % 2 == 0) unsupported(n, "an even size (its window is not centred)");
  c.op("LRN", {in(n, 0)}, {out(n, 0)},
       {{"depth_radius", (size - 1) / 2},
        {"bias", attr_f(n, "bias", 1.0f)},
        {"alpha", attr_f(n, "alpha", 1e-4f) / static_cast<float>(size)},
        {"beta", attr_f(n, "beta", 0.75f)}});
}

// x [N, C, ...] seen as [N, G, C/G * rest], normalized over its last dim (LayerNorm without
// affine), then scaled and shifted per channel. Opset 18 gives scale and bias per group, 21 per
// channel.
void lower_group_norm(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const auto dims = c.desc(x).dims;
  const int64_t groups = attr_i(n, "num_groups", 0);
  if (dims.size() < 2 || groups <= 0 || dims[1] % groups != 0)
    mismatch(n, "num_groups must divide the channel count");
  const int64_t ch = dims[1], per_group = ch / groups,
                rest = product(dims, 1, dims.size()) / groups;
  const int grouped = reshape(c, x, {dims[0], groups, rest});
  const int normed =
      emit(c, "LayerNorm", {grouped, filled(c, {rest}, 1.0f), filled(c, {rest}, 0.0f)},
           {{"begin_norm_axis", int64_t{2}},
            {"begin_params_axis", int64_t{2}},
            {"epsilon", attr_f(n, "epsilon", 1e-5f)}});
  std::vector<int64_t> channel_shape(dims.size() - 1, 1);
  channel_shape[0] = ch;
  auto per_channel = [&](int v) {
    if (c.desc(v).element_count() == ch) return reshape(c, v, channel_shape);
    if (c.desc(v).element_count() != groups)
      mismatch(n, "scale and bias must have num_groups or C values");
    const int spread =
        emit(c, "BroadcastTo",
             {reshape(c, v, {groups, 1}), c.constant_value(int64_tensor({groups, per_group}))});
    return reshape(c, spread, channel_shape);
  };
  const int scaled = emit(c, "Mul", {reshape(c, normed, dims), per_channel(in(n, 1))});
  c.op("Add", {scaled, per_channel(in(n, 2))}, {out(n, 0)}, {});
}

void lower_mvn(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const ops::Attrs mean{{"axes", attr_ints(n, "axes", {0, 2, 3})}, {"keep_dims", true}};
  const int centred = emit(c, "Sub", {x, emit(c, "ReduceMeanD", {x}, mean)});
  const int var = emit(c, "ReduceMeanD", {emit(c, "Mul", {centred, centred})}, mean);
  c.op("RealDiv", {centred, emit(c, "Sqrt", {emit(c, "Add", {var, scalar(c, 1e-9f)})})},
       {out(n, 0)}, {});
}

// RMSNormalization (opset 23): x / sqrt(mean(x^2 over the dims from axis) + epsilon) * scale.
void lower_rms_norm(const Node &n, LoweringContext &c) {
  const int x = in(n, 0);
  require_f32(n, c, x);
  const size_t rank = c.desc(x).dims.size();
  const int64_t axis = norm_axis(n, attr_i(n, "axis", -1), rank);
  std::vector<int64_t> axes;
  for (auto a = axis; a < static_cast<int64_t>(rank); ++a) axes.push_back(a);
  const int ms =
      emit(c, "ReduceMeanD", {emit(c, "Mul", {x, x})}, {{"axes", axes}, {"keep_dims", true}});
  const int inv = emit(c, "Rsqrt", {emit(c, "Add", {ms, scalar(c, attr_f(n, "epsilon", 1e-5f))})});
  c.op("Mul", {emit(c, "Mul", {x, inv}), in(n, 1)}, {out(n, 0)}, {});
}

}  // namespace

void add_norm_lowerings(std::unordered_map<std::string, Lower> &m) {
  m["LRN"] = lower_lrn;
  m["GroupNormalization"] = lower_group_norm;
  m["MeanVarianceNormalization"] = lower_mvn;
  m["RMSNormalization"] = lower_rms_norm;
}

}  // namespace openacl::model::lowering_util
