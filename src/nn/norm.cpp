// Normalizations: LayerNorm on the op library's LayerNorm kernel (its variance turned into
// CANN's rstd), and RmsNorm composed of the library's Square, ReduceMeanD, Rsqrt and Mul,
// computed in f32.
#include <cstring>

#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};

size_t f32_constant(Planner &p, float v) {
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return p.constant(D::f32, {}, std::move(b));
}

// A constant of `dims` filled with v, as `dtype`.
size_t filled(Planner &p, D dtype, const std::vector<int64_t> &dims, float v) {
  const size_t t = p.temp(D::f32, dims);
  p.copy(p.view(f32_constant(p, v), dims, std::vector<int64_t>(dims.size(), 0), 0), t);
  return p.cast(t, dtype);
}

// out = (input - mean) * rstd * weight + bias over the trailing normalizedShape dims; meanOut
// and rstdOut (optional) get the statistics, with those dims kept as 1.
void plan_layer_norm(Planner &p) {
  const aclTensor &input = p.tensor(0, "input");
  const aclIntArray &ns = p.int_array(1, "normalizedShape");
  const aclTensor *weight = p.tensor_opt(2, "weightOptional");
  const aclTensor *bias = p.tensor_opt(3, "biasOptional");
  const double eps = p.f64(4);
  const aclTensor &out = p.tensor(5, "out");
  const aclTensor *mean_out = p.tensor_opt(6, "meanOutOptional");
  const aclTensor *rstd_out = p.tensor_opt(7, "rstdOutOptional");
  p.dtype_in(input, "input", kFloat);
  p.dtype_in(out, "out", kFloat);
  const auto &dims = input.view.dims;
  const auto &n = ns.values;
  if (n.empty() || n.size() > dims.size() || !std::equal(n.begin(), n.end(), dims.end() - n.size()))
    p.invalid("normalizedShape " + ops::dims_str(n) + " is not a non-empty tail of input's shape " + ops::dims_str(dims));
  if (weight) p.same_shape(*weight, "weightOptional", n, "normalizedShape");
  if (bias) p.same_shape(*bias, "biasOptional", n, "normalizedShape");
  p.same_shape(out, "out", dims, "input's shape");
  const auto begin = static_cast<int64_t>(dims.size() - n.size());
  std::vector<int64_t> stat(dims.begin(), dims.begin() + begin);
  stat.resize(dims.size(), 1);
  if (mean_out) p.same_shape(*mean_out, "meanOutOptional", stat, "input's shape with normalizedShape's dims as 1");
  if (rstd_out) p.same_shape(*rstd_out, "rstdOutOptional", stat, "input's shape with normalizedShape's dims as 1");
  const size_t x = p.input(input, "input");
  const D t = input.dtype;
  const size_t g = weight ? p.cast(p.input(*weight, "weightOptional"), t) : filled(p, t, n, 1.0f);
  const size_t b = bias ? p.cast(p.input(*bias, "biasOptional"), t) : filled(p, t, n, 0.0f);
  const size_t o = p.output(out, "out");
  const size_t mo = mean_out ? p.output(*mean_out, "meanOutOptional") : 0;
  const size_t ro = rstd_out ? p.output(*rstd_out, "rstdOutOptional") : 0;
  const auto r = p.op("LayerNorm", {x, g, b},
                      {{"begin_norm_axis", begin}, {"begin_params_axis", begin}, {"epsilon", static_cast<float>(eps)}});
  p.store(r[0], o);
  if (mean_out) p.store(r[1], mo);
  if (rstd_out) {
    const size_t var = p.cast(r[2], D::f32);
    p.store(p.op1("Rsqrt", {p.op1("Add", {var, f32_constant(p, static_cast<float>(eps))})}), ro);
  }
}

// yOut = x * rsqrt(mean(x^2) + epsilon) * gamma over gamma's (trailing) dims; rstdOut gets
// the rsqrt, with those dims kept as 1.
void plan_rms_norm(Planner &p) {
  const aclTensor &x = p.tensor(0, "x");
  const aclTensor &gamma = p.tensor(1, "gamma");
  const double eps = p.f64(2);
  const aclTensor &y = p.tensor(3, "yOut");
  const aclTensor *rstd = p.tensor_opt(4, "rstdOut");
  p.dtype_in(x, "x", kFloat);
  p.dtype_in(gamma, "gamma", kFloat);
  p.dtype_in(y, "yOut", kFloat);
  const auto &dims = x.view.dims;
  const auto &g = gamma.view.dims;
  if (g.empty() || g.size() > dims.size() || !std::equal(g.begin(), g.end(), dims.end() - g.size()))
    p.invalid("gamma's shape " + ops::dims_str(g) + " is not a non-empty tail of x's shape " + ops::dims_str(dims));
  p.same_shape(y, "yOut", dims, "x's shape");
  std::vector<int64_t> stat(dims.begin(), dims.end() - g.size()), axes;
  stat.resize(dims.size(), 1);
  for (size_t i = dims.size() - g.size(); i < dims.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (rstd) p.same_shape(*rstd, "rstdOut", stat, "x's shape with gamma's dims as 1");
  const size_t xv = p.cast(p.input(x, "x"), D::f32);
  const size_t gv = p.cast(p.input(gamma, "gamma"), D::f32);
  const size_t yo = p.output(y, "yOut");
  const size_t ro = rstd ? p.output(*rstd, "rstdOut") : 0;
  const size_t ms = p.op1("ReduceMeanD", {p.op1("Square", {xv})}, {{"axes", axes}, {"keep_dims", true}});
  const size_t rs = p.op1("Rsqrt", {p.op1("Add", {ms, f32_constant(p, static_cast<float>(eps))})});
  p.store(p.op1("Mul", {p.op1("Mul", {xv, rs}), gv}), yo);
  if (rstd) p.store(rs, ro);
}

const Registrar reg({{"LayerNorm", plan_layer_norm}, {"RmsNorm", plan_rms_norm}});

}  // namespace

}  // namespace openacl::nn
