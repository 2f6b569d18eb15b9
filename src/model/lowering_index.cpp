// ONNX ops that address elements by index or position, onto ops/index.cpp and friends: CumSum,
// GatherElements, ScatterElements (and its old name Scatter), GatherND, ScatterND, OneHot, TopK,
// Trilu, Hardmax, GridSample, EyeLike.
#include <cstring>

#include "model/lowering_util.h"
#include "model/plan.h"

namespace openacl::model::lowering_util {
namespace {

// The single integer of a constant scalar (or 1-element) input.
int64_t const_scalar(const Node &n, LoweringContext &c, int v, const std::string &what) {
  const auto ints = const_ints(n, c, v, what);
  if (ints.size() != 1) mismatch(n, what + " must hold one value");
  return ints[0];
}

void lower_cumsum(const Node &n, LoweringContext &c) {
  c.op("CumsumD", {in(n, 0)}, {out(n, 0)},
       {{"axis", const_scalar(n, c, in(n, 1), "the axis")},
        {"exclusive", attr_i(n, "exclusive", 0) != 0},
        {"reverse", attr_i(n, "reverse", 0) != 0}});
}

void lower_gather_elements(const Node &n, LoweringContext &c) {
  c.op("GatherElements", {in(n, 0), in(n, 1)}, {out(n, 0)}, {{"dim", attr_i(n, "axis", 0)}});
}

void lower_scatter_elements(const Node &n, LoweringContext &c) {
  const std::string reduction = attr_s(n, "reduction", "none");
  if (reduction != "none" && reduction != "add")
    unsupported(n, "reduction '" + reduction + "' (none and add are)");
  c.op("ScatterElements", {in(n, 0), in(n, 1), in(n, 2)}, {out(n, 0)},
       {{"axis", attr_i(n, "axis", 0)}, {"reduction", reduction}});
}

void lower_gather_nd(const Node &n, LoweringContext &c) {
  if (attr_i(n, "batch_dims", 0) != 0) unsupported(n, "batch_dims other than 0");
  c.op("GatherNd", {in(n, 0), in(n, 1)}, {out(n, 0)}, {});
}

void lower_scatter_nd(const Node &n, LoweringContext &c) {
  const std::string reduction = attr_s(n, "reduction", "none");
  if (reduction != "none" && reduction != "add")
    unsupported(n, "reduction '" + reduction + "' (none and add are)");
  c.op(reduction == "add" ? "TensorScatterAdd" : "TensorScatterUpdate",
       {in(n, 0), in(n, 1), in(n, 2)}, {out(n, 0)}, {});
}

// values = [off, on] must be a constant: its two elements become the op's scalar inputs.
void lower_one_hot(const Node &n, LoweringContext &c) {
  const HostTensor *values = c.constant(in(n, 2));
  if (values == nullptr) unsupported(n, "'values' computed on the device (it must be a constant)");
  if (values->desc.element_count() != 2) mismatch(n, "'values' must hold two elements: off, on");
  const size_t e = ops::dtype_size(values->desc.dtype);
  auto element = [&](size_t i) {
    auto t = std::make_shared<HostTensor>();
    t->desc.dtype = values->desc.dtype;
    t->data.assign(values->data.begin() + static_cast<std::ptrdiff_t>(i * e),
                   values->data.begin() + static_cast<std::ptrdiff_t>((i + 1) * e));
    return c.constant_value(t);
  };
  int indices = in(n, 0);
  const DType it = c.desc(indices).dtype;
  if (it != DType::i32 && it != DType::i64) {
    const int cast = c.temporary();
    c.op("Cast", {indices}, {cast}, {{"dst_type", DType::i64}});
    indices = cast;
  }
  const HostTensor *d = c.constant(in(n, 1));
  if (d == nullptr) unsupported(n, "a depth computed on the device (it must be a constant)");
  if (d->desc.element_count() != 1) mismatch(n, "the depth must hold one value");
  const bool float_depth = d->desc.dtype == DType::f32 || d->desc.dtype == DType::f64;
  const auto depth_value = float_depth ? static_cast<int64_t>(d->to_floats()[0]) : d->to_ints()[0];
  const int depth = c.constant_value(int64_tensor({depth_value}, true));
  c.op("OneHot", {indices, depth, element(1), element(0)}, {out(n, 0)},
       {{"axis", attr_i(n, "axis", -1)}});
}

void lower_top_k(const Node &n, LoweringContext &c) {
  const int64_t k = c.opset() < 10 ? attr_i(n, "k", -1) : const_scalar(n, c, in(n, 1), "K");
  if (k < 0) mismatch(n, "k is negative or missing");
  const int kv = c.constant_value(int64_tensor({k}, true));
  const int values = out(n, 0) >= 0 ? out(n, 0) : c.temporary();
  const int indices = out(n, 1) >= 0 ? out(n, 1) : c.temporary();
  c.op("TopKV2", {in(n, 0), kv}, {values, indices},
       {{"dim", attr_i(n, "axis", -1)},
        {"largest", attr_i(n, "largest", 1) != 0},
        {"sorted", attr_i(n, "sorted", 1) != 0},
        {"indices_dtype", DType::i64}});
}

// Hardmax: a one-hot of the first maximum along axis (opset 13; before it, along the flattened
// dims from axis on).
void lower_hardmax(const Node &n, LoweringContext &c) {
  require_f32(n, c, in(n, 0));
  const auto dims = c.desc(in(n, 0)).dims;
  int64_t axis = norm_axis(n, attr_i(n, "axis", c.opset() < 13 ? 1 : -1), dims.size());
  int x = in(n, 0);
  if (c.opset() < 13) {
    x = c.temporary();
    c.view(in(n, 0), x,
           {product(dims, 0, static_cast<size_t>(axis)),
            product(dims, static_cast<size_t>(axis), dims.size())});
    axis = 1;
  }
  const int64_t depth = c.desc(x).dims[static_cast<size_t>(axis)];
  const int best = c.temporary();
  c.op("ArgMaxD", {x}, {best}, {{"dimension", axis}, {"dtype", DType::i64}});
  const int hot = c.temporary();
  c.op("OneHot",
       {best, c.constant_value(int64_tensor({depth}, true)), c.constant_value(float_scalar(1.0f)),
        c.constant_value(float_scalar(0.0f))},
       {hot}, {{"axis", axis}});
  c.view(hot, out(n, 0), dims);
}

// GridSample (opsets 16 and 20: modes "bilinear"/"linear" and "nearest"; 4-D only).
void lower_grid_sample(const Node &n, LoweringContext &c) {
  std::string mode = attr_s(n, "mode", c.opset() < 20 ? "bilinear" : "linear");
  if (mode == "linear") mode = "bilinear";
  if (mode != "bilinear" && mode != "nearest") unsupported(n, "mode '" + mode + "'");
  if (c.desc(in(n, 0)).dims.size() != 4) unsupported(n, "an input of rank other than 4");
  c.op("GridSampler2D", {in(n, 0), in(n, 1)}, {out(n, 0)},
       {{"interpolation_mode", mode},
        {"padding_mode", attr_s(n, "padding_mode", "zeros")},
        {"align_corners", attr_i(n, "align_corners", 0) != 0}});
}

// EyeLike: ones on diagonal k of a 2-D tensor of the input's shape; a constant when planning.
void lower_eye_like(const Node &n, LoweringContext &c) {
  const auto d = c.desc(in(n, 0)).dims;
  if (d.size() != 2) mismatch(n, "the input must be 2-D");
  const DType t = has_attr(n, "dtype") ? dtype_from_onnx(attr_i(n, "dtype", 1), where(n) + " dtype")
                                       : c.desc(in(n, 0)).dtype;
  const size_t e = ops::dtype_size(t);
  if (e == 0) unsupported(n, std::string("type ") + ops::dtype_name(t));
  auto one = std::make_shared<HostTensor>();
  one->desc.dtype = DType::f32;
  one->data.resize(sizeof(float));
  const float f = 1.0f;
  std::memcpy(one->data.data(), &f, sizeof f);
  auto eye = std::make_shared<HostTensor>();
  eye->desc.dtype = t;
  eye->desc.dims = d;
  eye->data.assign(static_cast<size_t>(d[0] * d[1]) * e, 0);
  std::vector<uint8_t> unit(e, 0);  // 1 in the target type, through the library's Cast
  ops::Tensor src{one->desc, one->data.data(), one->data.size()};
  ops::TensorDesc ud{t, {}, ops::Format::nd, {}};
  ops::Tensor dst{ud, unit.data(), unit.size()};
  ops::prepare(ops::host_kernels(), "Cast", {one->desc}, {ud}, {{"dst_type", t}}, 1)
      ->run({src}, {dst}, host_cores());
  const int64_t k = attr_i(n, "k", 0);
  for (int64_t i = 0; i < d[0]; ++i)
    if (const int64_t j = i + k; j >= 0 && j < d[1])
      std::memcpy(eye->data.data() + static_cast<size_t>(i * d[1] + j) * e, unit.data(), e);
  c.define_constant(out(n, 0), eye);
}

void lower_trilu(const Node &n, LoweringContext &c) {
  const int64_t k =
      in(n, 1) >= 0 && !is_empty_tensor(c, in(n, 1)) ? const_scalar(n, c, in(n, 1), "k") : 0;
  c.op(attr_i(n, "upper", 1) != 0 ? "Triu" : "Tril", {in(n, 0)}, {out(n, 0)}, {{"diagonal", k}});
}

}  // namespace

void add_index_lowerings(std::unordered_map<std::string, Lower> &m) {
  m["CumSum"] = lower_cumsum;
  m["GatherElements"] = lower_gather_elements;
  m["ScatterElements"] = lower_scatter_elements;
  m["Scatter"] = lower_scatter_elements;  // opset 9/10 name of ScatterElements
  m["GatherND"] = lower_gather_nd;
  m["ScatterND"] = lower_scatter_nd;
  m["OneHot"] = lower_one_hot;
  m["TopK"] = lower_top_k;
  m["Trilu"] = lower_trilu;
  m["Hardmax"] = lower_hardmax;
  m["GridSample"] = lower_grid_sample;
  m["EyeLike"] = lower_eye_like;
}

}  // namespace openacl::model::lowering_util
