// Elementwise ops: binary arithmetic and comparisons with numpy broadcasting, logical ops,
// Select, unary math, clipping. Computed in float for f16/bf16; vectorisable inner loops;
// rows spread over the AI cores.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

constexpr size_t kGrain = 32 * 1024;  // elements per chunk of work

// ---- broadcasting plan ----

struct BroadcastPlan {
  std::vector<int64_t> dims;        // merged output dims
  std::vector<int64_t> sa, sb, sc;  // element strides of the inputs (0 = broadcast)
  int64_t count = 0;
};

BroadcastPlan make_plan(const std::vector<int64_t> &out, std::vector<std::vector<int64_t>> ins) {
  BroadcastPlan p;
  p.count = product(out);
  std::vector<std::vector<int64_t>> strides;
  for (auto &in : ins) strides.push_back(broadcast_strides(in, out));
  while (strides.size() < 3) strides.push_back(std::vector<int64_t>(out.size(), 0));
  std::vector<int64_t> d;
  std::vector<std::vector<int64_t>> s(3);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    bool merge = !d.empty();
    for (size_t k = 0; k < 3 && merge; ++k) merge = s[k].back() == strides[k][i] * out[i];
    if (merge) {
      d.back() *= out[i];
      for (size_t k = 0; k < 3; ++k) s[k].back() = strides[k][i];
    } else {
      d.push_back(out[i]);
      for (size_t k = 0; k < 3; ++k) s[k].push_back(strides[k][i]);
    }
  }
  if (d.empty()) {
    d.push_back(1);
    for (auto &v : s) v.push_back(0);
  }
  p.dims = std::move(d);
  p.sa = std::move(s[0]);
  p.sb = std::move(s[1]);
  p.sc = std::move(s[2]);
  return p;
}

// Calls row(out_offset, a_offset, b_offset, c_offset, length, sa, sb, sc) for every row of
// the plan's last dim, rows spread over the cores.
template <class Row>
void for_rows(const BroadcastPlan &p, backend::AiCores &cores, Row &&row) {
  const size_t r = p.dims.size();
  const int64_t inner = p.dims[r - 1];
  const int64_t rows = product(p.dims, 0, r - 1);
  if (rows == 1) {
    // One long row: split it.
    parallel_range(cores, static_cast<size_t>(inner), kGrain, [&](size_t b, size_t e) {
      const auto ib = static_cast<int64_t>(b);
      row(ib, ib * p.sa[r - 1], ib * p.sb[r - 1], ib * p.sc[r - 1], static_cast<int64_t>(e - b),
          p.sa[r - 1], p.sb[r - 1], p.sc[r - 1]);
    });
    return;
  }
  const size_t grain = std::max<size_t>(1, kGrain / static_cast<size_t>(inner));
  parallel_range(cores, static_cast<size_t>(rows), grain, [&](size_t b, size_t e) {
    for (size_t rw = b; rw < e; ++rw) {
      int64_t rem = static_cast<int64_t>(rw), oa = 0, ob = 0, oc = 0;
      for (size_t k = r - 1; k-- > 0;) {
        const int64_t i = rem % p.dims[k];
        rem /= p.dims[k];
        oa += i * p.sa[k];
        ob += i * p.sb[k];
        oc += i * p.sc[k];
      }
      row(static_cast<int64_t>(rw) * inner, oa, ob, oc, inner, p.sa[r - 1], p.sb[r - 1],
          p.sc[r - 1]);
    }
  });
}

// ---- binary ----

enum class Bin {
  add,
  sub,
  mul,
  div,
  realdiv,
  maximum,
  minimum,
  pow,
  floordiv,
  floormod,
  mod,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  land,
  lor,
  band,
  bor,
  bxor
};

constexpr bool is_compare(Bin k) { return k >= Bin::eq && k <= Bin::ge; }
constexpr bool is_logical(Bin k) { return k == Bin::land || k == Bin::lor; }
constexpr bool is_bitwise(Bin k) { return k == Bin::band || k == Bin::bor || k == Bin::bxor; }

template <class C>
C int_div_checked(C x, C y) {
  if (y == 0) fail(Errc::task_failure, "integer division by zero");
  return x / y;
}

template <Bin K, class C>
inline auto apply_bin(C x, C y) {
  if constexpr (K == Bin::add) return static_cast<C>(x + y);
  else if constexpr (K == Bin::sub) return static_cast<C>(x - y);
  else if constexpr (K == Bin::mul) return static_cast<C>(x * y);
  else if constexpr (K == Bin::div || K == Bin::realdiv) {
    if constexpr (std::is_floating_point_v<C>) return static_cast<C>(x / y);
    else return int_div_checked<C>(x, y);
  } else if constexpr (K == Bin::maximum) {
    if constexpr (std::is_floating_point_v<C>) return (x != x || x > y) ? x : y;  // nan propagates
    else return x > y ? x : y;
  } else if constexpr (K == Bin::minimum) {
    if constexpr (std::is_floating_point_v<C>) return (x != x || x < y) ? x : y;
    else return x < y ? x : y;
  } else if constexpr (K == Bin::pow) {
    if constexpr (std::is_floating_point_v<C>) return static_cast<C>(std::pow(x, y));
    else return static_cast<C>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  } else if constexpr (K == Bin::floordiv) {
    if constexpr (std::is_floating_point_v<C>) return static_cast<C>(std::floor(x / y));
    else {
      C q = int_div_checked<C>(x, y);
      if constexpr (std::is_signed_v<C>)
        if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
      return q;
    }
  } else if constexpr (K == Bin::floormod) {
    if constexpr (std::is_floating_point_v<C>) {
      C m = std::fmod(x, y);
      return (m != 0 && ((m < 0) != (y < 0))) ? static_cast<C>(m + y) : m;
    } else {
      if (y == 0) fail(Errc::task_failure, "integer modulo by zero");
      C m = static_cast<C>(x % y);
      if constexpr (std::is_signed_v<C>)
        if (m != 0 && ((m < 0) != (y < 0))) m = static_cast<C>(m + y);
      return m;
    }
  } else if constexpr (K == Bin::mod) {  // truncated: the dividend's sign, as C's fmod and %
    if constexpr (std::is_floating_point_v<C>) return static_cast<C>(std::fmod(x, y));
    else {
      if (y == 0) fail(Errc::task_failure, "integer modulo by zero");
      return static_cast<C>(x % y);
    }
  } else if constexpr (K == Bin::eq) return x == y;
  else if constexpr (K == Bin::ne) return x != y;
  else if constexpr (K == Bin::lt) return x < y;
  else if constexpr (K == Bin::le) return x <= y;
  else if constexpr (K == Bin::gt) return x > y;
  else if constexpr (K == Bin::ge) return x >= y;
  else if constexpr (K == Bin::land) return static_cast<bool>(x) && static_cast<bool>(y);
  else if constexpr (K == Bin::band)
    return static_cast<C>(x & y);  // bitwise: integers only (build_binary)
  else if constexpr (K == Bin::bor) return static_cast<C>(x | y);
  else if constexpr (K == Bin::bxor) return static_cast<C>(x ^ y);
  else return static_cast<bool>(x) || static_cast<bool>(y);
}

// TA and TB differ only for the mixed float forms (f16 or bf16 with f32), which compute in f32.
template <class TA, class TB, class R, Bin K>
OPENACL_SIMD_KERNEL void bin_row(const TA *a, const TB *b, R *y, int64_t n, int64_t sa,
                                 int64_t sb) {
  using C = std::conditional_t<std::is_same_v<TA, TB>, compute_t<TA>, float>;
  auto store = [](auto v) {
    if constexpr (std::is_same_v<R, bool>) return static_cast<bool>(v);
    else return R(static_cast<C>(v));
  };
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) y[i] = store(apply_bin<K, C>(C(a[i]), C(b[i])));
  } else if (sa == 1 && sb == 0) {
    const C bv = C(b[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = store(apply_bin<K, C>(C(a[i]), bv));
  } else if (sa == 0 && sb == 1) {
    const C av = C(a[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = store(apply_bin<K, C>(av, C(b[i])));
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = store(apply_bin<K, C>(C(a[i * sa]), C(b[i * sb])));
  }
}

template <class TA, Bin K, class TB = TA>
std::unique_ptr<PreparedOp> binary_op(BroadcastPlan plan) {
  using R = std::conditional_t<is_compare(K) || is_logical(K), bool,
                               std::conditional_t<std::is_same_v<TA, TB>, TA, float>>;
  return make_op([plan = std::move(plan)](const std::vector<Tensor> &in,
                                          const std::vector<Tensor> &out, backend::AiCores &cores) {
    if (plan.count == 0) return;
    const TA *a = static_cast<const TA *>(in[0].data);
    const TB *b = static_cast<const TB *>(in[1].data);
    R *y = static_cast<R *>(out[0].data);
    for_rows(plan, cores,
             [&](int64_t oy, int64_t oa, int64_t ob, int64_t, int64_t n, int64_t sa, int64_t sb,
                 int64_t) {
               simd_wide(OPENACL_SIMD_LAMBDA {
                 bin_row<TA, TB, R, K>(a + oa, b + ob, y + oy, n, sa, sb);
               });
             });
  });
}

// Add and Mul also take f16 or bf16 with f32 and give f32, as CANN's kernels of those ops do
// (aclnnAdd and aclnnMul run them without a Cast, so without a workspace).
template <Bin K>
std::unique_ptr<PreparedOp> mixed_binary_op(DType a, DType b, BroadcastPlan plan) {
  if constexpr (K == Bin::add || K == Bin::mul) {
    if (a == DType::f16 && b == DType::f32) return binary_op<half_t, K, float>(std::move(plan));
    if (a == DType::f32 && b == DType::f16) return binary_op<float, K, half_t>(std::move(plan));
    if (a == DType::bf16 && b == DType::f32) return binary_op<bf16_t, K, float>(std::move(plan));
    if (a == DType::f32 && b == DType::bf16) return binary_op<float, K, bf16_t>(std::move(plan));
  }
  return nullptr;
}

template <Bin K>
std::unique_ptr<PreparedOp> build_binary(OpCall &call) {
  call.inputs_between(2, 2, "x1, x2");
  call.work_per_element();
  const DType t = call.in(0).dtype;
  std::vector<int64_t> out;
  if (!broadcast_shapes(call.in(0).dims, call.in(1).dims, out))
    fail(Errc::op_input_not_match, call.type() + ": shapes " + dims_str(call.in(0).dims) + " and " +
                                       dims_str(call.in(1).dims) + " cannot be broadcast");
  if (t != call.in(1).dtype) {
    auto mixed =
        mixed_binary_op<K>(t, call.in(1).dtype, make_plan(out, {call.in(0).dims, call.in(1).dims}));
    if (mixed) {
      call.output(DType::f32, out, call.in(0).format);
      return mixed;
    }
  }
  call.same_dtype(0, 1);
  if constexpr (is_logical(K)) call.dtype_in(0, {DType::boolean});
  else if constexpr (is_bitwise(K))
    call.dtype_in(0, {DType::i32, DType::i64, DType::i8, DType::u8});
  else if constexpr (is_compare(K))
    call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8,
                      DType::u8, DType::boolean});
  else
    call.dtype_in(
        0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8, DType::u8});
  call.output(is_compare(K) || is_logical(K) ? DType::boolean : t, out, call.in(0).format);
  BroadcastPlan plan = make_plan(out, {call.in(0).dims, call.in(1).dims});
  std::unique_ptr<PreparedOp> op;
  visit_dtype(t, [&](auto v) {
    using T = decltype(v);
    if constexpr (is_logical(K)) {
      if constexpr (std::is_same_v<T, bool>) op = binary_op<T, K>(plan);
    } else if constexpr (is_bitwise(K)) {
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)
        op = binary_op<T, K>(plan);
    } else if constexpr (std::is_same_v<T, bool>) {
      if constexpr (is_compare(K)) op = binary_op<T, K>(plan);
    } else if constexpr (!std::is_same_v<T, double> && !std::is_same_v<T, int16_t> &&
                         !std::is_same_v<T, uint16_t> && !std::is_same_v<T, uint32_t> &&
                         !std::is_same_v<T, uint64_t>) {
      op = binary_op<T, K>(plan);
    }
  });
  return op;
}

// ---- Select (Where) ----

std::unique_ptr<PreparedOp> build_select(OpCall &call) {
  call.inputs_between(3, 3, "condition, x1, x2");
  call.work_per_element();
  call.dtype_in(0, {DType::boolean});
  call.same_dtype(1, 2);
  std::vector<int64_t> tmp, out;
  if (!broadcast_shapes(call.in(0).dims, call.in(1).dims, tmp) ||
      !broadcast_shapes(tmp, call.in(2).dims, out))
    fail(Errc::op_input_not_match, call.type() + ": shapes " + dims_str(call.in(0).dims) + ", " +
                                       dims_str(call.in(1).dims) + ", " +
                                       dims_str(call.in(2).dims) + " cannot be broadcast");
  const size_t esize = dtype_size(call.in(1).dtype);
  if (esize == 0) call.bad_dtype(1, std::string("has data type ") + dtype_name(call.in(1).dtype));
  call.output(call.in(1).dtype, out);
  BroadcastPlan p = make_plan(out, {call.in(1).dims, call.in(2).dims, call.in(0).dims});
  return make_op([p, esize](const std::vector<Tensor> &in, const std::vector<Tensor> &o,
                            backend::AiCores &cores) {
    if (p.count == 0) return;
    const char *a = static_cast<const char *>(in[1].data),
               *b = static_cast<const char *>(in[2].data);
    const bool *c = static_cast<const bool *>(in[0].data);
    char *y = static_cast<char *>(o[0].data);
    for_rows(p, cores,
             [&](int64_t oy, int64_t oa, int64_t ob, int64_t oc, int64_t n, int64_t sa, int64_t sb,
                 int64_t sc) {
               for (int64_t i = 0; i < n; ++i) {
                 const char *src = c[oc + i * sc] ? a + (oa + i * sa) * static_cast<int64_t>(esize)
                                                  : b + (ob + i * sb) * static_cast<int64_t>(esize);
                 std::memcpy(y + (oy + i) * static_cast<int64_t>(esize), src, esize);
               }
             });
  });
}

// ---- unary ----

enum class Un {
  relu,
  relu6,
  sigmoid,
  silu,
  tanh_,
  exp_,
  log_,
  sqrt_,
  rsqrt,
  neg,
  abs_,
  reciprocal,
  square,
  floor_,
  ceil_,
  round_,
  sin_,
  cos_,
  erf_,
  softplus,
  sign,
  hardswish,
  mish,
  hardsigmoid,
  leakyrelu,
  elu,
  gelu_tanh,
  gelu_erf,
  lnot,
  invert,
  tan_,
  asin_,
  acos_,
  atan_,
  sinh_,
  cosh_,
  asinh_,
  acosh_,
  atanh_
};

struct UnParams {
  float alpha = 0, beta = 0;
  // y = f(x) * scale + shift (float32 only): a scalar Mul and Add that the model loader fused
  // into the activation (attrs openacl_post_scale / openacl_post_shift), one pass over the
  // tensor instead of three.
  float scale = 1, shift = 0;
};

template <Un K, class C>
inline C apply_un(C x, const UnParams &p) {
  if constexpr (K == Un::relu) return x > C(0) ? x : C(0);
  else if constexpr (K == Un::neg) return static_cast<C>(-x);
  else if constexpr (K == Un::abs_) return x < C(0) ? static_cast<C>(-x) : x;
  else if constexpr (K == Un::square) return static_cast<C>(x * x);
  else if constexpr (K == Un::sign) return static_cast<C>((x > C(0)) - (x < C(0)));
  else if constexpr (K == Un::relu6) return std::min(std::max(x, C(0)), C(6));
  else if constexpr (K == Un::sigmoid) {
    if constexpr (std::is_same_v<C, float>) return 1.0f / (1.0f + fast_exp(-x));
    else return C(1) / (C(1) + std::exp(-x));
  } else if constexpr (K == Un::silu) {
    // x * sigmoid(x) in one pass, rounded as the two ops it replaces (aclnnSilu: ggml's FFN).
    if constexpr (std::is_same_v<C, float>) return x * (1.0f / (1.0f + fast_exp(-x)));
    else return x * (C(1) / (C(1) + std::exp(-x)));
  } else if constexpr (K == Un::tanh_) return std::tanh(x);
  else if constexpr (K == Un::exp_) {
    if constexpr (std::is_same_v<C, float>) return fast_exp(x);
    else return std::exp(x);
  } else if constexpr (K == Un::log_) return std::log(x);
  else if constexpr (K == Un::sqrt_) return std::sqrt(x);
  else if constexpr (K == Un::rsqrt) return C(1) / std::sqrt(x);
  else if constexpr (K == Un::reciprocal) return C(1) / x;
  else if constexpr (K == Un::floor_) return std::floor(x);
  else if constexpr (K == Un::ceil_) return std::ceil(x);
  else if constexpr (K == Un::round_) return std::nearbyint(x);  // half to even, as ONNX Round
  else if constexpr (K == Un::sin_) return std::sin(x);
  else if constexpr (K == Un::cos_) return std::cos(x);
  else if constexpr (K == Un::erf_) return std::erf(x);
  else if constexpr (K == Un::invert) return static_cast<C>(~x);  // integers only (build_unary)
  else if constexpr (K == Un::tan_) return std::tan(x);
  else if constexpr (K == Un::asin_) return std::asin(x);
  else if constexpr (K == Un::acos_) return std::acos(x);
  else if constexpr (K == Un::atan_) return std::atan(x);
  else if constexpr (K == Un::sinh_) return std::sinh(x);
  else if constexpr (K == Un::cosh_) return std::cosh(x);
  else if constexpr (K == Un::asinh_) return std::asinh(x);
  else if constexpr (K == Un::acosh_) return std::acosh(x);
  else if constexpr (K == Un::atanh_) return std::atanh(x);
  else if constexpr (K == Un::softplus) return x > C(20) ? x : std::log1p(std::exp(x));
  // A multiply by 1/6, not a division: a vector division costs several multiplies' time and
  // bounded this op (PP-OCR rec: 28 of them).
  else if constexpr (K == Un::hardswish)
    return x * std::min(std::max(x + C(3), C(0)), C(6)) * C(1.0f / 6.0f);
  else if constexpr (K == Un::mish) return x * std::tanh(x > C(20) ? x : std::log1p(std::exp(x)));
  else if constexpr (K == Un::hardsigmoid)
    return std::min(std::max(C(p.alpha) * x + C(p.beta), C(0)), C(1));
  else if constexpr (K == Un::leakyrelu) return x >= C(0) ? x : C(p.alpha) * x;
  else if constexpr (K == Un::elu) return x >= C(0) ? x : C(p.alpha) * (std::exp(x) - C(1));
  else if constexpr (K == Un::gelu_tanh)
    return C(0.5) * x * (C(1) + std::tanh(C(0.7978845608028654) * (x + C(0.044715) * x * x * x)));
  else if constexpr (K == Un::gelu_erf)
    return C(0.5) * x * (C(1) + std::erf(x * C(0.7071067811865476)));
  else return static_cast<C>(!x);
}

template <class T, Un K, bool Affine>
OPENACL_SIMD_KERNEL void un_row(const T *x, T *y, size_t n, UnParams prm) {
  using C = compute_t<T>;
  for (size_t i = 0; i < n; ++i) {
    if constexpr (Affine) y[i] = T(apply_un<K, C>(C(x[i]), prm) * C(prm.scale) + C(prm.shift));
    else y[i] = T(apply_un<K, C>(C(x[i]), prm));
  }
}

template <class T, Un K, bool Affine = false>
std::unique_ptr<PreparedOp> unary_op(int64_t n, UnParams prm) {
  return make_op([n, prm](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                          backend::AiCores &cores) {
    const T *x = static_cast<const T *>(in[0].data);
    T *y = static_cast<T *>(out[0].data);
    parallel_range(cores, static_cast<size_t>(n), kGrain, [&](size_t b, size_t e) {
      simd(OPENACL_SIMD_LAMBDA { un_row<T, K, Affine>(x + b, y + b, e - b, prm); });
    });
  });
}

// The activations the model loader fuses a scalar affine into (model/optimize.h).
constexpr bool affine_ok(Un k) {
  return k == Un::relu || k == Un::sigmoid || k == Un::tanh_ || k == Un::hardswish ||
         k == Un::softplus;
}

constexpr bool int_ok(Un k) {
  return k == Un::relu || k == Un::neg || k == Un::abs_ || k == Un::square || k == Un::sign;
}

template <Un K>
std::unique_ptr<PreparedOp> build_unary(OpCall &call) {
  call.inputs_between(1, 1, "x");
  UnParams prm;
  if constexpr (K == Un::hardsigmoid) {
    prm.alpha = call.attr_float("alpha", 0.16666666f);
    prm.beta = call.attr_float("beta", 0.5f);
  } else if constexpr (K == Un::leakyrelu) {
    prm.alpha = call.attr_float("negative_slope", 0.0f);
  } else if constexpr (K == Un::elu) {
    prm.alpha = call.attr_float("alpha", 1.0f);
  }
  prm.scale = call.attr_float("openacl_post_scale", 1.0f);
  prm.shift = call.attr_float("openacl_post_shift", 0.0f);
  const bool affine = prm.scale != 1.0f || prm.shift != 0.0f;
  if (affine && (!affine_ok(K) || call.in(0).dtype != DType::f32))
    call.bad_attr("openacl_post_scale",
                  "and openacl_post_shift are taken by Relu, Sigmoid, Tanh, "
                  "HardSwish and Softplus of float32 x only");
  if (affine) {
    if constexpr (affine_ok(K)) {
      call.output(DType::f32, call.in(0).dims, call.in(0).format);
      return unary_op<float, K, true>(call.in(0).element_count(), prm);
    }
  }
  if constexpr (K == Un::invert) call.dtype_in(0, {DType::i32, DType::i64, DType::i8, DType::u8});
  else if constexpr (K == Un::lnot) call.dtype_in(0, {DType::boolean});
  else if constexpr (int_ok(K))
    call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8});
  else call.dtype_in(0, {DType::f32, DType::f16, DType::bf16});
  call.output(call.in(0).dtype, call.in(0).dims, call.in(0).format);
  const int64_t n = call.in(0).element_count();
  std::unique_ptr<PreparedOp> op;
  visit_dtype(call.in(0).dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (K == Un::lnot) {
      if constexpr (std::is_same_v<T, bool>) op = unary_op<T, K>(n, prm);
    } else if constexpr (K == Un::invert) {
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>)
        op = unary_op<T, K>(n, prm);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                         std::is_same_v<T, bf16_t>) {
      op = unary_op<T, K>(n, prm);
    } else if constexpr (int_ok(K) && (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                                       std::is_same_v<T, int8_t>)) {
      op = unary_op<T, K>(n, prm);
    }
  });
  return op;
}

std::unique_ptr<PreparedOp> build_gelu_v2(OpCall &call) {
  const std::string approx = call.attr_str("approximate", std::string("none"));
  if (approx == "tanh") return build_unary<Un::gelu_tanh>(call);
  if (approx != "none")
    call.bad_attr("approximate", "is '" + approx + "'; expected 'none' or 'tanh'");
  return build_unary<Un::gelu_erf>(call);
}

std::unique_ptr<PreparedOp> build_identity(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.work_per_element();
  call.output(call.in(0).dtype, call.in(0).dims, call.in(0).format);
  const size_t bytes = call.in(0).byte_size();
  return make_op([bytes](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                         backend::AiCores &cores) {
    if (in[0].data != out[0].data)
      strided_copy(cores, {static_cast<int64_t>(bytes)}, static_cast<char *>(out[0].data), {1},
                   static_cast<const char *>(in[0].data), {1}, 1);
  });
}

// ---- Clip ----

template <class T>
std::unique_ptr<PreparedOp> clip_op(BroadcastPlan p, bool has_lo, bool has_hi, float attr_lo,
                                    float attr_hi) {
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        using C = compute_t<T>;
        const T *x = static_cast<const T *>(in[0].data);
        T *y = static_cast<T *>(out[0].data);
        // Bounds are read on the stream: they live in device memory.
        const T *lo = has_lo ? static_cast<const T *>(in[1].data) : nullptr;
        const T *hi = has_hi ? static_cast<const T *>(in[2].data) : nullptr;
        const C alo = std::is_floating_point_v<C> ? C(attr_lo) : std::numeric_limits<C>::lowest();
        const C ahi = std::is_floating_point_v<C> ? C(attr_hi) : std::numeric_limits<C>::max();
        for_rows(p, cores,
                 [&](int64_t oy, int64_t, int64_t ob, int64_t oc, int64_t n, int64_t, int64_t sb,
                     int64_t sc) {
                   for (int64_t i = 0; i < n; ++i) {
                     C v = C(x[oy + i]);
                     const C l = lo ? C(lo[ob + i * sb]) : alo;
                     const C h = hi ? C(hi[oc + i * sc]) : ahi;
                     v = v < l ? l : v;
                     v = v > h ? h : v;
                     y[oy + i] = T(v);
                   }
                 });
      });
}

std::unique_ptr<PreparedOp> build_clip(OpCall &call) {
  const bool by_value = call.type() == "ClipByValue";
  call.work_per_element();
  if (by_value) call.inputs_between(3, 3, "x, clip_value_min, clip_value_max");
  else call.inputs_between(1, 3, "x, [min], [max]");
  call.dtype_in(
      0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64, DType::i8, DType::u8});
  const auto &x = call.in(0);
  for (size_t i = 1; i < 3; ++i) {
    if (!call.has(i)) continue;
    call.same_dtype(0, i);
    std::vector<int64_t> b;
    if (!broadcast_shapes(x.dims, call.in(i).dims, b) || b != x.dims)
      call.bad_input(i, "has shape " + dims_str(call.in(i).dims) +
                            ", which does not broadcast to x's " + dims_str(x.dims));
  }
  const float lo = call.attr_float("min", -std::numeric_limits<float>::infinity());
  const float hi = call.attr_float("max", std::numeric_limits<float>::infinity());
  call.output(x.dtype, x.dims, x.format);
  BroadcastPlan p =
      make_plan(x.dims, {x.dims, call.has(1) ? call.in(1).dims : std::vector<int64_t>{},
                         call.has(2) ? call.in(2).dims : std::vector<int64_t>{}});
  std::unique_ptr<PreparedOp> op;
  visit_dtype(x.dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, double>)
      op = clip_op<T>(p, call.has(1), call.has(2), lo, hi);
  });
  return op;
}

const Registrar reg({
    {"Add", build_binary<Bin::add>},
    {"AddV2", build_binary<Bin::add>},
    {"Sub", build_binary<Bin::sub>},
    {"Mul", build_binary<Bin::mul>},
    {"Div", build_binary<Bin::div>},
    {"RealDiv", build_binary<Bin::realdiv>},
    {"Maximum", build_binary<Bin::maximum>},
    {"Minimum", build_binary<Bin::minimum>},
    {"Pow", build_binary<Bin::pow>},
    {"FloorDiv", build_binary<Bin::floordiv>},
    {"FloorMod", build_binary<Bin::floormod>},
    {"Equal", build_binary<Bin::eq>},
    {"Mod", build_binary<Bin::mod>},
    {"BitwiseAnd", build_binary<Bin::band>},
    {"BitwiseOr", build_binary<Bin::bor>},
    {"BitwiseXor", build_binary<Bin::bxor>},
    {"NotEqual", build_binary<Bin::ne>},
    {"Less", build_binary<Bin::lt>},
    {"LessEqual", build_binary<Bin::le>},
    {"Greater", build_binary<Bin::gt>},
    {"GreaterEqual", build_binary<Bin::ge>},
    {"LogicalAnd", build_binary<Bin::land>},
    {"LogicalOr", build_binary<Bin::lor>},
    {"LogicalNot", build_unary<Un::lnot>},
    {"Select", build_select},
    {"Relu", build_unary<Un::relu>},
    {"Relu6", build_unary<Un::relu6>},
    {"Sigmoid", build_unary<Un::sigmoid>},
    {"Silu", build_unary<Un::silu>},
    {"Tanh", build_unary<Un::tanh_>},
    {"Exp", build_unary<Un::exp_>},
    {"Log", build_unary<Un::log_>},
    {"Sqrt", build_unary<Un::sqrt_>},
    {"Rsqrt", build_unary<Un::rsqrt>},
    {"Neg", build_unary<Un::neg>},
    {"Abs", build_unary<Un::abs_>},
    {"Reciprocal", build_unary<Un::reciprocal>},
    {"Square", build_unary<Un::square>},
    {"Floor", build_unary<Un::floor_>},
    {"Ceil", build_unary<Un::ceil_>},
    {"Round", build_unary<Un::round_>},
    {"Sin", build_unary<Un::sin_>},
    {"Cos", build_unary<Un::cos_>},
    {"Erf", build_unary<Un::erf_>},
    {"Tan", build_unary<Un::tan_>},
    {"Asin", build_unary<Un::asin_>},
    {"Acos", build_unary<Un::acos_>},
    {"Atan", build_unary<Un::atan_>},
    {"Sinh", build_unary<Un::sinh_>},
    {"Cosh", build_unary<Un::cosh_>},
    {"Asinh", build_unary<Un::asinh_>},
    {"Acosh", build_unary<Un::acosh_>},
    {"Atanh", build_unary<Un::atanh_>},
    {"Invert", build_unary<Un::invert>},
    {"Softplus", build_unary<Un::softplus>},
    {"Sign", build_unary<Un::sign>},
    {"HardSwish", build_unary<Un::hardswish>},
    {"Mish", build_unary<Un::mish>},
    {"HardSigmoid", build_unary<Un::hardsigmoid>},
    {"LeakyRelu", build_unary<Un::leakyrelu>},
    {"Elu", build_unary<Un::elu>},
    {"Gelu", build_unary<Un::gelu_tanh>},
    {"GeluV2", build_gelu_v2},
    {"Identity", build_identity},
    {"ClipByValue", build_clip},
    {"Clip", build_clip},
});

}  // namespace
}  // namespace openacl::ops
