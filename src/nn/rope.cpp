// RotaryPositionEmbedding: y = x * cos + rotate(x) * sin over the last dim, cos and sin
// broadcast to x. mode 0 rotates halves (rotate(x) = cat(-x2, x1)), mode 1 interleaved pairs
// (rotate(x)[2i] = -x[2i+1], rotate(x)[2i+1] = x[2i]). The rotation is two strided copies and
// a Neg around the library's Mul and Add, or, when every last dim is contiguous, one pass of
// the operator's own kernel (nn/rope_kernel.h).
#include "nn/planner.h"
#include "nn/rope_kernel.h"
#include "nn/rows.h"

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
  const size_t xin = p.input(x, "x"), cin = p.input(cos, "cos"), sin_in = p.input(sin, "sin");
  const size_t o = p.output(out, "yOut");
  // cos and sin as views of x's dims: stride 0 where they broadcast.
  auto spread = [&](size_t v) {
    const auto &d = p.dims(v);
    const auto &st = p.value(v).strides;
    std::vector<int64_t> strides(dims.size(), 0);
    const size_t skip = dims.size() - d.size();
    for (size_t i = 0; i < d.size(); ++i)
      if (d[i] != 1) strides[skip + i] = st[i];
    return p.view(v, dims, std::move(strides), 0);
  };
  const size_t lead = dims.size() - 1;
  const size_t cb = spread(cin), sb = spread(sin_in);
  if (rows_contiguous(dims, p.value(xin).strides, lead) &&
      rows_contiguous(dims, p.value(o).strides, lead) &&
      rows_contiguous(dims, p.value(cb).strides, lead) &&
      rows_contiguous(dims, p.value(sb).strides, lead)) {
    RopeShape shape{std::vector<int64_t>(dims.begin(), dims.end() - 1), dims.back(), mode == 1};
    p.kernel(rope_kernel(std::move(shape)), {xin, cb, sb}, {o});
    return;
  }
  const D t = out.dtype;
  const size_t xv = p.cast(p.dense(xin), t);
  const size_t cv = p.cast(cin, t);
  const size_t sv = p.cast(sin_in, t);
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
