// Normalizations: LayerNorm on the op library's LayerNorm kernel (its variance turned into
// CANN's rstd); RmsNorm on its own kernel (nn/rms_norm_kernel.h) when each row of x and yOut is
// contiguous; AddRmsNorm, GroupNorm and other RmsNorm views composed of the library's Square,
// ReduceMeanD, Rsqrt, Sub and Mul, computed in f32.
#include <cstring>

#include "nn/planner.h"
#include "nn/rms_norm_kernel.h"
#include "nn/rows.h"

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
    p.invalid("normalizedShape " + ops::dims_str(n) + " is not a non-empty tail of input's shape " +
              ops::dims_str(dims));
  if (weight) p.same_shape(*weight, "weightOptional", n, "normalizedShape");
  if (bias) p.same_shape(*bias, "biasOptional", n, "normalizedShape");
  p.same_shape(out, "out", dims, "input's shape");
  const auto begin = static_cast<int64_t>(dims.size() - n.size());
  std::vector<int64_t> stat(dims.begin(), dims.begin() + begin);
  stat.resize(dims.size(), 1);
  if (mean_out)
    p.same_shape(*mean_out, "meanOutOptional", stat,
                 "input's shape with normalizedShape's dims as 1");
  if (rstd_out)
    p.same_shape(*rstd_out, "rstdOutOptional", stat,
                 "input's shape with normalizedShape's dims as 1");
  const size_t x = p.input(input, "input");
  const D t = input.dtype;
  const size_t g = weight ? p.cast(p.input(*weight, "weightOptional"), t) : filled(p, t, n, 1.0f);
  const size_t b = bias ? p.cast(p.input(*bias, "biasOptional"), t) : filled(p, t, n, 0.0f);
  const size_t o = p.output(out, "out");
  const size_t mo = mean_out ? p.output(*mean_out, "meanOutOptional") : 0;
  const size_t ro = rstd_out ? p.output(*rstd_out, "rstdOutOptional") : 0;
  const auto r = p.op("LayerNorm", {x, g, b},
                      {{"begin_norm_axis", begin},
                       {"begin_params_axis", begin},
                       {"epsilon", static_cast<float>(eps)}});
  p.store(r[0], o);
  if (mean_out) p.store(r[1], mo);
  if (rstd_out) {
    const size_t var = p.cast(r[2], D::f32);
    p.store(p.op1("Rsqrt", {p.op1("Add", {var, f32_constant(p, static_cast<float>(eps))})}), ro);
  }
}

// yOut = x * rsqrt(mean(x^2) + epsilon) * gamma over gamma's (trailing) dims; rstdOut gets
// the rsqrt, with those dims kept as 1. x is the tensor named x_name (at position 0), or, for
// AddRmsNorm, x1 + x2 (positions 0 and 1), which also goes to xOut. Later positions: gamma,
// epsilon, yOut, rstdOut (optional for RmsNorm), [xOut].
void rms_norm(Planner &p, bool add) {
  const size_t at = add ? 1 : 0;
  const aclTensor &x = p.tensor(0, add ? "x1" : "x");
  const aclTensor *x2 = add ? &p.tensor(1, "x2") : nullptr;
  const aclTensor &gamma = p.tensor(at + 1, "gamma");
  const double eps = p.f64(at + 2);
  const aclTensor &y = p.tensor(at + 3, "yOut");
  const aclTensor *rstd = add ? &p.tensor(at + 4, "rstdOut") : p.tensor_opt(at + 4, "rstdOut");
  const aclTensor *x_out = add ? &p.tensor(at + 5, "xOut") : nullptr;
  p.dtype_in(x, add ? "x1" : "x", kFloat);
  if (x2) p.dtype_in(*x2, "x2", kFloat);
  p.dtype_in(gamma, "gamma", kFloat);
  p.dtype_in(y, "yOut", kFloat);
  const auto &dims = x.view.dims;
  if (x2 && broadcast_shapes(p, dims, x2->view.dims) != dims)
    p.invalid("x2's shape " + ops::dims_str(x2->view.dims) + " does not broadcast to x1's " +
              ops::dims_str(dims));
  const auto &g = gamma.view.dims;
  if (g.empty() || g.size() > dims.size() || !std::equal(g.begin(), g.end(), dims.end() - g.size()))
    p.invalid("gamma's shape " + ops::dims_str(g) + " is not a non-empty tail of x's shape " +
              ops::dims_str(dims));
  p.same_shape(y, "yOut", dims, "x's shape");
  if (x_out) p.same_shape(*x_out, "xOut", dims, "x1's shape");
  std::vector<int64_t> stat(dims.begin(), dims.end() - g.size()), axes;
  stat.resize(dims.size(), 1);
  for (size_t i = dims.size() - g.size(); i < dims.size(); ++i)
    axes.push_back(static_cast<int64_t>(i));
  // rstdOut keeps gamma's dims as 1, or (as ggml passes it) drops them.
  const std::vector<int64_t> dropped(dims.begin(), dims.end() - g.size());
  if (rstd && rstd->view.dims != dropped)
    p.same_shape(*rstd, "rstdOut", stat, "x's shape with gamma's dims as 1");
  const size_t xin = p.input(x, add ? "x1" : "x");
  const size_t x2v = x2 ? p.cast(p.input(*x2, "x2"), D::f32) : 0;
  const size_t gin = p.input(gamma, "gamma");
  const size_t yo = p.output(y, "yOut");
  const size_t ro = rstd ? p.output(*rstd, "rstdOut") : 0;
  const size_t xo = x_out ? p.output(*x_out, "xOut") : 0;
  const size_t lead = dims.size() - g.size();
  const auto rows = [&](size_t v, size_t n) {
    return rows_contiguous(p.dims(v), p.value(v).strides, n);
  };
  if (!add && rows(xin, lead) && rows(yo, lead) && rows(gin, 0)) {
    int64_t cols = 1;
    for (int64_t d : g) cols *= d;
    RmsNormShape shape{dropped, cols, static_cast<float>(eps), rstd != nullptr};
    std::vector<size_t> outs = {yo};
    if (rstd) outs.push_back(ro);
    p.kernel(rms_norm_kernel(std::move(shape)), {xin, gin}, std::move(outs));
    return;
  }
  size_t xv = p.cast(xin, D::f32);
  const size_t gv = p.cast(gin, D::f32);
  if (x2) xv = p.op1("Add", {xv, x2v});
  const size_t ms =
      p.op1("ReduceMeanD", {p.op1("Square", {xv})}, {{"axes", axes}, {"keep_dims", true}});
  const size_t rs = p.op1("Rsqrt", {p.op1("Add", {ms, f32_constant(p, static_cast<float>(eps))})});
  p.store(p.op1("Mul", {p.op1("Mul", {xv, rs}), gv}), yo);
  if (rstd) p.store(p.reshape(rs, p.dims(ro)), ro);
  // Last: a store may hand its value's workspace on, and the sum is read above.
  if (x2) p.store(xv, xo);
}

void plan_rms_norm(Planner &p) { rms_norm(p, false); }
void plan_add_rms_norm(Planner &p) { rms_norm(p, true); }

// GroupNorm(self [N, C, ...], gammaOptional [C], betaOptional [C], N, C, HxW, group, eps, out,
// meanOut [N, group], rstdOut [N, group]): each group of C / group channels normalized over its
// channels and positions, then scaled and shifted per channel.
void plan_group_norm(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor *gamma = p.tensor_opt(1, "gammaOptional");
  const aclTensor *beta = p.tensor_opt(2, "betaOptional");
  const int64_t n = p.i64(3), c = p.i64(4), hw = p.i64(5), groups = p.i64(6);
  const double eps = p.f64(7);
  const aclTensor &out = p.tensor(8, "out");
  const aclTensor &mean_out = p.tensor(9, "meanOut");
  const aclTensor &rstd_out = p.tensor(10, "rstdOut");
  p.dtype_in(self, "self", kFloat);
  p.dtype_in(out, "out", kFloat);
  const auto &dims = self.view.dims;
  if (dims.size() < 2 || dims[0] != n || dims[1] != c || self.view.numel() != n * c * hw)
    p.invalid("self's shape " + ops::dims_str(dims) + " is not [N, C, ...] with N " +
              std::to_string(n) + ", C " + std::to_string(c) + ", HxW " + std::to_string(hw));
  if (groups <= 0 || c % groups != 0)
    p.invalid("group " + std::to_string(groups) + " does not divide C " + std::to_string(c));
  if (gamma) p.same_shape(*gamma, "gammaOptional", {c}, "[C]");
  if (beta) p.same_shape(*beta, "betaOptional", {c}, "[C]");
  p.same_shape(out, "out", dims, "self's shape");
  p.same_shape(mean_out, "meanOut", {n, groups}, "[N, group]");
  p.same_shape(rstd_out, "rstdOut", {n, groups}, "[N, group]");
  const size_t x = p.cast(p.dense(p.input(self, "self")), D::f32);
  const size_t gv = gamma ? p.cast(p.dense(p.input(*gamma, "gammaOptional")), D::f32) : 0;
  const size_t bv = beta ? p.cast(p.dense(p.input(*beta, "betaOptional")), D::f32) : 0;
  const size_t o = p.output(out, "out");
  const size_t mo = p.output(mean_out, "meanOut"), ro = p.output(rstd_out, "rstdOut");
  const ops::Attrs last = {{"axes", std::vector<int64_t>{2}}, {"keep_dims", true}};
  const size_t xg = p.reshape(x, {n, groups, c / groups * hw});
  const size_t mean = p.op1("ReduceMeanD", {xg}, last);
  const size_t d = p.op1("Sub", {xg, mean});
  const size_t var = p.op1("ReduceMeanD", {p.op1("Square", {d})}, last);
  const size_t rstd =
      p.op1("Rsqrt", {p.op1("Add", {var, f32_constant(p, static_cast<float>(eps))})});
  size_t y = p.reshape(p.op1("Mul", {d, rstd}), {n, c, hw});
  if (gamma) y = p.op1("Mul", {y, p.reshape(gv, {c, 1})});
  if (beta) y = p.op1("Add", {y, p.reshape(bv, {c, 1})});
  p.store(p.reshape(y, dims), o);
  p.store(p.reshape(mean, {n, groups}), mo);
  p.store(p.reshape(rstd, {n, groups}), ro);
}

const Registrar reg({{"LayerNorm", plan_layer_norm},
                     {"RmsNorm", plan_rms_norm},
                     {"AddRmsNorm", plan_add_rms_norm},
                     {"GroupNorm", plan_group_norm}});

}  // namespace

}  // namespace openacl::nn
