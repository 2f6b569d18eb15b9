// Elementwise aclnn operators on the op library's broadcasting kernels: Add, Sub (with alpha),
// Mul, Div and their in-place and scalar forms; the unary Sin, Cos, Gelu, GeluV2, Silu, Exp, Log,
// Sqrt, Rsqrt, Tanh, Sigmoid, Neg, Abs, Relu, Sign, Hardsigmoid, Hardswish, LeakyRelu, Elu,
// Softplus (and the in-place Sin, Cos, Exp); Clamp, ClampMin, ClampMax, InplaceClampMax,
// Threshold; the Pow forms; SwiGlu, GeGluV3; EqTensor, GtScalar. Operands are promoted as torch
// does (float over int, wider over narrower) and the result is cast to out's dtype.
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kNumeric = {D::f32, D::f16, D::bf16, D::i32, D::i64,
                                           D::i8,  D::u8,  D::i16,  D::f64};
const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};

// The shape check of an elementwise result: out (or selfRef) must have the broadcast shape.
void check_result_shape(Planner &p, const aclTensor &dst, const char *name,
                        const std::vector<int64_t> &shape) {
  p.same_shape(dst, name, shape, "the broadcast shape of the operands");
}

enum class Form { out, inplace };

// f16 or bf16 with f32: CANN's Add and Mul kernels take the pair as it is (computing in f32),
// so aclnnAdd and aclnnMul need no Cast and no workspace for it.
bool mixed_float(const char *type, D a, D b) {
  const auto half = [](D t) { return t == D::f16 || t == D::bf16; };
  return (std::string_view(type) == "Add" || std::string_view(type) == "Mul") &&
         ((half(a) && b == D::f32) || (a == D::f32 && half(b)));
}

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
  const bool plain = !alpha || alpha->value == 1.0;
  if (plain && mixed_float(type, self.dtype, other.dtype)) {
    p.store(p.op1(type, {a, b}), o);
    return;
  }
  size_t rhs = p.cast(b, compute);
  if (!plain) rhs = p.op1("Mul", {rhs, p.scalar_value(*alpha, compute)});
  p.store(p.op1(type, {p.cast(a, compute), rhs}), o);
}

// self <type> scalar: other (an aclScalar) at position 1, alpha (when used) at 2, out last.
void binary_scalar(Planner &p, const char *type, Form form, bool with_alpha,
                   bool true_division = false) {
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
  const bool float_result = !is_float(self.dtype) && (!other.is_int() || true_division);
  const D compute = float_result ? (out && is_float(out->dtype) ? out->dtype : D::f32) : self.dtype;
  const size_t a = form == Form::inplace ? p.ref(self, self_name) : p.input(self, self_name);
  const size_t o = out ? p.output(*out, "out") : a;
  double v = other.value;
  if (alpha) v *= alpha->value;
  aclScalar scaled = other;
  scaled.value = v;
  scaled.int_value = alpha ? other.int_value * alpha->int_value : other.int_value;
  p.store(p.op1(type, {p.cast(a, compute), p.scalar_value(scaled, compute)}), o);
}

// The operand and destination of a unary operator: self (position 0) and out (at out_pos), or
// selfRef alone. x is self cast to the destination's dtype: a float one, or any numeric one for
// the ops the library also has for integers (`ints`).
struct UnaryArgs {
  size_t x, o;
  D dtype;
};
UnaryArgs unary_args(Planner &p, Form form, size_t out_pos, bool ints = false) {
  const char *name = form == Form::inplace ? "selfRef" : "self";
  const aclTensor &self = p.tensor(0, name);
  const aclTensor &dst = form == Form::inplace ? self : p.tensor(out_pos, "out");
  p.dtype_in(self, name, kNumeric);
  if (ints)
    p.dtype_in(dst, form == Form::inplace ? name : "out",
               {D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8});
  else p.dtype_in(dst, form == Form::inplace ? name : "out", kFloat);
  if (form == Form::out) p.same_shape(dst, "out", self.view.dims, "self's shape");
  const size_t s = form == Form::inplace ? p.ref(self, name) : p.input(self, name);
  const size_t o = form == Form::inplace ? s : p.output(dst, "out");
  return {p.cast(s, dst.dtype), o, dst.dtype};
}

// out = types applied in turn to self (times self when times_input).
void unary_chain(Planner &p, std::initializer_list<const char *> types, bool times_input,
                 bool ints = false, Form form = Form::out) {
  const UnaryArgs a = unary_args(p, form, 1, ints);
  size_t r = a.x;
  for (const char *t : types) r = p.op1(t, {r});
  if (times_input) r = p.op1("Mul", {a.x, r});
  p.store(r, a.o);
}

size_t zero(Planner &p, D dtype) {
  return p.constant(dtype, {}, std::vector<uint8_t>(element_size(dtype), 0));
}
float f32(const aclScalar &s) { return static_cast<float>(s.value); }

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
void plan_silu(Planner &p) { unary_chain(p, {"Silu"}, false); }  // x * sigmoid(x)
void plan_exp(Planner &p) { unary_chain(p, {"Exp"}, false); }
void plan_log(Planner &p) { unary_chain(p, {"Log"}, false); }
void plan_sqrt(Planner &p) { unary_chain(p, {"Sqrt"}, false); }
void plan_rsqrt(Planner &p) { unary_chain(p, {"Rsqrt"}, false); }
void plan_tanh(Planner &p) { unary_chain(p, {"Tanh"}, false); }
void plan_sigmoid(Planner &p) { unary_chain(p, {"Sigmoid"}, false); }
void plan_neg(Planner &p) { unary_chain(p, {"Neg"}, false, true); }
void plan_abs(Planner &p) { unary_chain(p, {"Abs"}, false, true); }
void plan_relu(Planner &p) { unary_chain(p, {"Relu"}, false, true); }
void plan_sign(Planner &p) { unary_chain(p, {"Sign"}, false, true); }
void plan_hardsigmoid(Planner &p) { unary_chain(p, {"HardSigmoid"}, false); }  // relu6(x + 3) / 6
void plan_hardswish(Planner &p) { unary_chain(p, {"HardSwish"}, false); }
void plan_inplace_sin(Planner &p) { unary_chain(p, {"Sin"}, false, false, Form::inplace); }
void plan_inplace_cos(Planner &p) { unary_chain(p, {"Cos"}, false, false, Form::inplace); }
void plan_inplace_exp(Planner &p) { unary_chain(p, {"Exp"}, false, false, Form::inplace); }
void plan_inplace_adds(Planner &p) { binary_scalar(p, "Add", Form::inplace, true); }
void plan_subs(Planner &p) { binary_scalar(p, "Sub", Form::out, true); }
void plan_inplace_subs(Planner &p) { binary_scalar(p, "Sub", Form::inplace, true); }
void plan_divs(Planner &p) { binary_scalar(p, "RealDiv", Form::out, false, true); }
void plan_inplace_divs(Planner &p) { binary_scalar(p, "RealDiv", Form::inplace, false, true); }

// GeluV2's approximate: 0 the erf form, 1 the tanh form.
std::string gelu_form(Planner &p, int64_t approximate) {
  if (approximate != 0 && approximate != 1)
    p.invalid("approximate " + std::to_string(approximate) + " is not 0 (none) or 1 (tanh)");
  return approximate == 0 ? "none" : "tanh";
}

void plan_gelu_v2(Planner &p) {
  const std::string form = gelu_form(p, p.i64(1));
  const UnaryArgs a = unary_args(p, Form::out, 2);
  p.store(p.op1("GeluV2", {a.x}, {{"approximate", form}}), a.o);
}

void plan_leaky_relu(Planner &p) {
  const aclScalar &slope = p.scalar(1, "negativeSlope");
  const UnaryArgs a = unary_args(p, Form::out, 2);
  p.store(p.op1("LeakyRelu", {a.x}, {{"negative_slope", f32(slope)}}), a.o);
}

// out = scale * (x > 0 ? x : alpha * (exp(inputScale * x) - 1)).
void plan_elu(Planner &p) {
  const aclScalar &alpha = p.scalar(1, "alpha"), &scale = p.scalar(2, "scale"),
                  &input_scale = p.scalar(3, "inputScale");
  const UnaryArgs a = unary_args(p, Form::out, 4);
  const bool scaled_input = input_scale.value != 1.0;
  const size_t xs = scaled_input ? p.op1("Mul", {a.x, p.scalar_value(input_scale, a.dtype)}) : a.x;
  size_t r = p.op1("Elu", {xs}, {{"alpha", f32(alpha)}});
  // The kernel's positive side is its own input, inputScale * x; Elu's is x.
  if (scaled_input) r = p.op1("Select", {p.op1("Greater", {a.x, zero(p, a.dtype)}), a.x, r});
  if (scale.value != 1.0) r = p.op1("Mul", {r, p.scalar_value(scale, a.dtype)});
  p.store(r, a.o);
}

// out = beta * x > threshold ? x : log(1 + exp(beta * x)) / beta. The kernel's own threshold
// is 20 (where the two sides agree to f32 precision), so another one needs a Select.
void plan_softplus(Planner &p) {
  const aclScalar &beta = p.scalar(1, "beta"), &threshold = p.scalar(2, "threshold");
  if (!(beta.value > 0)) p.invalid("beta " + std::to_string(beta.value) + " is not positive");
  const UnaryArgs a = unary_args(p, Form::out, 3);
  const bool scaled = beta.value != 1.0;
  const size_t bx = scaled ? p.op1("Mul", {a.x, p.scalar_value(beta, a.dtype)}) : a.x;
  size_t r = p.op1("Softplus", {bx});
  if (scaled) r = p.op1("RealDiv", {r, p.scalar_value(beta, a.dtype)});
  if (threshold.value != 20.0)
    r = p.op1("Select", {p.op1("Greater", {bx, p.scalar_value(threshold, a.dtype)}), a.x, r});
  p.store(r, a.o);
}

// x > threshold ? x : value, into out or selfRef.
void threshold(Planner &p, Form form) {
  const aclScalar &th = p.scalar(1, "threshold"), &value = p.scalar(2, "value");
  const UnaryArgs a = unary_args(p, form, 3, true);
  const size_t keep = p.op1("Greater", {a.x, p.scalar_value(th, a.dtype)});
  p.store(p.op1("Select", {keep, a.x, p.scalar_value(value, a.dtype)}), a.o);
}
void plan_threshold(Planner &p) { threshold(p, Form::out); }
void plan_inplace_threshold(Planner &p) { threshold(p, Form::inplace); }

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
  if (rank == 0 || dim < -rank || dim >= rank)
    p.invalid("dim " + std::to_string(dim) + " is out of range for x of rank " +
              std::to_string(rank));
  if (dim < 0) dim += rank;
  if (x.view.dims[dim] % 2 != 0)
    p.invalid("x's dim " + std::to_string(dim) + " has odd size " +
              std::to_string(x.view.dims[dim]));
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

// clamp(self, min, max) into out or selfRef; lo_pos / hi_pos: the bounds' positions (SIZE_MAX:
// the operator has no such bound). A bound the operator has may be NULL, not both.
void clamp(Planner &p, Form form, size_t lo_pos, size_t hi_pos, size_t out_pos) {
  const char *name = form == Form::inplace ? "selfRef" : "self";
  const aclTensor &self = p.tensor(0, name);
  const aclScalar *lo = lo_pos == SIZE_MAX ? nullptr : p.scalar_opt(lo_pos, "clipValueMin");
  const aclScalar *hi = hi_pos == SIZE_MAX ? nullptr : p.scalar_opt(hi_pos, "clipValueMax");
  const aclTensor &out = form == Form::inplace ? self : p.tensor(out_pos, "out");
  if (lo == nullptr && hi == nullptr) {
    fail(Errc::null_pointer, lo_pos == SIZE_MAX   ? "clipValueMax is NULL"
                             : hi_pos == SIZE_MAX ? "clipValueMin is NULL"
                                                  : "clipValueMin and clipValueMax are both NULL");
  }
  p.dtype_in(self, name, kNumeric);
  p.dtype_in(out, "out", kNumeric);
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const D compute = promote(self.dtype, out.dtype);
  const size_t s = form == Form::inplace ? p.ref(self, name) : p.input(self, name);
  const size_t o = form == Form::inplace ? s : p.output(out, "out");
  size_t r = p.cast(s, compute);
  if (lo) r = p.op1("Maximum", {r, p.scalar_value(*lo, compute)});
  if (hi) r = p.op1("Minimum", {r, p.scalar_value(*hi, compute)});
  p.store(r, o);
}
void plan_clamp(Planner &p) { clamp(p, Form::out, 1, 2, 3); }
void plan_clamp_min(Planner &p) { clamp(p, Form::out, 1, SIZE_MAX, 2); }
void plan_clamp_max(Planner &p) { clamp(p, Form::out, SIZE_MAX, 1, 2); }
void plan_inplace_clamp_max(Planner &p) { clamp(p, Form::inplace, SIZE_MAX, 1, 0); }

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
  const auto shape =
      other_t ? broadcast_shapes(p, self.view.dims, other_t->view.dims) : self.view.dims;
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

// out (or selfRef) = self ^ exponent, exponent a tensor (broadcast) or a scalar; float results.
void power(Planner &p, bool scalar_exponent, Form form = Form::out) {
  const char *name = form == Form::inplace ? "selfRef" : "self";
  const aclTensor &self = p.tensor(0, name);
  const aclTensor *e_t = scalar_exponent ? nullptr : &p.tensor(1, "exponent");
  const aclScalar *e_s = scalar_exponent ? &p.scalar(1, "exponent") : nullptr;
  const aclTensor &out = form == Form::inplace ? self : p.tensor(2, "out");
  p.dtype_in(self, name, kNumeric);
  if (e_t) p.dtype_in(*e_t, "exponent", kNumeric);
  p.dtype_in(out, form == Form::inplace ? name : "out", kFloat);
  const auto shape = e_t ? broadcast_shapes(p, self.view.dims, e_t->view.dims) : self.view.dims;
  p.same_shape(out, form == Form::inplace ? name : "out", shape,
               "the broadcast shape of self and exponent");
  const size_t s = form == Form::inplace ? p.ref(self, name) : p.input(self, name);
  const size_t a = p.cast(s, out.dtype);
  const size_t e = e_t ? p.cast(p.input(*e_t, "exponent"), out.dtype) : 0;
  const size_t o = form == Form::inplace ? s : p.output(out, "out");
  p.store(p.op1("Pow", {a, e_t ? e : p.scalar_value(*e_s, out.dtype)}), o);
}

void plan_pow_tensor_scalar(Planner &p) { power(p, true); }
void plan_pow_tensor_tensor(Planner &p) { power(p, false); }
void plan_inplace_pow_tensor_tensor(Planner &p) { power(p, false, Form::inplace); }

// GeGluV3: with a and b the halves of self along dim, out = gelu(a) * b and outGelu = gelu(a)
// when activateLeft, else out = a * gelu(b) and outGelu = gelu(b).
void plan_ge_glu_v3(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const std::string form = gelu_form(p, p.i64(2));
  const bool left = p.flag(3);
  const aclTensor &out = p.tensor(4, "out");
  const aclTensor &out_gelu = p.tensor(5, "outGelu");
  p.dtype_in(self, "self", kFloat);
  p.dtype_in(out, "out", kFloat);
  p.dtype_in(out_gelu, "outGelu", kFloat);
  const auto rank = static_cast<int64_t>(self.view.dims.size());
  int64_t dim = p.i64(1);
  if (rank == 0 || dim < -rank || dim >= rank)
    p.invalid("dim " + std::to_string(dim) + " is out of range for self of rank " +
              std::to_string(rank));
  if (dim < 0) dim += rank;
  if (self.view.dims[dim] % 2 != 0)
    p.invalid("self's dim " + std::to_string(dim) + " has odd size " +
              std::to_string(self.view.dims[dim]));
  auto half = self.view.dims;
  half[dim] /= 2;
  p.same_shape(out, "out", half, "self's shape with dim halved");
  p.same_shape(out_gelu, "outGelu", half, "self's shape with dim halved");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  const size_t og = p.output(out_gelu, "outGelu");
  const auto strides = p.value(x).strides;
  const size_t a = p.cast(p.view(x, half, strides, 0), D::f32);
  const size_t b = p.cast(p.view(x, half, strides, half[dim] * strides[dim]), D::f32);
  const size_t g = p.op1("GeluV2", {left ? a : b}, {{"approximate", form}});
  p.store(p.op1("Mul", {g, left ? b : a}), o);
  p.store(g, og);
}

const Registrar reg({
    {"EqTensor", plan_eq_tensor},
    {"GtScalar", plan_gt_scalar},
    {"PowTensorScalar", plan_pow_tensor_scalar},
    {"PowTensorTensor", plan_pow_tensor_tensor},
    {"Add", plan_add},
    {"InplaceAdd", plan_inplace_add},
    {"Adds", plan_adds},
    {"Sub", plan_sub},
    {"InplaceSub", plan_inplace_sub},
    {"Mul", plan_mul},
    {"InplaceMul", plan_inplace_mul},
    {"Muls", plan_muls},
    {"InplaceMuls", plan_inplace_muls},
    {"Div", plan_div},
    {"InplaceDiv", plan_inplace_div},
    {"Sin", plan_sin},
    {"Cos", plan_cos},
    {"Gelu", plan_gelu},
    {"Silu", plan_silu},
    {"Clamp", plan_clamp},
    {"Exp", plan_exp},
    {"Log", plan_log},
    {"Sqrt", plan_sqrt},
    {"Rsqrt", plan_rsqrt},
    {"Tanh", plan_tanh},
    {"Sigmoid", plan_sigmoid},
    {"Neg", plan_neg},
    {"Abs", plan_abs},
    {"Relu", plan_relu},
    {"PowScalarTensor", plan_pow_scalar_tensor},
    {"SwiGlu", plan_swi_glu},
    {"InplacePowTensorTensor", plan_inplace_pow_tensor_tensor},
    {"GeGluV3", plan_ge_glu_v3},
    {"Sign", plan_sign},
    {"Hardsigmoid", plan_hardsigmoid},
    {"Hardswish", plan_hardswish},
    {"InplaceSin", plan_inplace_sin},
    {"InplaceCos", plan_inplace_cos},
    {"InplaceExp", plan_inplace_exp},
    {"InplaceAdds", plan_inplace_adds},
    {"Subs", plan_subs},
    {"InplaceSubs", plan_inplace_subs},
    {"Divs", plan_divs},
    {"InplaceDivs", plan_inplace_divs},
    {"GeluV2", plan_gelu_v2},
    {"LeakyRelu", plan_leaky_relu},
    {"Elu", plan_elu},
    {"Softplus", plan_softplus},
    {"Threshold", plan_threshold},
    {"InplaceThreshold", plan_inplace_threshold},
    {"ClampMin", plan_clamp_min},
    {"ClampMax", plan_clamp_max},
    {"InplaceClampMax", plan_inplace_clamp_max},
});

}  // namespace

}  // namespace openacl::nn
