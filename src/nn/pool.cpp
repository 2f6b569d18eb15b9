// Windows over NCHW images: AvgPool2d and MaxPool on the op library's AvgPoolV2 / MaxPoolV3
// (oneDNN), UpsampleNearest2d on ResizeNearestNeighborV2, and Im2col as strided copies (one
// per kernel position, from a zero-padded copy of the input).
#include <cstring>

#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kFloat = {D::f32, D::f16, D::bf16};

// An int array argument of exactly n positive (or, nonneg, non-negative) values.
std::vector<int64_t> pair_of(Planner &p, const aclIntArray &a, const char *name, size_t n,
                             bool nonneg = false) {
  if (a.values.size() != n)
    p.invalid(std::string(name) + " has " + std::to_string(a.values.size()) + " values; " +
              std::to_string(n) + " are needed");
  for (int64_t v : a.values)
    if (nonneg ? v < 0 : v <= 0)
      p.invalid(std::string(name) + " " + ops::dims_str(a.values) +
                (nonneg ? " has a negative value" : " has a value that is not positive"));
  return a.values;
}

void check_image(Planner &p, const aclTensor &t, const char *name) {
  p.dtype_in(t, name, kFloat);
  if (t.view.dims.size() != 4)
    p.invalid(std::string(name) + " has shape " + ops::dims_str(t.view.dims) +
              "; [N, C, H, W] is needed");
}

// The library pools on [N, C, H, W]; out must have the shape its inference gives.
void pool(Planner &p, const char *type, const aclTensor &self, const aclTensor &out,
          ops::Attrs attrs) {
  check_image(p, self, "self");
  p.dtype_in(out, "out", kFloat);
  const size_t x = p.cast(p.input(self, "self"), D::f32);
  const size_t o = p.output(out, "out");
  const size_t r = p.op1(type, {x}, attrs);
  p.same_shape(out, "out", p.dims(r), "the pooled shape");
  p.store(r, o);
}

// AvgPool2d(self, kernelSize, strides, paddings (H, W), ceilMode, countIncludePad,
// divisorOverride, cubeMathType, out).
void plan_avg_pool_2d(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto k = pair_of(p, p.int_array(1, "kernelSize"), "kernelSize", 2);
  const auto s = pair_of(p, p.int_array(2, "strides"), "strides", 2);
  const auto pad = pair_of(p, p.int_array(3, "paddings"), "paddings", 2, true);
  const bool ceil = p.flag(4), include_pad = p.flag(5);
  if (p.i64(6) != 0)
    p.invalid("divisorOverride " + std::to_string(p.i64(6)) + " is not supported; pass 0");
  const aclTensor &out = p.tensor(8, "out");
  if (pad[0] * 2 > k[0] || pad[1] * 2 > k[1])
    p.invalid("paddings " + ops::dims_str(pad) + " exceed half of kernelSize " + ops::dims_str(k));
  pool(p, "AvgPoolV2", self, out,
       {{"ksize", std::vector<int64_t>{1, 1, k[0], k[1]}},
        {"strides", std::vector<int64_t>{1, 1, s[0], s[1]}},
        {"pads", std::vector<int64_t>{pad[0], pad[0], pad[1], pad[1]}},
        {"ceil_mode", ceil},
        {"exclusive", !include_pad}});
}

// MaxPool(self, kernelShape, strides, autoPad, pads (top, bottom, left, right), dilations,
// ceilMode, out): explicit pads (autoPad 0) and dilation 1.
void plan_max_pool(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto k = pair_of(p, p.int_array(1, "kernelShape"), "kernelShape", 2);
  const auto s = pair_of(p, p.int_array(2, "strides"), "strides", 2);
  if (p.i64(3) != 0)
    p.invalid("autoPad " + std::to_string(p.i64(3)) + " is not supported; pass 0 (explicit pads)");
  const auto pad = pair_of(p, p.int_array(4, "pads"), "pads", 4, true);
  const auto d = pair_of(p, p.int_array(5, "dilations"), "dilations", 2);
  if (d[0] != 1 || d[1] != 1)
    p.invalid("dilations " + ops::dims_str(d) + " are not supported; pass [1, 1]");
  const int64_t ceil = p.i64(6);
  const aclTensor &out = p.tensor(7, "out");
  pool(p, "MaxPoolV3", self, out,
       {{"ksize", std::vector<int64_t>{1, 1, k[0], k[1]}},
        {"strides", std::vector<int64_t>{1, 1, s[0], s[1]}},
        {"pads", pad},
        {"ceil_mode", ceil != 0}});
}

// out = self resized to outputSize (H, W), each output pixel the input pixel at
// floor(out index * in / out), as torch's nearest mode.
void plan_upsample_nearest_2d(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto size = pair_of(p, p.int_array(1, "outputSize"), "outputSize", 2);
  const aclTensor &out = p.tensor(2, "out");
  check_image(p, self, "self");
  p.dtype_in(out, "out", kFloat);
  const auto &dims = self.view.dims;
  p.same_shape(out, "out", {dims[0], dims[1], size[0], size[1]}, "[N, C] of self and outputSize");
  const size_t x = p.cast(p.input(self, "self"), out.dtype);
  const size_t o = p.output(out, "out");
  std::vector<uint8_t> hw(2 * sizeof(int32_t));
  const int32_t v[2] = {static_cast<int32_t>(size[0]), static_cast<int32_t>(size[1])};
  std::memcpy(hw.data(), v, sizeof v);
  p.store(p.op1("ResizeNearestNeighborV2", {x, p.constant(D::i32, {2}, std::move(hw))}), o);
}

// out [N, C * kH * kW, L] = the kernel-sized patches of self [N, C, H, W] (zero padding),
// column l the patch at output position l (row-major over the output's H, W).
void plan_im2col(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto k = pair_of(p, p.int_array(1, "kernelSize"), "kernelSize", 2);
  const auto dil = pair_of(p, p.int_array(2, "dilation"), "dilation", 2);
  const auto pad = pair_of(p, p.int_array(3, "padding"), "padding", 2, true);
  const auto st = pair_of(p, p.int_array(4, "stride"), "stride", 2);
  const aclTensor &out = p.tensor(5, "out");
  p.dtype_in(self, "self", kFloat);
  p.dtype_in(out, "out", kFloat);
  if (self.view.dims.size() != 4)
    p.invalid("self has shape " + ops::dims_str(self.view.dims) + "; [N, C, H, W] is needed");
  const auto &d = self.view.dims;
  const int64_t n = d[0], c = d[1], hp = d[2] + 2 * pad[0], wp = d[3] + 2 * pad[1];
  const int64_t oh = (hp - dil[0] * (k[0] - 1) - 1) / st[0] + 1,
                ow = (wp - dil[1] * (k[1] - 1) - 1) / st[1] + 1;
  if (oh <= 0 || ow <= 0)
    p.invalid("self " + ops::dims_str(d) + " is smaller than the dilated kernel");
  const int64_t l = oh * ow;
  p.same_shape(out, "out", {n, c * k[0] * k[1], l}, "[N, C * kH * kW, L]");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  const D t = out.dtype;
  // The zero-padded input, then one copy per kernel position into the rows it fills.
  const size_t padded = p.temp(t, {n, c, hp, wp});
  const size_t zero = p.constant(t, {}, std::vector<uint8_t>(element_size(t), 0));
  p.copy(p.view(zero, {n, c, hp, wp}, {0, 0, 0, 0}, 0), padded);
  const std::vector<int64_t> ps = {c * hp * wp, hp * wp, wp, 1};
  p.copy(p.cast(x, t), p.view(padded, d, ps, pad[0] * wp + pad[1]));
  const size_t cols = p.temp(t, {n, c * k[0] * k[1], l});
  for (int64_t i = 0; i < k[0]; ++i) {
    for (int64_t j = 0; j < k[1]; ++j) {
      const size_t src = p.view(padded, {n, c, oh, ow}, {ps[0], ps[1], wp * st[0], st[1]},
                                i * dil[0] * wp + j * dil[1]);
      const size_t dst = p.view(cols, {n, c, oh, ow}, {c * k[0] * k[1] * l, k[0] * k[1] * l, ow, 1},
                                (i * k[1] + j) * l);
      p.copy(src, dst);
    }
  }
  p.store(cols, o);
}

const Registrar reg({{"AvgPool2d", plan_avg_pool_2d},
                     {"MaxPool", plan_max_pool},
                     {"UpsampleNearest2d", plan_upsample_nearest_2d},
                     {"Im2col", plan_im2col}});

}  // namespace

}  // namespace openacl::nn
