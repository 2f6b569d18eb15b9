#include "model/lowering.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <unordered_map>

#include "model/lowering_util.h"

namespace openacl::model {
namespace {

using namespace lowering_util;

void lower_div(const Node &n, LoweringContext &c) {
  const DType t = c.desc(in(n, 0)).dtype;
  const bool is_float = t == DType::f32 || t == DType::f16 || t == DType::bf16 || t == DType::f64;
  binary(is_float ? "RealDiv" : "Div")(n, c);
}

// x ** 2 (the variance of a layer norm as exported models spell it) as Square: Pow's kernel
// calls powf per element, several times the cost of the multiply.
void lower_pow(const Node &n, LoweringContext &c) {
  const HostTensor *e = c.constant(in(n, 1));
  const auto &x = c.desc(in(n, 0));
  const bool is_float = x.dtype == DType::f32 || x.dtype == DType::f16 || x.dtype == DType::bf16;
  if (is_float && e && e->desc.dtype == DType::f32 && e->desc.element_count() == 1 &&
      e->desc.dims.size() <= x.dims.size() && e->as<float>()[0] == 2.0f)
    return c.op("Square", {in(n, 0)}, {out(n, 0)}, {});
  binary("Pow")(n, c);
}

void lower_clip(const Node &n, LoweringContext &c) {
  if (c.opset() < 11) {
    ops::Attrs a;
    if (has_attr(n, "min")) a["min"] = attr_f(n, "min", 0);
    if (has_attr(n, "max")) a["max"] = attr_f(n, "max", 0);
    return c.op("Clip", {in(n, 0)}, {out(n, 0)}, std::move(a));
  }
  c.op("Clip", {in(n, 0), in(n, 1), in(n, 2)}, {out(n, 0)}, {});
}

void lower_cast(const Node &n, LoweringContext &c) {
  const DType to = dtype_from_onnx(attr_i(n, "to", 0), where(n) + " target type");
  if (to == c.desc(in(n, 0)).dtype) return c.view(in(n, 0), out(n, 0), c.desc(in(n, 0)).dims);
  c.op("Cast", {in(n, 0)}, {out(n, 0)}, {{"dst_type", to}});
}

void lower_hard_sigmoid(const Node &n, LoweringContext &c) {
  c.op("HardSigmoid", {in(n, 0)}, {out(n, 0)},
       {{"alpha", attr_f(n, "alpha", 0.2f)}, {"beta", attr_f(n, "beta", 0.5f)}});
}
void lower_leaky_relu(const Node &n, LoweringContext &c) {
  c.op("LeakyRelu", {in(n, 0)}, {out(n, 0)}, {{"negative_slope", attr_f(n, "alpha", 0.01f)}});
}
void lower_elu(const Node &n, LoweringContext &c) {
  c.op("Elu", {in(n, 0)}, {out(n, 0)}, {{"alpha", attr_f(n, "alpha", 1.0f)}});
}

// ---- views and shapes -----------------------------------------------------------------------

void lower_identity(const Node &n, LoweringContext &c) {
  only_first_output(n);
  c.view(in(n, 0), out(n, 0), c.desc(in(n, 0)).dims);
}

void lower_reshape(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  std::vector<int64_t> shape =
      c.opset() < 5 ? attr_ints(n, "shape", {}) : const_ints(n, c, in(n, 1), "a target shape");
  const bool allow_zero = attr_i(n, "allowzero", 0) != 0;
  int infer_at = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allow_zero) {
      if (i >= dims.size())
        mismatch(n, "shape copies dim " + std::to_string(i) + " of a rank-" +
                        std::to_string(dims.size()) + " tensor");
      shape[i] = dims[i];
    }
    if (shape[i] == -1) {
      if (infer_at >= 0) mismatch(n, "shape has two -1 entries");
      infer_at = static_cast<int>(i);
    } else {
      known *= shape[i];
    }
  }
  const int64_t total = product(dims, 0, dims.size());
  if (infer_at >= 0) {
    if (known == 0 || total % known)
      mismatch(n, "cannot reshape " + std::to_string(total) + " elements");
    shape[infer_at] = total / known;
  } else if (known != total) {
    mismatch(n,
             "cannot reshape " + std::to_string(total) + " elements into " + std::to_string(known));
  }
  c.view(in(n, 0), out(n, 0), shape);
}

void lower_flatten(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  int64_t axis = attr_i(n, "axis", 1);
  if (axis < 0) axis += static_cast<int64_t>(dims.size());
  if (axis < 0 || axis > static_cast<int64_t>(dims.size())) mismatch(n, "axis out of range");
  c.view(in(n, 0), out(n, 0), {product(dims, 0, axis), product(dims, axis, dims.size())});
}

void lower_squeeze(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  std::vector<int64_t> axes = c.opset() < 13 ? attr_ints(n, "axes", {})
                                             : (in(n, 1) >= 0 ? const_ints(n, c, in(n, 1), "axes")
                                                              : std::vector<int64_t>{});
  std::vector<bool> drop(dims.size(), false);
  if (axes.empty()) {
    for (size_t i = 0; i < dims.size(); ++i) drop[i] = dims[i] == 1;
  } else {
    for (int64_t a : axes) {
      const int64_t k = norm_axis(n, a, dims.size());
      if (dims[k] != 1)
        mismatch(n,
                 "cannot squeeze dim " + std::to_string(k) + " of size " + std::to_string(dims[k]));
      drop[k] = true;
    }
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!drop[i]) shape.push_back(dims[i]);
  c.view(in(n, 0), out(n, 0), shape);
}

void lower_unsqueeze(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  std::vector<int64_t> axes =
      c.opset() < 13 ? attr_ints(n, "axes", {}) : const_ints(n, c, in(n, 1), "axes");
  const size_t rank = dims.size() + axes.size();
  std::vector<bool> inserted(rank, false);
  for (int64_t a : axes) inserted[norm_axis(n, a, rank)] = true;
  std::vector<int64_t> shape;
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i) shape.push_back(inserted[i] ? 1 : dims.at(next++));
  c.view(in(n, 0), out(n, 0), shape);
}

void lower_shape(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  const int64_t r = static_cast<int64_t>(dims.size());
  int64_t start = attr_i(n, "start", 0), end = attr_i(n, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, start, r);
  c.define_constant(out(n, 0),
                    int64_tensor(std::vector<int64_t>(dims.begin() + start, dims.begin() + end)));
}

void lower_size(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  c.define_constant(out(n, 0), int64_tensor({product(dims, 0, dims.size())}, true));
}

// ---- data movement --------------------------------------------------------------------------

void lower_transpose(const Node &n, LoweringContext &c) {
  const size_t rank = c.desc(in(n, 0)).dims.size();
  std::vector<int64_t> perm;
  for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
  perm = attr_ints(n, "perm", perm);
  c.op("TransposeD", {in(n, 0)}, {out(n, 0)}, {{"perm", perm}});
}

void lower_concat(const Node &n, LoweringContext &c) {
  const size_t rank = c.desc(in(n, 0)).dims.size();
  const int64_t axis = norm_axis(n, attr_i(n, "axis", 0), rank);
  c.op("ConcatD", n.inputs, {out(n, 0)},
       {{"concat_dim", axis}, {"N", static_cast<int64_t>(n.inputs.size())}});
}

void lower_slice(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  const size_t rank = dims.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() < 10) {
    starts = attr_ints(n, "starts", {});
    ends = attr_ints(n, "ends", {});
    axes = attr_ints(n, "axes", {});
  } else {
    starts = const_ints(n, c, in(n, 1), "starts");
    ends = const_ints(n, c, in(n, 2), "ends");
    if (in(n, 3) >= 0) axes = const_ints(n, c, in(n, 3), "axes");
    if (in(n, 4) >= 0) steps = const_ints(n, c, in(n, 4), "steps");
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    mismatch(n, "starts, ends, axes and steps differ in length");
  std::vector<int64_t> begin(rank, 0), end(dims), stride(rank, 1);
  bool unit = true;
  for (size_t i = 0; i < starts.size(); ++i) {
    const int64_t a = norm_axis(n, axes[i], rank), d = dims[a];
    if (steps[i] <= 0) unsupported(n, "a step of " + std::to_string(steps[i]));
    int64_t s = starts[i] < 0 ? starts[i] + d : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + d : ends[i];
    begin[a] = std::clamp<int64_t>(s, 0, d);
    end[a] = std::clamp<int64_t>(e, begin[a], d);
    stride[a] = steps[i];
    unit = unit && steps[i] == 1;
  }
  if (unit) {
    std::vector<int64_t> size(rank);
    for (size_t a = 0; a < rank; ++a) size[a] = end[a] - begin[a];
    return c.op("SliceD", {in(n, 0)}, {out(n, 0)}, {{"offsets", begin}, {"size", size}});
  }
  c.op("StridedSliceD", {in(n, 0)}, {out(n, 0)},
       {{"begin", begin}, {"end", end}, {"strides", stride}});
}

void lower_gather(const Node &n, LoweringContext &c) {
  const int64_t axis = norm_axis(n, attr_i(n, "axis", 0), c.desc(in(n, 0)).dims.size());
  c.op("GatherV2D", {in(n, 0), in(n, 1)}, {out(n, 0)}, {{"axis", axis}});
}

void lower_split(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  const int64_t axis = norm_axis(n, attr_i(n, "axis", 0), dims.size());
  std::vector<int64_t> sizes = c.opset() < 13 ? attr_ints(n, "split", {})
                                              : (in(n, 1) >= 0 ? const_ints(n, c, in(n, 1), "split")
                                                               : std::vector<int64_t>{});
  const auto k = static_cast<int64_t>(n.outputs.size());
  if (sizes.empty()) {
    // Opset 18 (num_outputs) allows a shorter last chunk; before, the split must be even.
    const int64_t chunk = (dims[axis] + k - 1) / k;
    if (dims[axis] % k && (c.opset() < 18 || chunk * (k - 1) >= dims[axis]))
      mismatch(n, "dim " + std::to_string(dims[axis]) + " does not split in " + std::to_string(k));
    sizes.assign(k, chunk);
    sizes.back() = dims[axis] - chunk * (k - 1);
  }
  std::vector<int> outs;
  for (int o : n.outputs) outs.push_back(o >= 0 ? o : c.temporary());
  c.op("SplitVD", {in(n, 0)}, outs,
       {{"size_splits", sizes}, {"split_dim", axis}, {"num_split", k}});
}

void lower_expand(const Node &n, LoweringContext &c) {
  const_ints(n, c, in(n, 1), "the target shape");
  c.op("Expand", {in(n, 0), in(n, 1)}, {out(n, 0)}, {});
}

void lower_tile(const Node &n, LoweringContext &c) {
  c.op("TileD", {in(n, 0)}, {out(n, 0)}, {{"multiples", const_ints(n, c, in(n, 1), "repeats")}});
}

void lower_where(const Node &n, LoweringContext &c) {
  c.op("Select", {in(n, 0), in(n, 1), in(n, 2)}, {out(n, 0)}, {});
}

// ---- neural-network ops ---------------------------------------------------------------------

struct Window {
  std::vector<int64_t> strides, pads, dilations;  // Ascend layouts (4 entries)
};

Window window(const Node &n) {
  const auto s = attr_ints(n, "strides", {1, 1});
  const auto p = attr_ints(n, "pads", {0, 0, 0, 0});
  const auto d = attr_ints(n, "dilations", {1, 1});
  if (s.size() != 2 || p.size() != 4 || d.size() != 2) unsupported(n, "a window that is not 2-D");
  return {{1, 1, s[0], s[1]}, {p[0], p[2], p[1], p[3]}, {1, 1, d[0], d[1]}};
}

void require_4d(const Node &n, LoweringContext &c) {
  if (c.desc(in(n, 0)).dims.size() != 4)
    unsupported(
        n, "a rank-" + std::to_string(c.desc(in(n, 0)).dims.size()) + " input (only 2-D NCHW)");
}

// A 1-D convolution ([N, C, L]) runs as a 2-D one over [N, C, 1, L].
void lower_conv1d(const Node &n, LoweringContext &c) {
  const auto s = attr_ints(n, "strides", {1});
  const auto p = attr_ints(n, "pads", {0, 0});
  const auto d = attr_ints(n, "dilations", {1});
  if (s.size() != 1 || p.size() != 2 || d.size() != 1)
    mismatch(n, "a 1-D convolution needs 1-D strides, dilations and pads");
  const auto x = c.desc(in(n, 0)).dims, f = c.desc(in(n, 1)).dims;
  if (f.size() != 3) mismatch(n, "the filter of a 1-D convolution is not 3-D");
  const int x4 = c.temporary(), f4 = c.temporary(), y4 = c.temporary();
  c.view(in(n, 0), x4, {x[0], x[1], 1, x[2]});
  c.view(in(n, 1), f4, {f[0], f[1], 1, f[2]});
  ops::Attrs a{{"strides", std::vector<int64_t>{1, 1, 1, s[0]}},
               {"pads", std::vector<int64_t>{0, 0, p[0], p[1]}},
               {"dilations", std::vector<int64_t>{1, 1, 1, d[0]}},
               {"groups", attr_i(n, "group", 1)},
               {"data_format", std::string("NCHW")}};
  const std::string pad = attr_s(n, "auto_pad", "NOTSET");
  if (pad != "NOTSET") a["auto_pad"] = pad;
  std::vector<int> ins{x4, f4};
  if (in(n, 2) >= 0) ins.push_back(in(n, 2));
  c.op("Conv2D", ins, {y4}, std::move(a));
  const auto y = c.desc(y4).dims;
  c.view(y4, out(n, 0), {y[0], y[1], y[3]});
}

void lower_conv(const Node &n, LoweringContext &c) {
  if (c.desc(in(n, 0)).dims.size() == 3) return lower_conv1d(n, c);
  require_4d(n, c);
  const Window w = window(n);
  ops::Attrs a{{"strides", w.strides},
               {"pads", w.pads},
               {"dilations", w.dilations},
               {"groups", attr_i(n, "group", 1)},
               {"data_format", std::string("NCHW")}};
  const std::string pad = attr_s(n, "auto_pad", "NOTSET");
  if (pad != "NOTSET") a["auto_pad"] = pad;
  std::vector<int> ins{in(n, 0), in(n, 1)};
  if (in(n, 2) >= 0) ins.push_back(in(n, 2));
  c.op("Conv2D", ins, {out(n, 0)}, std::move(a));
}

// ---- generators and padding ---------------------------------------------------------------

// Pad, constant mode: pads are [begin of each axis..., end of each axis...] (opset 18: of
// the listed axes only).
void lower_pad(const Node &n, LoweringContext &c) {
  const std::string mode = attr_s(n, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    unsupported(n, "mode '" + mode + "' ('constant', 'reflect' and 'edge' are)");
  }
  const auto x = c.desc(in(n, 0));
  const auto rank = static_cast<int64_t>(x.dims.size());
  std::vector<int64_t> pads;
  int value = -1;
  if (c.opset() < 11) {
    pads = attr_ints(n, "pads", {});
    const float v = attr_f(n, "value", 0.0f);
    if (v != 0.0f) {
      if (x.dtype != DType::f32) unsupported(n, "a non-zero 'value' on a non-float tensor");
      value = c.constant_value(float_scalar(v));
    }
  } else {
    pads = const_ints(n, c, in(n, 1), "pads");
    if (!is_empty_tensor(c, in(n, 2))) value = in(n, 2);
    if (in(n, 3) >= 0) {  // axes
      const auto axes = const_ints(n, c, in(n, 3), "axes");
      if (pads.size() != 2 * axes.size()) mismatch(n, "pads must have 2 entries per axis");
      std::vector<int64_t> full(2 * rank, 0);
      for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t a = norm_axis(n, axes[k], x.dims.size());
        full[a] = pads[k];
        full[rank + a] = pads[axes.size() + k];
      }
      pads = std::move(full);
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    mismatch(n, "pads has " + std::to_string(pads.size()) + " entries; the input has rank " +
                    std::to_string(rank));
  for (int64_t p : pads)
    if (p < 0) unsupported(n, "negative pads (cropping)");
  std::vector<int> ins{in(n, 0), c.constant_value(int64_tensor(pads))};
  if (value >= 0) ins.push_back(value);
  c.op("PadV3", ins, {out(n, 0)}, {{"paddings_contiguous", false}, {"mode", mode}});
}

// ConstantOfShape and Range are computed at planning time: their inputs are shapes or
// constants (a device-computed input is reported as unsupported).
void lower_constant_of_shape(const Node &n, LoweringContext &c) {
  const auto dims = const_ints(n, c, in(n, 0), "the shape");
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->desc.dims = dims;
  std::vector<uint8_t> one(4, 0);
  if (const auto *v = find_attr<std::vector<uint8_t>>(n, "value")) {
    t->desc.dtype = *find_attr<DType>(n, "value:dtype");
    one = *v;
    if (one.size() != ops::dtype_size(t->desc.dtype)) mismatch(n, "'value' must hold one element");
  }
  const auto count = static_cast<size_t>(t->desc.element_count());
  t->data.resize(count * one.size());
  for (size_t i = 0; i < count; ++i)
    std::copy(one.begin(), one.end(),
              t->data.begin() + static_cast<std::ptrdiff_t>(i * one.size()));
  t->desc.format = dims.size() == 4 ? ops::Format::nchw : ops::Format::nd;
  c.define_constant(out(n, 0), std::move(t));
}

template <class T>
std::shared_ptr<HostTensor> range_of(T start, T limit, T delta, DType dtype) {
  const double steps = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) /
                                 static_cast<double>(delta));
  const auto count = static_cast<int64_t>(std::max(0.0, steps));
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = dtype;
  t->desc.dims = {count};
  t->data.resize(static_cast<size_t>(count) * sizeof(T));
  auto *p = reinterpret_cast<T *>(t->data.data());
  for (int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(start + static_cast<T>(i) * delta);
  return t;
}

void lower_range(const Node &n, LoweringContext &c) {
  const HostTensor *s = c.constant(in(n, 0)), *l = c.constant(in(n, 1)), *d = c.constant(in(n, 2));
  if (!s || !l || !d)
    unsupported(n, "inputs computed on the device (they must be constants or come from shapes)");
  const DType t = s->desc.dtype;
  if (l->desc.dtype != t || d->desc.dtype != t)
    mismatch(n, "start, limit and delta must have one type");
  if (t == DType::f32 || t == DType::f64) {
    const auto sv = s->to_floats(), lv = l->to_floats(), dv = d->to_floats();
    if (dv.at(0) == 0.0f) mismatch(n, "delta is 0");
    return c.define_constant(out(n, 0), t == DType::f32
                                            ? range_of<float>(sv.at(0), lv.at(0), dv.at(0), t)
                                            : range_of<double>(sv.at(0), lv.at(0), dv.at(0), t));
  }
  if (t != DType::i32 && t != DType::i64) unsupported(n, std::string("type ") + ops::dtype_name(t));
  const auto sv = s->to_ints(), lv = l->to_ints(), dv = d->to_ints();
  if (dv.at(0) == 0) mismatch(n, "delta is 0");
  c.define_constant(out(n, 0), t == DType::i64
                                   ? range_of<int64_t>(sv.at(0), lv.at(0), dv.at(0), t)
                                   : range_of<int32_t>(static_cast<int32_t>(sv.at(0)),
                                                       static_cast<int32_t>(lv.at(0)),
                                                       static_cast<int32_t>(dv.at(0)), t));
}

void lower_conv_transpose(const Node &n, LoweringContext &c);

// A 1-D transposed convolution as a 2-D one of height 1.
void lower_conv_transpose1d(const Node &n, LoweringContext &c) {
  const auto x = c.desc(in(n, 0)).dims, f = c.desc(in(n, 1)).dims;
  if (f.size() != 3) mismatch(n, "the filter of a 1-D transposed convolution is not 3-D");
  auto one = [&](const char *name, std::vector<int64_t> dflt) {
    const auto v = attr_ints(n, name, dflt);
    if (v.size() != dflt.size())
      mismatch(n, std::string("a 1-D transposed convolution needs 1-D ") + name);
    return v;
  };
  const auto s = one("strides", {1}), d = one("dilations", {1}), p = one("pads", {0, 0}),
             op = one("output_padding", {0});
  Node n2 = n;
  n2.inputs[0] = c.temporary();
  n2.inputs[1] = c.temporary();
  c.view(in(n, 0), n2.inputs[0], {x[0], x[1], 1, x[2]});
  c.view(in(n, 1), n2.inputs[1], {f[0], f[1], 1, f[2]});
  n2.attrs["strides"] = std::vector<int64_t>{1, s[0]};
  n2.attrs["dilations"] = std::vector<int64_t>{1, d[0]};
  n2.attrs["pads"] = std::vector<int64_t>{0, p[0], 0, p[1]};
  n2.attrs["output_padding"] = std::vector<int64_t>{0, op[0]};
  n2.attrs.erase("kernel_shape");
  const int y4 = c.temporary();
  n2.outputs = {y4};
  lower_conv_transpose(n2, c);
  const auto y = c.desc(y4).dims;
  c.view(y4, out(n, 0), {y[0], y[1], y[3]});
}

void lower_conv_transpose(const Node &n, LoweringContext &c) {
  if (c.desc(in(n, 0)).dims.size() == 3) return lower_conv_transpose1d(n, c);
  require_4d(n, c);
  if (attr_s(n, "auto_pad", "NOTSET") != "NOTSET") unsupported(n, "auto_pad");
  if (has_attr(n, "output_shape")) unsupported(n, "output_shape");
  const Window w = window(n);
  const auto op = attr_ints(n, "output_padding", {0, 0});
  const int64_t groups = attr_i(n, "group", 1);
  const auto x = c.desc(in(n, 0)).dims;
  const auto f = c.desc(in(n, 1)).dims;
  if (f.size() != 4) mismatch(n, "the filter is not 4-D");
  auto extent = [&](int i) {  // i: 0 = H, 1 = W
    const int64_t k = (f[2 + i] - 1) * w.dilations[2 + i] + 1;
    return w.strides[2 + i] * (x[2 + i] - 1) + op[i] + k - w.pads[2 * i] - w.pads[2 * i + 1];
  };
  const int size = c.constant_value(int64_tensor({x[0], f[1] * groups, extent(0), extent(1)}));
  std::vector<int> ins{size, in(n, 0), in(n, 1)};
  if (in(n, 2) >= 0) ins.push_back(in(n, 2));
  c.op("Conv2DTranspose", ins, {out(n, 0)},
       {{"strides", w.strides},
        {"pads", w.pads},
        {"dilations", w.dilations},
        {"groups", groups},
        {"data_format", std::string("NCHW")},
        {"output_padding", std::vector<int64_t>{0, 0, op[0], op[1]}}});
}

void lower_batch_norm(const Node &n, LoweringContext &c) {
  only_first_output(n);
  if (attr_i(n, "training_mode", 0) != 0) unsupported(n, "training mode");
  c.op("BatchNorm", {in(n, 0), in(n, 1), in(n, 2), in(n, 3), in(n, 4)}, {out(n, 0)},
       {{"epsilon", attr_f(n, "epsilon", 1e-5f)}, {"data_format", std::string("NCHW")}});
}

void lower_pool(const Node &n, LoweringContext &c, bool is_max) {
  require_4d(n, c);
  only_first_output(n);
  const auto k = attr_ints(n, "kernel_shape", {});
  if (k.size() != 2) unsupported(n, "a pooling window that is not 2-D");
  const Window w = window(n);
  if (w.dilations[2] != 1 || w.dilations[3] != 1) unsupported(n, "dilated pooling");
  const std::string pad = attr_s(n, "auto_pad", "NOTSET");
  std::string mode = "CALCULATED";
  if (pad == "VALID") mode = "VALID";
  else if (pad == "SAME_UPPER") mode = "SAME";
  else if (pad != "NOTSET") unsupported(n, "auto_pad " + pad);
  ops::Attrs a{{"ksize", std::vector<int64_t>{1, 1, k[0], k[1]}},
               {"strides", w.strides},
               {"padding_mode", mode},
               {"pads", w.pads},
               {"data_format", std::string("NCHW")},
               {"ceil_mode", attr_i(n, "ceil_mode", 0) != 0}};
  if (!is_max) a["exclusive"] = attr_i(n, "count_include_pad", 0) == 0;
  c.op(is_max ? "MaxPoolV3" : "AvgPoolV2", {in(n, 0)}, {out(n, 0)}, std::move(a));
}

void lower_resize(const Node &n, LoweringContext &c) {
  require_4d(n, c);
  std::string mode = attr_s(n, "mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    unsupported(n, "mode '" + mode + "'");
  int scales = -1, sizes = -1;
  std::string coord, nearest;
  if (c.opset() < 11) {
    scales = in(n, 1);
    coord = "asymmetric";
    nearest = "floor";
  } else {
    scales = in(n, 2);
    sizes = in(n, 3);
    coord = attr_s(n, "coordinate_transformation_mode", "half_pixel");
    nearest = attr_s(n, "nearest_mode", "round_prefer_floor");
    if (coord == "tf_crop_and_resize")
      unsupported(n, "coordinate_transformation_mode tf_crop_and_resize");
    if (attr_i(n, "exclude_outside", 0) != 0 && mode != "cubic")
      unsupported(n, "exclude_outside outside cubic mode");
    if (attr_i(n, "antialias", 0) != 0) unsupported(n, "antialias");
    if (has_attr(n, "axes")) unsupported(n, "axes");
    if (attr_s(n, "keep_aspect_ratio_policy", "stretch") != "stretch")
      unsupported(n, "keep_aspect_ratio_policy");
  }
  if (is_empty_tensor(c, scales)) scales = -1;
  if (is_empty_tensor(c, sizes)) sizes = -1;
  for (int v : {scales, sizes})
    if (v >= 0 && !c.constant(v))
      unsupported(n, "scales or sizes computed on the device (they must be constants)");
  if (scales < 0 && sizes < 0) mismatch(n, "neither scales nor sizes is given");
  std::vector<int> ins{in(n, 0), -1, scales};
  if (sizes >= 0) ins.push_back(sizes);
  ops::Attrs attrs{
      {"mode", mode}, {"coordinate_transformation_mode", coord}, {"nearest_mode", nearest}};
  if (mode == "cubic") {
    attrs["cubic_coeff_a"] = attr_f(n, "cubic_coeff_a", -0.75f);
    attrs["exclude_outside"] = attr_i(n, "exclude_outside", 0);
  }
  c.op("Resize", ins, {out(n, 0)}, std::move(attrs));
}

// Upsample (opsets 7 to 9) is Resize of opset 10; opsets 7 and 8 give the scales as an attribute.
void lower_upsample(const Node &n, LoweringContext &c) {
  if (c.opset() >= 9) return lower_resize(n, c);
  const auto scales = find_attr<std::vector<float>>(n, "scales");
  if (!scales) mismatch(n, "the 'scales' attribute is missing");
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->desc.dims = {static_cast<int64_t>(scales->size())};
  t->data.resize(scales->size() * sizeof(float));
  std::memcpy(t->data.data(), scales->data(), t->data.size());
  Node with_input = n;
  with_input.inputs.resize(1);
  with_input.inputs.push_back(c.constant_value(std::move(t)));
  lower_resize(with_input, c);
}

Lower reduce(const char *type, int64_t axes_input_from) {
  return [type, axes_input_from](const Node &n, LoweringContext &c) {
    std::vector<int64_t> axes;
    if (c.opset() >= axes_input_from) {
      if (in(n, 1) >= 0) axes = const_ints(n, c, in(n, 1), "axes");
      if (axes.empty() && attr_i(n, "noop_with_empty_axes", 0) != 0)
        return c.view(in(n, 0), out(n, 0), c.desc(in(n, 0)).dims);
    } else {
      axes = attr_ints(n, "axes", {});
    }
    c.op(type, {in(n, 0)}, {out(n, 0)},
         {{"axes", axes}, {"keep_dims", attr_i(n, "keepdims", 1) != 0}});
  };
}

void lower_matmul(const Node &n, LoweringContext &c) {
  const size_t ra = c.desc(in(n, 0)).dims.size(), rb = c.desc(in(n, 1)).dims.size();
  if (ra < 2 || rb < 2) unsupported(n, "a 1-D operand");
  c.op(ra == 2 && rb == 2 ? "MatMul" : "BatchMatMulV2", {in(n, 0), in(n, 1)}, {out(n, 0)}, {});
}

void lower_gemm(const Node &n, LoweringContext &c) {
  const float alpha = attr_f(n, "alpha", 1.0f), beta = attr_f(n, "beta", 1.0f);
  const bool has_c = in(n, 2) >= 0 && beta != 0.0f;
  int y = alpha == 1.0f && !has_c ? out(n, 0) : c.temporary();
  c.op("MatMul", {in(n, 0), in(n, 1)}, {y},
       {{"transpose_x1", attr_i(n, "transA", 0) != 0},
        {"transpose_x2", attr_i(n, "transB", 0) != 0}});
  if (alpha != 1.0f) {
    int scaled = has_c ? c.temporary() : out(n, 0);
    c.op("Mul", {y, c.constant_value(float_scalar(alpha))}, {scaled}, {});
    y = scaled;
  }
  if (has_c) {
    int bias = in(n, 2);
    if (beta != 1.0f) {
      bias = c.temporary();
      c.op("Mul", {in(n, 2), c.constant_value(float_scalar(beta))}, {bias}, {});
    }
    c.op("Add", {y, bias}, {out(n, 0)}, {});
  }
}

Lower softmax(const char *type) {
  return [type](const Node &n, LoweringContext &c) {
    const auto dims = c.desc(in(n, 0)).dims;
    const int64_t axis = norm_axis(n, attr_i(n, "axis", c.opset() < 13 ? 1 : -1), dims.size());
    if (c.opset() >= 13 || axis == static_cast<int64_t>(dims.size()) - 1)
      return c.op(type, {in(n, 0)}, {out(n, 0)}, {{"axes", std::vector<int64_t>{axis}}});
    // Before opset 13 the input is seen as 2-D [prod(dims[:axis]), prod(dims[axis:])].
    const int flat = c.temporary(), result = c.temporary();
    c.view(in(n, 0), flat, {product(dims, 0, axis), product(dims, axis, dims.size())});
    c.op(type, {flat}, {result}, {{"axes", std::vector<int64_t>{1}}});
    c.view(result, out(n, 0), dims);
  };
}

void lower_layer_norm(const Node &n, LoweringContext &c) {
  only_first_output(n);
  const int64_t axis = norm_axis(n, attr_i(n, "axis", -1), c.desc(in(n, 0)).dims.size());
  int beta = in(n, 2);
  if (beta < 0) {
    auto zeros = std::make_shared<HostTensor>();
    zeros->desc = c.desc(in(n, 1));
    zeros->desc.value.clear();
    zeros->data.assign(zeros->desc.byte_size(), 0);
    beta = c.constant_value(zeros);
  }
  c.op("LayerNorm", {in(n, 0), in(n, 1), beta}, {out(n, 0)},
       {{"begin_norm_axis", axis},
        {"begin_params_axis", axis},
        {"epsilon", attr_f(n, "epsilon", 1e-5f)}});
}

void lower_argmax(const Node &n, LoweringContext &c) {
  const auto dims = c.desc(in(n, 0)).dims;
  const int64_t axis = norm_axis(n, attr_i(n, "axis", 0), dims.size());
  const bool keep = attr_i(n, "keepdims", 1) != 0;
  const int y = keep ? c.temporary() : out(n, 0);
  c.op(n.op == "ArgMax" ? "ArgMaxD" : "ArgMinD", {in(n, 0)}, {y},
       {{"dimension", axis},
        {"dtype", DType::i64},
        {"select_last_index", attr_i(n, "select_last_index", 0) != 0}});
  if (keep) {
    std::vector<int64_t> shape = dims;
    shape[axis] = 1;
    c.view(y, out(n, 0), shape);
  }
}

const std::unordered_map<std::string, Lower> &table() {
  static const std::unordered_map<std::string, Lower> t = [] {
    std::unordered_map<std::string, Lower> m;
    for (const char *op : {"Add", "Sub", "Mul", "Equal", "Less", "Greater"}) m[op] = binary(op);
    m["Pow"] = lower_pow;
    m["Div"] = lower_div;
    m["LessOrEqual"] = binary("LessEqual");
    m["GreaterOrEqual"] = binary("GreaterEqual");
    m["And"] = binary("LogicalAnd");
    m["BitwiseAnd"] = binary("BitwiseAnd");
    m["BitwiseOr"] = binary("BitwiseOr");
    m["BitwiseXor"] = binary("BitwiseXor");
    m["BitwiseNot"] = unary("Invert");
    m["Or"] = binary("LogicalOr");
    m["Not"] = unary("LogicalNot");
    m["Max"] = variadic("Maximum");
    m["Min"] = variadic("Minimum");
    m["Sum"] = variadic("Add");
    for (const char *op :
         {"Relu",  "Sigmoid", "Tanh",  "Exp",  "Log",  "Sqrt", "Neg",      "Abs",   "Reciprocal",
          "Floor", "Ceil",    "Round", "Sin",  "Cos",  "Erf",  "Softplus", "Sign",  "HardSwish",
          "Tan",   "Asin",    "Acos",  "Atan", "Sinh", "Cosh", "Asinh",    "Acosh", "Atanh"})
      m[op] = unary(op);
    m["HardSigmoid"] = lower_hard_sigmoid;
    m["LeakyRelu"] = lower_leaky_relu;
    m["Elu"] = lower_elu;
    m["Clip"] = lower_clip;
    m["Cast"] = lower_cast;
    m["Identity"] = lower_identity;
    m["Dropout"] = lower_identity;
    m["Reshape"] = lower_reshape;
    m["Flatten"] = lower_flatten;
    m["Squeeze"] = lower_squeeze;
    m["Unsqueeze"] = lower_unsqueeze;
    m["Shape"] = lower_shape;
    m["Size"] = lower_size;
    m["Transpose"] = lower_transpose;
    m["Concat"] = lower_concat;
    m["Slice"] = lower_slice;
    m["Gather"] = lower_gather;
    m["Split"] = lower_split;
    m["Expand"] = lower_expand;
    m["Tile"] = lower_tile;
    m["Where"] = lower_where;
    m["Conv"] = lower_conv;
    m["Pad"] = lower_pad;
    m["ConstantOfShape"] = lower_constant_of_shape;
    m["Range"] = lower_range;
    m["ConvTranspose"] = lower_conv_transpose;
    m["BatchNormalization"] = lower_batch_norm;
    m["MaxPool"] = [](const Node &n, LoweringContext &c) { lower_pool(n, c, true); };
    m["AveragePool"] = [](const Node &n, LoweringContext &c) { lower_pool(n, c, false); };
    m["GlobalAveragePool"] = unary("GlobalAveragePool");
    m["GlobalMaxPool"] = unary("GlobalMaxPool");
    m["Resize"] = lower_resize;
    m["Upsample"] = lower_upsample;
    m["ReduceMean"] = reduce("ReduceMeanD", 18);
    m["ReduceSum"] = reduce("ReduceSumD", 13);
    m["ReduceMax"] = reduce("ReduceMaxD", 18);
    m["ReduceMin"] = reduce("ReduceMinD", 18);
    m["ReduceProd"] = reduce("ReduceProdD", 18);
    m["MatMul"] = lower_matmul;
    m["Gemm"] = lower_gemm;
    m["Softmax"] = softmax("SoftmaxV2");
    m["LogSoftmax"] = softmax("LogSoftmaxV2");
    m["LayerNormalization"] = lower_layer_norm;
    m["ArgMax"] = lower_argmax;
    m["ArgMin"] = lower_argmax;
    add_composite_lowerings(m);
    add_index_lowerings(m);
    add_quant_lowerings(m);
    add_rnn_lowerings(m);
    add_einsum_lowering(m);
    add_norm_lowerings(m);
    add_attention_lowering(m);
    return m;
  }();
  return t;
}

}  // namespace

bool is_supported_onnx_op(const std::string &onnx_op) {
  return onnx_op == "Constant" || table().count(onnx_op);
}

void lower(const Node &node, LoweringContext &ctx) {
  auto it = table().find(node.op);
  if (it == table().end())
    fail(Errc::model_unsupported_op, "the model uses op '" + node.op + "' (node '" + node.name +
                                         "'), which openacl does not support");
  it->second(node, ctx);
}

}  // namespace openacl::model
