// Convolution (torch's convolution: 1-d and 2-d, plain or transposed, groups) on the op
// library's oneDNN Conv2D / Conv2DTransposeD; a 1-d convolution is a 2-d one of height 1.
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

// The array's value per spatial dim (one value stands for all), or the planner's error.
std::vector<int64_t> per_dim(Planner &p, const aclIntArray &a, const char *name, size_t spatial,
                             int64_t min) {
  std::vector<int64_t> v = a.values;
  if (v.size() == 1) v.assign(spatial, v[0]);
  if (v.size() != spatial)
    p.invalid(std::string(name) + " has " + std::to_string(a.values.size()) + " values for " +
              std::to_string(spatial) + " spatial dims");
  for (int64_t x : v)
    if (x < min)
      p.invalid(std::string(name) + " holds " + std::to_string(x) + "; each must be at least " +
                std::to_string(min));
  return v;
}

void plan_convolution(Planner &p) {
  const aclTensor &input = p.tensor(0, "input");
  const aclTensor &weight = p.tensor(1, "weight");
  const aclTensor *bias = p.tensor_opt(2, "bias");
  const bool transposed = p.flag(6);
  const int64_t groups = p.i64(8);
  const aclTensor &out = p.tensor(9, "output");
  const int64_t cube = p.i64(10);
  if (cube < 0 || cube > 3) p.invalid("cubeMathType " + std::to_string(cube) + " is not 0 to 3");
  for (auto [t, name] : {std::pair{&input, "input"}, {&weight, "weight"}, {&out, "output"}})
    p.dtype_in(*t, name, {D::f32, D::f16, D::bf16});
  const auto &x = input.view.dims, &w = weight.view.dims;
  if (x.size() != 3 && x.size() != 4)
    p.invalid("input has rank " + std::to_string(x.size()) +
              "; openacl supports 1-d and 2-d convolutions (rank 3 or 4)");
  if (w.size() != x.size())
    p.invalid("weight has rank " + std::to_string(w.size()) + ", input " +
              std::to_string(x.size()));
  const size_t spatial = x.size() - 2;
  const auto stride = per_dim(p, p.int_array(3, "stride"), "stride", spatial, 1);
  const auto padding = per_dim(p, p.int_array(4, "padding"), "padding", spatial, 0);
  const auto dilation = per_dim(p, p.int_array(5, "dilation"), "dilation", spatial, 1);
  const auto out_pad =
      transposed ? per_dim(p, p.int_array(7, "outputPadding"), "outputPadding", spatial, 0)
                 : std::vector<int64_t>(spatial, 0);
  if (groups < 1 || x[1] % groups != 0)
    p.invalid("groups " + std::to_string(groups) + " does not divide input's channels " +
              std::to_string(x[1]));
  const int64_t cout = transposed ? w[1] * groups : w[0];
  if ((transposed ? w[0] : w[1] * groups) != x[1])
    p.invalid("weight " + ops::dims_str(w) + " does not match input's " + std::to_string(x[1]) +
              " channels with groups " + std::to_string(groups));
  if (bias) p.same_shape(*bias, "bias", {cout}, "[output channels]");
  std::vector<int64_t> expect = {x[0], cout};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = x[2 + i], k = w[2 + i], span = dilation[i] * (k - 1);
    expect.push_back(transposed ? (in - 1) * stride[i] - 2 * padding[i] + span + out_pad[i] + 1
                                : (in + 2 * padding[i] - span - 1) / stride[i] + 1);
  }
  p.same_shape(out, "output", expect, "the convolution's output shape");
  size_t xv = p.input(input, "input"), wv = p.input(weight, "weight");
  const size_t bv = bias ? p.input(*bias, "bias") : 0;
  const size_t o = p.output(out, "output");
  const D t = out.dtype;
  xv = p.cast(p.dense(xv), t);
  wv = p.cast(p.dense(wv), t);
  auto two_d = [&](std::vector<int64_t> d) {
    if (spatial == 1) d.insert(d.begin() + 2, 1);
    return d;
  };
  auto hw = [&](const std::vector<int64_t> &v, int64_t one) {
    return spatial == 1 ? std::vector<int64_t>{one, v[0]} : v;
  };
  const auto s = hw(stride, 1), pd = hw(padding, 0), dl = hw(dilation, 1), op = hw(out_pad, 0);
  ops::Attrs attrs = {{"strides", std::vector<int64_t>{1, 1, s[0], s[1]}},
                      {"pads", std::vector<int64_t>{pd[0], pd[0], pd[1], pd[1]}},
                      {"dilations", std::vector<int64_t>{1, 1, dl[0], dl[1]}},
                      {"groups", groups},
                      {"data_format", std::string("NCHW")}};
  std::vector<size_t> in = {p.reshape(xv, two_d(x)), p.reshape(wv, two_d(w))};
  if (bias) in.push_back(p.cast(bv, t));
  size_t r;
  if (transposed) {
    attrs["input_size"] = two_d(expect);
    attrs["output_padding"] = std::vector<int64_t>{0, 0, op[0], op[1]};
    r = p.op1("Conv2DTransposeD", in, attrs);
  } else {
    r = p.op1("Conv2D", in, attrs);
  }
  p.store(p.reshape(r, expect), o);
}

const Registrar reg({{"Convolution", plan_convolution}});

}  // namespace

}  // namespace openacl::nn
