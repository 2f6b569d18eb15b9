#include "model/lowering_util.h"

#include <algorithm>

#include "model/optimize.h"

namespace openacl::model::lowering_util {

std::string where(const Node &n) { return "node '" + n.name + "' (" + n.op + ")"; }

[[noreturn]] void unsupported(const Node &n, const std::string &what) {
  fail(Errc::model_unsupported_op, where(n) + ": " + what + ", which openacl does not support");
}
[[noreturn]] void mismatch(const Node &n, const std::string &what) {
  fail(Errc::model_input_not_match, where(n) + ": " + what);
}

int64_t attr_i(const Node &n, const std::string &name, int64_t dflt) {
  const auto *v = find_attr<int64_t>(n, name);
  return v ? *v : dflt;
}
float attr_f(const Node &n, const std::string &name, float dflt) {
  const auto *v = find_attr<float>(n, name);
  return v ? *v : dflt;
}
std::string attr_s(const Node &n, const std::string &name, std::string dflt) {
  const auto *v = find_attr<std::string>(n, name);
  return v ? *v : dflt;
}
std::vector<int64_t> attr_ints(const Node &n, const std::string &name, std::vector<int64_t> dflt) {
  const auto *v = find_attr<std::vector<int64_t>>(n, name);
  return v ? *v : dflt;
}
bool has_attr(const Node &n, const std::string &name) { return n.attrs.count(name) != 0; }

int in(const Node &n, size_t k) { return k < n.inputs.size() ? n.inputs[k] : -1; }
int out(const Node &n, size_t k) { return k < n.outputs.size() ? n.outputs[k] : -1; }

void only_first_output(const Node &n) {
  for (size_t k = 1; k < n.outputs.size(); ++k)
    if (n.outputs[k] >= 0) unsupported(n, "output " + std::to_string(k));
}

// The integers of a constant input (shape-like inputs must be known when planning).
std::vector<int64_t> const_ints(const Node &n, LoweringContext &c, int v, const std::string &what) {
  const HostTensor *t = c.constant(v);
  if (!t)
    unsupported(n, what + " computed on the device (it must be a constant or come from shapes)");
  return t->to_ints();
}
bool is_empty_tensor(LoweringContext &c, int v) {
  return v < 0 || (c.constant(v) && c.constant(v)->desc.element_count() == 0);
}

int64_t norm_axis(const Node &n, int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    mismatch(n, "axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

int64_t product(const std::vector<int64_t> &d, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= d[i];
  return p;
}

std::shared_ptr<HostTensor> int64_tensor(const std::vector<int64_t> &v, bool scalar) {
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::i64;
  if (!scalar) t->desc.dims = {static_cast<int64_t>(v.size())};
  t->data.resize(v.size() * 8);
  std::copy(v.begin(), v.end(), reinterpret_cast<int64_t *>(t->data.data()));
  return t;
}

std::shared_ptr<HostTensor> float_scalar(float f) {
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->data.resize(4);
  *reinterpret_cast<float *>(t->data.data()) = f;
  return t;
}

void require_f32(const Node &n, LoweringContext &c, int v) {
  if (c.desc(v).dtype != DType::f32)
    unsupported(n, std::string("a ") + ops::dtype_name(c.desc(v).dtype) + " input (float32 only)");
}

int scalar(LoweringContext &c, float v) { return c.constant_value(float_scalar(v)); }

int emit(LoweringContext &c, const char *type, std::vector<int> inputs, ops::Attrs attrs) {
  const int t = c.temporary();
  c.op(type, inputs, {t}, std::move(attrs));
  return t;
}

// ---- elementwise ----------------------------------------------------------------------------

Lower unary(const char *type) {
  return [type](const Node &n, LoweringContext &c) {
    const int x = in(n, 0);
    ops::Attrs a;
    if (has_attr(n, kPostScale)) {  // a scalar Mul / Add fused in (optimize.h)
      a[kPostScale] = attr_f(n, kPostScale, 1.0f);
      a[kPostShift] = attr_f(n, kPostShift, 0.0f);
      // A rank-0 x with a [1] constant: the product had shape [1].
      if (static_cast<size_t>(attr_i(n, kPostRank, 0)) > c.desc(x).dims.size())
        return c.view(emit(c, type, {x}, std::move(a)), out(n, 0), {1});
    }
    c.op(type, {x}, {out(n, 0)}, std::move(a));
  };
}

Lower binary(const char *type) {
  return [type](const Node &n, LoweringContext &c) {
    int a = in(n, 0), b = in(n, 1);
    if (c.desc(a).dtype != c.desc(b).dtype) {  // e.g. Pow(float, int exponent)
      int cast = c.temporary();
      c.op("Cast", {b}, {cast}, {{"dst_type", c.desc(a).dtype}});
      b = cast;
    }
    c.op(type, {a, b}, {out(n, 0)}, {});
  };
}

Lower variadic(const char *type) {
  return [type](const Node &n, LoweringContext &c) {
    if (n.inputs.size() == 1) return c.view(in(n, 0), out(n, 0), c.desc(in(n, 0)).dims);
    int acc = in(n, 0);
    for (size_t k = 1; k < n.inputs.size(); ++k) {
      int dst = k + 1 == n.inputs.size() ? out(n, 0) : c.temporary();
      c.op(type, {acc, in(n, k)}, {dst}, {});
      acc = dst;
    }
  };
}

}  // namespace openacl::model::lowering_util
