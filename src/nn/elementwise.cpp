// Elementwise aclnn operators on the op library's broadcasting kernels: Add, Sub (with alpha),
// Mul, Div and their in-place and scalar forms; the unary Sin, Cos, Gelu, Silu, Exp, Log, Sqrt,
// Rsqrt, Tanh, Sigmoid, Neg, Abs, Relu; Clamp; the Pow forms; SwiGlu; EqTensor, GtScalar.
// Operands are promoted as torch does (float over int, wider over narrower) and the result is
// cast to out's dtype.
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kNumeric = {D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8, D::u8, D::i16, D::f64};
const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};

// The shape check of an elementwise result: out (or selfRef) must have the broadcast shape.
void check_result_shape(Planner &p, const aclTensor &dst, const char *name, const std::vector<int64_t> &shape) {
  p.same_shape(dst, name, shape, "the broadcast shape of the operands");
}

enum class Form { out, inplace };

// self <type> (alpha * other): tensor other at position 1, alpha (when used) at 2, out last.
void binary(Planner &p, const char *type, Form form, bool with_alpha, bool true_division = false) {
  const char *self_name = form == Form::inplace ? "selfRef" : "self";
  const aclTensor &self = p.tensor(0, self_name);
  const aclTensor &other = p.tensor(1, "other");
  const aclScalar *alpha = with_alpha ? &p.scalar(2, "alpha") : nullptr;
  const aclTensor *out = form == Form::out ? &p.tensor(with_alpha ? 3 : 2, "out") : nullptr;
  p.dtype_in(self, self_name, kNumeric);
  p.dtype_in(other, "other", kNumeric);
  const auto shape = broadcast_shapes(p, self.view.dims, other.view.dims);
  const aclTensor &dst = out ? *out : self;
  check_result_shape(p, dst, out ? "out" : self_name, shape);
  if (out) p.dtype_in(*out, "out", kNumeric);
  D compute = promote(self.dtype, other.dtype);
  if (true_division && !is_float(compute)) compute = is_float(dst.dtype) ? dst.dtype : D::f32;
  const size_t a = form == Form::inplace ? p.ref(self, self_name) : p.input(self, self_name);
  const size_t b = p.input(other, "other");
  const size_t o = out ? p.output(*out, "out") : a;
  size_t rhs = p.cast(b, compute);
  if (alpha && alpha->value != 1.0) rhs = p.op1("Mul", {rhs, p.scalar_value(*alpha, compute)});
  p.store(p.op1(type, {p.cast(a, compute), rhs}), o);
}

// self <type> scalar: other (an aclScalar) at position 1, alpha (when used) at 2, out last.
void binary_scalar(Planner &p, const char *type, Form form, bool with_alpha) {
  const char *self_name = form == Form::inplace ? "selfRef" : "self";
  const aclTensor &self = p.tensor(0, self_name);
  const aclScalar &other = p.scalar(1, "other");
  const aclScalar *alpha = with_alpha ? &p.scalar(2, "alpha") : nullptr;
  const aclTensor *out = form == Form::out ? &p.tensor(with_alpha ? 3 : 2, "out") : nullptr;
  p.dtype_in(self, self_name, kNumeric);
  if (out) {
    p.dtype_in(*out, "out", kNumeric);
    check_result_shape(p, *out, "out", self.view.dims);
  }
  // A float scalar on an integer tensor computes in float, as torch does.
  const D compute = !is_float(self.dtype) && !other.is_int() ? (out && is_float(out->dtype) ? out->dtype : D::f32) : self.dtype;
  const size_t a = form == Form::inplace ? p.ref(self, self_name) : p.input(self, self_name);
  const size_t o = out ? p.output(*out, "out") : a;
  double v = other.value;
  if (alpha) v *= alpha->value;
  aclScalar scaled = other;
  scaled.value = v;
  scaled.int_value = alpha ? other.int_value * alpha->int_value : other.int_value;
  p.store(p.op1(type, {p.cast(a, compute), p.scalar_value(scaled, compute)}), o);
}

// out = types applied in turn to self (times self when times_input), computed in out's dtype:
// a float one, or any numeric one for the ops the library also has for integers.
void unary_chain(Planner &p, std::initializer_list<const char *> types, bool times_input, bool ints = false) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &out = p.tensor(1, "out");
  p.dtype_in(self, "self", kNumeric);
  if (ints) p.dtype_in(out, "out", {D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8});
  else p.dtype_in(out, "out", kFloat);
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const size_t x = p.cast(p.input(self, "self"), out.dtype);
  const size_t o = p.output(out, "out");
  size_t r = x;
  for (const char *t : types) r = p.op1(t, {r});
  if (times_input) r = p.op1("Mul", {x, r});
  p.store(r, o);
}

void plan_add(Planner &p) { binary(p, "Add", Form::out, true); }
void plan_inplace_add(Planner &p) { binary(p, "Add", Form::inplace, true); }
void plan_adds(Planner &p) { binary_scalar(p, "Add", Form::out, true); }
void plan_sub(Planner &p) { binary(p, "Sub", Form::out, true); }
void plan_inplace_sub(Planner &p) { binary(p, "Sub", Form::inplace, true); }
void plan_mul(Planner &p) { binary(p, "Mul", Form::out, false); }
void plan_inplace_mul(Planner &p) { binary(p, "Mul", Form::inplace, false); }
void plan_muls(Planner &p) { binary_scalar(p, "Mul", Form::out, false); }
void plan_inplace_muls(Planner &p) { binary_scalar(p, "Mul", Form::inplace, false); }
void plan_div(Planner &p) { binary(p, "RealDiv", Form::out, false, true); }
void plan_inplace_div(Planner &p) { binary(p, "RealDiv", Form::inplace, false, true); }
void plan_sin(Planner &p) { unary_chain(p, {"Sin"}, false); }
void plan_cos(Planner &p) { unary_chain(p, {"Cos"}, false); }
void plan_gelu(Planner &p) { unary_chain(p, {"Gelu"}, false); }
void plan_silu(Planner &p) { unary_chain(p, {"Sigmoid"}, true); }  // x * sigmoid(x)
void plan_exp(Planner &p) { unary_chain(p, {"Exp"}, false); }
void plan_log(Planner &p) { unary_chain(p, {"Log"}, false); }
void plan_sqrt(Planner &p) { unary_chain(p, {"Sqrt"}, false); }
void plan_rsqrt(Planner &p) { unary_chain(p, {"Rsqrt"}, false); }
void plan_tanh(Planner &p) { unary_chain(p, {"Tanh"}, false); }
void plan_sigmoid(Planner &p) { unary_chain(p, {"Sigmoid"}, false); }
void plan_neg(Planner &p) { unary_chain(p, {"Neg"}, false, true); }
void plan_abs(Planner &p) { unary_chain(p, {"Abs"}, false, true); }
void plan_relu(Planner &p) { unary_chain(p, {"Relu"}, false, true); }

// out = self ^ exponent with a scalar base.
void plan_pow_scalar_tensor(Planner &p) {
  const aclScalar &base = p.scalar(0, "self");
  const aclTensor &exponent = p.tensor(1, "exponent");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(exponent, "exponent", kNumeric);
  p.dtype_in(out, "out", kFloat);
  p.same_shape(out, "out", exponent.view.dims, "exponent's shape");
  const size_t e = p.cast(p.input(exponent, "exponent"), out.dtype);
  const size_t o = p.output(out, "out");
  p.store(p.op1("Pow", {p.scalar_value(base, out.dtype), e}), o);
}

// out = silu(a) * b, a and b the two halves of x along dim.
void plan_swi_glu(Planner &p) {
  const aclTensor &x = p.tensor(0, "x");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(x, "x", kFloat);
  p.dtype_in(out, "out", kFloat);
  const auto rank = static_cast<int64_t>(x.view.dims.size());
  int64_t dim = p.i64(1);
  if (rank == 0 || dim < -rank || dim >= rank) p.invalid("dim " + std::to_string(dim) + " is out of range for x of rank " + std::to_string(rank));
  if (dim < 0) dim += rank;
  if (x.view.dims[dim] % 2 != 0) p.invalid("x's dim " + std::to_string(dim) + " has odd size " + std::to_string(x.view.dims[dim]));
  auto half = x.view.dims;
  half[dim] /= 2;
  p.same_shape(out, "out", half, "x's shape with dim halved");
  const size_t xv = p.input(x, "x");
  const size_t o = p.output(out, "out");
  const auto strides = p.value(xv).strides;
  const size_t a = p.cast(p.view(xv, half, strides, 0), out.dtype);
  const size_t b = p.cast(p.view(xv, half, strides, half[dim] * strides[dim]), out.dtype);
  p.store(p.op1("Mul", {p.op1("Mul", {a, p.op1("Sigmoid", {a})}), b}), o);
}

// clamp(self, min, max): either bound may be NULL, not both.
void plan_clamp(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclScalar *lo = p.scalar_opt(1, "clipValueMin");
  const aclScalar *hi = p.scalar_opt(2, "clipValueMax");
  const aclTensor &out = p.tensor(3, "out");
  if (lo == nullptr && hi == nullptr) fail(Errc::null_pointer, "clipValueMin and clipValueMax are both NULL");
  p.dtype_in(self, "self", kNumeric);
  p.dtype_in(out, "out", kNumeric);
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const D compute = promote(self.dtype, out.dtype);
  size_t r = p.cast(p.input(self, "self"), compute);
  const size_t o = p.output(out, "out");
  if (lo) r = p.op1("Maximum", {r, p.scalar_value(*lo, compute)});
  if (hi) r = p.op1("Minimum", {r, p.scalar_value(*hi, compute)});
  p.store(r, o);
}

// out = self <cmp> other, a comparison in the operands' promoted dtype, cast to out's dtype
// (bool, or a number type: 1 and 0). other is a tensor or (scalar_other) an aclScalar.
void compare(Planner &p, const char *type, bool scalar_other) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor *other_t = scalar_other ? nullptr : &p.tensor(1, "other");
  const aclScalar *other_s = scalar_other ? &p.scalar(1, "other") : nullptr;
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kNumeric);
  if (other_t) p.dtype_in(*other_t, "other", kNumeric);
  p.dtype_in(out, "out", {D::boolean, D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8, D::u8});
  const auto shape = other_t ? broadcast_shapes(p, self.view.dims, other_t->view.dims) : self.view.dims;
  p.same_shape(out, "out", shape, "the broadcast shape of the operands");
  const D compute = other_t ? promote(self.dtype, other_t->dtype)
                            : (!is_float(self.dtype) && !other_s->is_int() ? D::f32 : self.dtype);
  const size_t a = p.input(self, "self");
  const size_t b = other_t ? p.input(*other_t, "other") : 0;
  const size_t o = p.output(out, "out");
  const size_t rhs = other_t ? p.cast(b, compute) : p.scalar_value(*other_s, compute);
  p.store(p.op1(type, {p.cast(a, compute), rhs}), o);
}

void plan_eq_tensor(Planner &p) { compare(p, "Equal", false); }
void plan_gt_scalar(Planner &p) { compare(p, "Greater", true); }

// out = self ^ exponent, exponent a tensor (broadcast) or a scalar; float results.
void power(Planner &p, bool scalar_exponent) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor *e_t = scalar_exponent ? nullptr : &p.tensor(1, "exponent");
  const aclScalar *e_s = scalar_exponent ? &p.scalar(1, "exponent") : nullptr;
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kNumeric);
  if (e_t) p.dtype_in(*e_t, "exponent", kNumeric);
  p.dtype_in(out, "out", kFloat);
  const auto shape = e_t ? broadcast_shapes(p, self.view.dims, e_t->view.dims) : self.view.dims;
  p.same_shape(out, "out", shape, "the broadcast shape of self and exponent");
  const size_t a = p.cast(p.input(self, "self"), out.dtype);
  const size_t e = e_t ? p.cast(p.input(*e_t, "exponent"), out.dtype) : 0;
  const size_t o = p.output(out, "out");
  p.store(p.op1("Pow", {a, e_t ? e : p.scalar_value(*e_s, out.dtype)}), o);
}

void plan_pow_tensor_scalar(Planner &p) { power(p, true); }
void plan_pow_tensor_tensor(Planner &p) { power(p, false); }

const Registrar reg({
    {"EqTensor", plan_eq_tensor}, {"GtScalar", plan_gt_scalar},
    {"PowTensorScalar", plan_pow_tensor_scalar}, {"PowTensorTensor", plan_pow_tensor_tensor},
    {"Add", plan_add}, {"InplaceAdd", plan_inplace_add}, {"Adds", plan_adds},
    {"Sub", plan_sub}, {"InplaceSub", plan_inplace_sub},
    {"Mul", plan_mul}, {"InplaceMul", plan_inplace_mul}, {"Muls", plan_muls}, {"InplaceMuls", plan_inplace_muls},
    {"Div", plan_div}, {"InplaceDiv", plan_inplace_div},
    {"Sin", plan_sin}, {"Cos", plan_cos}, {"Gelu", plan_gelu}, {"Silu", plan_silu},
    {"Clamp", plan_clamp}, {"Exp", plan_exp}, {"Log", plan_log}, {"Sqrt", plan_sqrt}, {"Rsqrt", plan_rsqrt},
    {"Tanh", plan_tanh}, {"Sigmoid", plan_sigmoid}, {"Neg", plan_neg}, {"Abs", plan_abs}, {"Relu", plan_relu},
    {"PowScalarTensor", plan_pow_scalar_tensor}, {"SwiGlu", plan_swi_glu},
});

}  // namespace

}  // namespace openacl::nn
