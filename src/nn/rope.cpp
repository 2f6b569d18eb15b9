// RotaryPositionEmbedding: y = x * cos + rotate(x) * sin over the last dim, cos and sin
// broadcast to x. mode 0 rotates halves (rotate(x) = cat(-x2, x1)), mode 1 interleaved pairs
// (rotate(x)[2i] = -x[2i+1], rotate(x)[2i+1] = x[2i]). The rotation is two strided copies and
// a Neg around the library's Mul and Add.
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

void plan_rotary_position_embedding(Planner &p) {
  const aclTensor &x = p.tensor(0, "x");
  const aclTensor &cos = p.tensor(1, "cos");
  const aclTensor &sin = p.tensor(2, "sin");
  const int64_t mode = p.i64(3);
  const aclTensor &out = p.tensor(4, "yOut");
  for (auto [t, name] : {std::pair{&x, "x"}, {&cos, "cos"}, {&sin, "sin"}, {&out, "yOut"}})
    p.dtype_in(*t, name, {D::f32, D::f16, D::bf16});
  if (mode != 0 && mode != 1)
    p.invalid("mode " + std::to_string(mode) +
              " is not supported: 0 (half) and 1 (interleave) are");
  const auto &dims = x.view.dims;
  if (dims.empty() || dims.back() % 2 != 0)
    p.invalid("x's last dim must be even, x is " + ops::dims_str(dims));
  for (auto [t, name] : {std::pair{&cos, "cos"}, {&sin, "sin"}})
    if (broadcast_shapes(p, dims, t->view.dims) != dims)
      p.invalid(std::string(name) + " of shape " + ops::dims_str(t->view.dims) +
                " does not broadcast to x's " + ops::dims_str(dims));
  p.same_shape(out, "yOut", dims, "x's shape");
  const D t = out.dtype;
  const size_t xv = p.cast(p.dense(p.input(x, "x")), t);
  const size_t cv = p.cast(p.input(cos, "cos"), t);
  const size_t sv = p.cast(p.input(sin, "sin"), t);
  const size_t o = p.output(out, "yOut");
  // The two parts of x (and of the rotation r) as views: halves, or even and odd elements.
  const int64_t half = dims.back() / 2;
  auto part_dims = dims;
  part_dims.back() = half;
  auto part = [&](size_t v, int which) {
    auto strides = p.value(v).strides;
    const int64_t last = strides.back();
    if (mode == 1) strides.back() = 2 * last;
    return p.view(v, part_dims, strides, which * (mode == 0 ? half * last : last));
  };
  const size_t r = p.temp(t, dims);
  p.copy(p.op1("Neg", {part(xv, 1)}), part(r, 0));
  p.copy(part(xv, 0), part(r, 1));
  p.store(p.op1("Add", {p.op1("Mul", {xv, cv}), p.op1("Mul", {r, sv})}), o);
}

const Registrar reg({{"RotaryPositionEmbedding", plan_rotary_position_embedding}});

}  // namespace

}  // namespace openacl::nn
