// Reductions along dims: Softmax, LogSoftmax, ReduceSum, Mean, Norm, Cumsum, ArgMax, Argsort,
// SoftmaxCrossEntropyWithLogits, on the op library's SoftmaxV2, LogSoftmaxV2, ReduceSumD,
// ReduceMeanD, ReduceMaxD, CumsumD, ArgMaxD and TopKV2 kernels.
#include <cmath>
#include <cstring>
#include <utility>

#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

int64_t normalize_dim(const Planner &p, int64_t dim, size_t rank, const char *name) {
  const auto r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  if (dim < -r || dim >= r)
    p.invalid(std::string(name) + " " + std::to_string(dim) +
              " is out of range for a tensor of rank " + std::to_string(rank));
  return dim < 0 ? dim + r : dim;
}

void plan_softmax(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", {D::f32, D::f16, D::bf16});
  p.dtype_in(out, "out", {D::f32, D::f16, D::bf16});
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const int64_t dim = normalize_dim(p, p.i64(1), self.view.dims.size(), "dim");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  if (self.view.dims.empty()) {  // softmax of one value is 1
    aclScalar one;
    one.value = 1;
    one.int_value = 1;
    p.store(p.scalar_value(one, out.dtype), o);
    return;
  }
  p.store(p.op1("SoftmaxV2", {x}, {{"axes", std::vector<int64_t>{dim}}}), o);
}

// out = op (ReduceSumD, ReduceMeanD) of self over dim (all dims when empty), computed in dtype;
// self and out of the dtypes in ok.
void plan_reduction(Planner &p, const char *op, std::initializer_list<D> ok) {
  const aclTensor &self = p.tensor(0, "self");
  const aclIntArray &dims = p.int_array(1, "dim");
  const bool keep = p.flag(2);
  const auto dtype = static_cast<D>(p.i64(3));
  const aclTensor &out = p.tensor(4, "out");
  p.dtype_in(self, "self", ok);
  p.dtype_in(out, "out", ok);
  if (dtype != out.dtype)
    p.invalid(std::string("dtype is ") + ops::dtype_name(dtype) + " but out has dtype " +
              ops::dtype_name(out.dtype));
  const size_t rank = self.view.dims.size();
  std::vector<bool> reduced(rank, dims.values.empty());
  std::vector<int64_t> axes;
  for (int64_t d : dims.values) {
    const int64_t a = normalize_dim(p, d, rank, "dim");
    if (rank > 0 && reduced[a]) p.invalid("dim names dimension " + std::to_string(a) + " twice");
    if (rank > 0) reduced[a] = true;
    axes.push_back(a);
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i)
    if (!reduced[i] || keep) shape.push_back(reduced[i] ? 1 : self.view.dims[i]);
  // A reduction to one value may also go to a [1] tensor (CANN takes it; ggml passes one).
  const bool scalar_as_1d = shape.empty() && out.view.dims == std::vector<int64_t>{1};
  if (!scalar_as_1d) p.same_shape(out, "out", shape, "the reduced shape");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  if (rank == 0) {
    p.store(scalar_as_1d ? p.reshape(p.dense(x), {1}) : x, o);
    return;
  }
  const size_t r = p.op1(op, {p.cast(x, dtype)}, {{"axes", axes}, {"keep_dims", keep}});
  p.store(scalar_as_1d ? p.reshape(r, {1}) : r, o);
}

void plan_reduce_sum(Planner &p) {
  plan_reduction(p, "ReduceSumD", {D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8, D::u8});
}

void plan_mean(Planner &p) { plan_reduction(p, "ReduceMeanD", {D::f32, D::f16, D::bf16}); }

// out = the index of the largest element of self along dim (the first among equals).
void plan_arg_max(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const bool keep = p.flag(2);
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(self, "self", {D::f32, D::f16, D::bf16, D::i32, D::i64, D::i8, D::u8});
  p.dtype_in(out, "out", {D::i64, D::i32});
  const size_t rank = self.view.dims.size();
  const int64_t dim = normalize_dim(p, p.i64(1), rank, "dim");
  std::vector<int64_t> kept = self.view.dims, dropped;
  if (rank > 0) kept[dim] = 1;
  for (size_t i = 0; i < rank; ++i)
    if (static_cast<int64_t>(i) != dim) dropped.push_back(self.view.dims[i]);
  p.same_shape(out, "out", keep ? kept : dropped,
               keep ? "self's shape with dim as 1" : "self's shape without dim");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  if (rank == 0) {
    p.store(p.constant(D::i64, {}, std::vector<uint8_t>(8, 0)), o);
    return;
  }
  const size_t r = p.op1("ArgMaxD", {x}, {{"dimension", dim}, {"dtype", D::i64}});
  p.store(p.reshape(r, keep ? kept : dropped), o);
}

// out = the indices that sort self along dim (ties keep their order).
void plan_argsort(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const bool descending = p.flag(2);
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(self, "self", {D::f32, D::f16, D::bf16, D::i32, D::i64});
  p.dtype_in(out, "out", {D::i64, D::i32});
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const int64_t dim = normalize_dim(p, p.i64(1), self.view.dims.size(), "dim");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  const int64_t k = self.view.dims.empty() ? 1 : self.view.dims[dim];
  std::vector<uint8_t> kb(sizeof k);
  std::memcpy(kb.data(), &k, sizeof k);
  const auto r =
      p.op("TopKV2", {x, p.constant(D::i64, {}, std::move(kb))},
           {{"dim", dim}, {"largest", descending}, {"sorted", true}, {"indices_dtype", D::i64}});
  p.store(r[1], o);
}

void plan_log_softmax(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", {D::f32, D::f16, D::bf16});
  p.dtype_in(out, "out", {D::f32, D::f16, D::bf16});
  p.same_shape(out, "out", self.view.dims, "self's shape");
  if (self.view.dims.empty()) p.invalid("self is 0-d; LogSoftmax needs a dimension");
  const int64_t dim = normalize_dim(p, p.i64(1), self.view.dims.size(), "dim");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  p.store(p.op1("LogSoftmaxV2", {p.cast(x, D::f32)}, {{"axes", std::vector<int64_t>{dim}}}), o);
}

// out = the running sum of self along dim, in dtype (out's).
void plan_cumsum(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto dtype = static_cast<D>(p.i64(2));
  const aclTensor &out = p.tensor(3, "out");
  const std::initializer_list<D> ok = {D::f32, D::f16, D::bf16, D::f64,
                                       D::i32, D::i64, D::i8,   D::u8};
  p.dtype_in(self, "self", ok);
  p.dtype_in(out, "out", ok);
  if (dtype != out.dtype)
    p.invalid(std::string("dtype is ") + ops::dtype_name(dtype) + " but out has dtype " +
              ops::dtype_name(out.dtype));
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const int64_t dim = normalize_dim(p, p.i64(1), self.view.dims.size(), "dim");
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  if (self.view.dims.empty()) {
    p.store(x, o);
    return;
  }
  // The kernel sums narrow integers in their own type; torch widens them to i64 first.
  const D t = dtype == D::i8 || dtype == D::u8 ? D::i64 : dtype;
  p.store(p.op1("CumsumD", {p.cast(x, t)}, {{"axis", dim}}), o);
}

// out = the p-norm of self over dim (all dims when empty): p 0 (nonzero count), 1, 2, inf,
// -inf or any other positive p.
void plan_norm(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclScalar &order = p.scalar(1, "pScalar");
  const aclIntArray &dims = p.int_array(2, "dim");
  const bool keep = p.flag(3);
  const aclTensor &out = p.tensor(4, "out");
  p.dtype_in(self, "self", {D::f32, D::f16, D::bf16});
  p.dtype_in(out, "out", {D::f32, D::f16, D::bf16});
  const double q = order.value;
  if (!(q >= 0) && !std::isinf(q)) p.invalid("pScalar " + std::to_string(q) + " is negative");
  const size_t rank = self.view.dims.size();
  std::vector<bool> reduced(rank, dims.values.empty());
  std::vector<int64_t> axes;
  for (int64_t d : dims.values) {
    const int64_t a = normalize_dim(p, d, rank, "dim");
    if (rank > 0 && reduced[a]) p.invalid("dim names dimension " + std::to_string(a) + " twice");
    if (rank > 0) reduced[a] = true;
    axes.push_back(a);
  }
  if (dims.values.empty())
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i)
    if (!reduced[i] || keep) shape.push_back(reduced[i] ? 1 : self.view.dims[i]);
  p.same_shape(out, "out", shape, "the reduced shape");
  const size_t x = p.cast(p.input(self, "self"), D::f32);
  const size_t o = p.output(out, "out");
  const ops::Attrs red = {{"axes", axes}, {"keep_dims", keep}};
  auto f32 = [&](double v) {
    aclScalar s;
    s.value = v;
    return p.scalar_value(s, D::f32);
  };
  const size_t a = p.op1("Abs", {x});
  size_t r;
  if (std::isinf(q)) r = q > 0 ? p.op1("ReduceMaxD", {a}, red) : p.op1("ReduceMinD", {a}, red);
  else if (q == 0) r = p.op1("ReduceSumD", {p.cast(p.op1("NotEqual", {x, f32(0)}), D::f32)}, red);
  else if (q == 1) r = p.op1("ReduceSumD", {a}, red);
  else if (q == 2) r = p.op1("Sqrt", {p.op1("ReduceSumD", {p.op1("Square", {x})}, red)});
  else r = p.op1("Pow", {p.op1("ReduceSumD", {p.op1("Pow", {a, f32(q)})}, red), f32(1 / q)});
  p.store(r, o);
}

// loss [N] = -sum(labels * log_softmax(features)) over classes, backprop [N, C] =
// softmax(features) - labels, for features and labels [N, C].
void plan_softmax_cross_entropy_with_logits(Planner &p) {
  const aclTensor &features = p.tensor(0, "features");
  const aclTensor &labels = p.tensor(1, "labels");
  const aclTensor &loss = p.tensor(2, "loss");
  const aclTensor &backprop = p.tensor(3, "backprop");
  for (const auto &[t, name] : {std::pair{&features, "features"},
                                {&labels, "labels"},
                                {&loss, "loss"},
                                {&backprop, "backprop"}})
    p.dtype_in(*t, name, {D::f32, D::f16, D::bf16});
  const auto &d = features.view.dims;
  if (d.size() != 2) p.invalid("features has shape " + ops::dims_str(d) + "; [N, C] is needed");
  p.same_shape(labels, "labels", d, "features' shape");
  p.same_shape(loss, "loss", {d[0]}, "[N]");
  p.same_shape(backprop, "backprop", d, "features' shape");
  const size_t f = p.cast(p.input(features, "features"), D::f32);
  const size_t l = p.cast(p.input(labels, "labels"), D::f32);
  const size_t lo = p.output(loss, "loss"), bo = p.output(backprop, "backprop");
  const ops::Attrs classes = {{"axes", std::vector<int64_t>{1}}};
  const size_t ls = p.op1("LogSoftmaxV2", {f}, classes);
  p.store(p.op1("Neg", {p.op1("ReduceSumD", {p.op1("Mul", {l, ls})},
                              {{"axes", std::vector<int64_t>{1}}, {"keep_dims", false}})}),
          lo);
  p.store(p.op1("Sub", {p.op1("SoftmaxV2", {f}, classes), l}), bo);
}

const Registrar reg({{"Softmax", plan_softmax},
                     {"LogSoftmax", plan_log_softmax},
                     {"Cumsum", plan_cumsum},
                     {"Norm", plan_norm},
                     {"SoftmaxCrossEntropyWithLogits", plan_softmax_cross_entropy_with_logits},
                     {"ReduceSum", plan_reduce_sum},
                     {"Mean", plan_mean},
                     {"ArgMax", plan_arg_max},
                     {"Argsort", plan_argsort}});

}  // namespace

}  // namespace openacl::nn
