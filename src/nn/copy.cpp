// Data-movement aclnn operators, planned as strided copies (no gather into the workspace, any
// view on either side), with a Cast step where dtypes differ: Cast, InplaceCopy,
// InplaceFillScalar, InplaceZero, Slice, Cat, Repeat, ConstantPadNd, Arange, Permute,
// RepeatInterleaveIntWithDim, Roll, InplaceIndexCopy (slices placed by indices read on the
// stream), InplaceIndexFillTensor; Tril / Triu / InplaceTriu on the library's kernels and
// ReflectionPad1d on its PadV3.
#include <cmath>
#include <cstring>

#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

const std::initializer_list<D> kAny = {D::f32, D::f16, D::bf16, D::f64, D::i8,  D::u8,     D::i16,
                                       D::u16, D::i32, D::u32,  D::i64, D::u64, D::boolean};

int64_t normalize_dim(const Planner &p, int64_t dim, size_t rank, const char *name) {
  const auto r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  if (dim < -r || dim >= r)
    p.invalid(std::string(name) + " " + std::to_string(dim) +
              " is out of range for a tensor of rank " + std::to_string(rank));
  return dim < 0 ? dim + r : dim;
}

void plan_cast(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const auto dtype = static_cast<D>(p.i64(1));
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kAny);
  p.dtype_in(out, "out", kAny);
  if (out.dtype != dtype)
    p.invalid(std::string("dtype is ") + ops::dtype_name(dtype) + " but out has dtype " +
              ops::dtype_name(out.dtype));
  p.same_shape(out, "out", self.view.dims, "self's shape");
  const size_t x = p.input(self, "self");
  p.store(x, p.output(out, "out"));
}

// selfRef = src, src broadcast to selfRef's shape and cast to its dtype.
void plan_inplace_copy(Planner &p) {
  const aclTensor &self = p.tensor(0, "selfRef");
  const aclTensor &src = p.tensor(1, "src");
  p.dtype_in(self, "selfRef", kAny);
  p.dtype_in(src, "src", kAny);
  if (broadcast_shapes(p, self.view.dims, src.view.dims) != self.view.dims)
    p.invalid("src of shape " + ops::dims_str(src.view.dims) +
              " does not broadcast to selfRef's shape " + ops::dims_str(self.view.dims));
  const size_t dst = p.ref(self, "selfRef");
  p.store(p.input(src, "src"), dst, true);
}

void fill(Planner &p, const aclScalar *value) {
  const aclTensor &self = p.tensor(0, "selfRef");
  p.dtype_in(self, "selfRef", kAny);
  const size_t dst = p.ref(self, "selfRef");
  const size_t v =
      value ? p.scalar_value(*value, self.dtype)
            : p.constant(self.dtype, {}, std::vector<uint8_t>(element_size(self.dtype), 0));
  p.store(v, dst, true);
}

void plan_inplace_fill_scalar(Planner &p) { fill(p, &p.scalar(1, "value")); }
void plan_inplace_zero(Planner &p) { fill(p, nullptr); }

// out = self[..., start:end:step, ...] along dim, as torch slices (bounds clamped).
void plan_slice(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &out = p.tensor(5, "out");
  p.dtype_in(self, "self", kAny);
  if (self.view.dims.empty()) p.invalid("self is a 0-d tensor; Slice needs at least one dimension");
  const int64_t dim = normalize_dim(p, p.i64(1), self.view.dims.size(), "dim");
  const int64_t step = p.i64(4);
  if (step <= 0) p.invalid("step " + std::to_string(step) + " must be positive");
  const int64_t size = self.view.dims[dim];
  auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + size : v, int64_t{0}, size); };
  const int64_t start = clamp(p.i64(2)), end = std::max(clamp(p.i64(3)), start);
  auto dims = self.view.dims;
  dims[dim] = (end - start + step - 1) / step;
  p.same_shape(out, "out", dims, "the slice's shape");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  auto strides = p.value(x).strides;
  const int64_t offset = start * strides[dim];
  strides[dim] *= step;
  p.store(p.view(x, dims, strides, offset), p.output(out, "out"));
}

// out = the tensors joined along dim: each is copied into its part of out's view.
void plan_cat(Planner &p) {
  const aclTensorList &list = p.tensor_list(0, "tensors");
  const aclTensor &out = p.tensor(2, "out");
  if (list.tensors.empty()) p.invalid("tensors is empty");
  p.dtype_in(out, "out", kAny);
  const int64_t dim = normalize_dim(p, p.i64(1), out.view.dims.size(), "dim");
  const auto inputs = p.input_list(list, "tensors");
  int64_t total = 0;
  std::vector<int64_t> offsets;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = "tensors[" + std::to_string(i) + "]";
    p.dtype_in(*list.tensors[i], name.c_str(), kAny);
    const auto &d = p.dims(inputs[i]);
    // torch skips 1-d empty tensors in a cat of higher rank
    if (d.size() == 1 && d[0] == 0 && out.view.dims.size() != 1) {
      offsets.push_back(-1);
      continue;
    }
    if (d.size() != out.view.dims.size())
      p.invalid(name + " has rank " + std::to_string(d.size()) + " but out has rank " +
                std::to_string(out.view.dims.size()));
    for (size_t k = 0; k < d.size(); ++k)
      if (static_cast<int64_t>(k) != dim && d[k] != out.view.dims[k])
        p.invalid(name + " has shape " + ops::dims_str(d) + ", which differs from out's " +
                  ops::dims_str(out.view.dims) + " outside dim " + std::to_string(dim));
    offsets.push_back(total);
    total += d[dim];
  }
  if (total != out.view.dims[dim])
    p.invalid("the tensors add up to " + std::to_string(total) + " along dim " +
              std::to_string(dim) + " but out has " + std::to_string(out.view.dims[dim]));
  const size_t o = p.output(out, "out");
  const auto strides = p.value(o).strides;  // a copy: adding values moves them
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (offsets[i] < 0) continue;
    p.store(inputs[i], p.view(o, p.dims(inputs[i]), strides, offsets[i] * strides[dim]));
  }
}

// out = self tiled repeats times: one copy over an interleaved view, out's dim i split into
// [repeat, size] with the source repeating (stride 0) over the repeat part.
void plan_repeat(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclIntArray &repeats = p.int_array(1, "repeats");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kAny);
  const auto &r = repeats.values;
  if (r.size() < self.view.dims.size())
    p.invalid("repeats has " + std::to_string(r.size()) + " values, fewer than self's rank " +
              std::to_string(self.view.dims.size()));
  const size_t lead = r.size() - self.view.dims.size();
  std::vector<int64_t> dims(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] < 0) p.invalid("repeats[" + std::to_string(i) + "] is negative");
    dims[i] = r[i] * (i < lead ? 1 : self.view.dims[i - lead]);
  }
  p.same_shape(out, "out", dims, "self's shape times repeats");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  std::vector<int64_t> split, src_strides, dst_strides;
  for (size_t i = 0; i < r.size(); ++i) {
    const int64_t size = i < lead ? 1 : self.view.dims[i - lead];
    const int64_t s = i < lead ? 0 : p.value(x).strides[i - lead];
    const int64_t os = p.value(o).strides[i];
    split.insert(split.end(), {r[i], size});
    src_strides.insert(src_strides.end(), {0, s});
    dst_strides.insert(dst_strides.end(), {os * size, os});
  }
  p.copy(p.view(x, split, src_strides, 0), p.view(o, split, dst_strides, 0));
}

// out = self padded with value; pad holds (before, after) pairs from the last dim backwards.
void plan_constant_pad_nd(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclIntArray &pad = p.int_array(1, "pad");
  const aclScalar &value = p.scalar(2, "value");
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(self, "self", kAny);
  const auto &pv = pad.values;
  const size_t rank = self.view.dims.size();
  if (pv.size() % 2 != 0 || pv.size() / 2 > rank)
    p.invalid("pad has " + std::to_string(pv.size()) +
              " values; it needs an even count of at most twice self's rank " +
              std::to_string(rank));
  auto dims = self.view.dims;
  std::vector<int64_t> before(rank, 0);
  for (size_t k = 0; k < pv.size() / 2; ++k) {
    const size_t d = rank - 1 - k;
    if (pv[2 * k] < 0 || pv[2 * k + 1] < 0)
      p.invalid("pad holds a negative value; openacl pads but does not crop");
    before[d] = pv[2 * k];
    dims[d] += pv[2 * k] + pv[2 * k + 1];
  }
  p.same_shape(out, "out", dims, "the padded shape");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  p.store(p.scalar_value(value, out.dtype), o, true);
  const auto strides = p.value(o).strides;  // a copy: adding values moves them
  int64_t offset = 0;
  for (size_t d = 0; d < rank; ++d) offset += before[d] * strides[d];
  p.copy(x, p.view(o, self.view.dims, strides, offset));
}

// out = start, start + step, ... (below end); the values are known now, so they are a constant.
// out may have any shape holding exactly that many elements (ggml passes its 4-d tensor),
// filled in row-major order.
void plan_arange(Planner &p) {
  const aclScalar &start = p.scalar(0, "start");
  const aclScalar &end = p.scalar(1, "end");
  const aclScalar &step = p.scalar(2, "step");
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(out, "out", {D::f32, D::f16, D::bf16, D::f64, D::i32, D::i64});
  if (step.value == 0) p.invalid("step is 0");
  if ((end.value - start.value) * step.value < 0) p.invalid("step goes from start away from end");
  const auto n = static_cast<int64_t>(std::ceil((end.value - start.value) / step.value));
  if (out.view.numel() != n)
    p.invalid("out has shape " + ops::dims_str(out.view.dims) + "; the range has " +
              std::to_string(n) + " values, so out must hold " + std::to_string(n) + " elements");
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * sizeof(double));
  for (int64_t i = 0; i < n; ++i) {
    const double v = start.value + static_cast<double>(i) * step.value;
    std::memcpy(bytes.data() + i * sizeof(double), &v, sizeof v);
  }
  const size_t o = p.output(out, "out");
  p.store(p.constant(D::f64, out.view.dims, std::move(bytes)), o);
}

// out = self with its dims reordered: out's dim i is self's dim dims[i].
void plan_permute(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclIntArray &dims = p.int_array(1, "dims");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kAny);
  const size_t rank = self.view.dims.size();
  if (dims.values.size() != rank)
    p.invalid("dims has " + std::to_string(dims.values.size()) + " values for self of rank " +
              std::to_string(rank));
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> shape, strides;
  const size_t x = p.input(self, "self");
  for (int64_t d : dims.values) {
    const int64_t a = normalize_dim(p, d, rank, "dims");
    if (seen[a]) p.invalid("dims names dimension " + std::to_string(a) + " twice");
    seen[a] = true;
    shape.push_back(self.view.dims[a]);
    strides.push_back(p.value(x).strides[a]);
  }
  p.same_shape(out, "out", shape, "self's shape permuted");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t o = p.output(out, "out");
  p.store(p.view(x, shape, strides, 0), o);
}

// out = self with each element repeated along dim: out's dim split into [size, repeats] with
// the source repeating (stride 0) over the repeats.
void plan_repeat_interleave_int_with_dim(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const int64_t repeats = p.i64(1);
  const aclTensor &out = p.tensor(4, "out");
  p.dtype_in(self, "self", kAny);
  if (repeats < 0) p.invalid("repeats " + std::to_string(repeats) + " is negative");
  const size_t rank = self.view.dims.size();
  const int64_t dim = normalize_dim(p, p.i64(2), rank, "dim");
  auto dims = rank ? self.view.dims : std::vector<int64_t>{1};
  const int64_t size = dims[dim];
  if (p.i64(3) != size * repeats)
    p.invalid("outputSize " + std::to_string(p.i64(3)) + " is not " + std::to_string(size) +
              " * repeats (" + std::to_string(size * repeats) + ")");
  dims[dim] = size * repeats;
  p.same_shape(out, "out", dims, "self's shape with dim repeated");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  if (rank == 0) x = p.reshape(x, {1});
  auto split = p.dims(x), src = p.value(x).strides, dst = p.value(o).strides;
  split.insert(split.begin() + dim + 1, repeats);
  src.insert(src.begin() + dim + 1, 0);
  dst.insert(dst.begin() + dim + 1, dst[dim]);
  dst[dim] *= repeats;
  p.copy(p.view(x, split, src, 0), p.view(o, split, dst, 0));
}

// selfRef[..., index[i], ...] = source[..., i, ...] along dim.
void plan_inplace_index_copy(Planner &p) {
  const aclTensor &self = p.tensor(0, "selfRef");
  const aclTensor &index = p.tensor(2, "index");
  const aclTensor &source = p.tensor(3, "source");
  p.dtype_in(self, "selfRef", kAny);
  p.dtype_in(index, "index", {D::i32, D::i64});
  const size_t rank = self.view.dims.size();
  if (rank == 0) p.invalid("selfRef is 0-d");
  const int64_t dim = normalize_dim(p, p.i64(1), rank, "dim");
  if (index.view.dims.size() > 1)
    p.invalid("index has rank " + std::to_string(index.view.dims.size()) +
              "; it must be 0-d or 1-d");
  auto dims = self.view.dims;
  dims[dim] = index.view.numel();
  p.same_shape(source, "source", dims, "selfRef's shape with dim the index count");
  const size_t dst = p.ref(self, "selfRef");
  size_t i = p.input(index, "index");
  const size_t src = p.input(source, "source");
  i = p.reshape(p.dense(i), {index.view.numel()});
  p.index_copy(p.cast(src, self.dtype), i, dst, dim);
}

// out = self with the elements above (Tril) or below (Triu) the diagonal of each matrix zeroed.
void triangle(Planner &p, const char *type) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kAny);
  if (self.view.dims.size() < 2)
    p.invalid("self has rank " + std::to_string(self.view.dims.size()) + "; at least 2 is needed");
  p.same_shape(out, "out", self.view.dims, "self's shape");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  p.store(p.op1(type, {x}, {{"diagonal", p.i64(1)}}), o);
}

void plan_tril(Planner &p) { triangle(p, "Tril"); }
void plan_triu(Planner &p) { triangle(p, "Triu"); }

void plan_inplace_triu(Planner &p) {
  const aclTensor &self = p.tensor(0, "selfRef");
  p.dtype_in(self, "selfRef", kAny);
  if (self.view.dims.size() < 2)
    p.invalid("selfRef has rank " + std::to_string(self.view.dims.size()) +
              "; at least 2 is needed");
  const size_t x = p.ref(self, "selfRef");
  p.store(p.op1("Triu", {x}, {{"diagonal", p.i64(1)}}), x);
}

// selfRef's slices index[i] along dim set to value.
void plan_inplace_index_fill_tensor(Planner &p) {
  const aclTensor &self = p.tensor(0, "selfRef");
  const aclIntArray &index = p.int_array(2, "index");
  const aclScalar &value = p.scalar(3, "value");
  p.dtype_in(self, "selfRef", kAny);
  const auto &dims = self.view.dims;
  const int64_t dim = normalize_dim(p, p.i64(1), dims.size(), "dim");
  const int64_t size = dims.empty() ? 1 : dims[dim];
  const size_t x = p.ref(self, "selfRef");
  if (dims.empty()) {
    for (int64_t i : index.values)
      if (i != 0 && i != -1)
        p.invalid("index " + std::to_string(i) + " is out of range for a 0-d selfRef");
    if (!index.values.empty()) p.store(p.scalar_value(value, self.dtype), x, true);
    return;
  }
  auto slice = dims;
  slice[dim] = 1;
  const size_t v =
      p.view(p.scalar_value(value, self.dtype), slice, std::vector<int64_t>(slice.size(), 0), 0);
  const auto strides = p.value(x).strides;
  for (int64_t i : index.values) {
    if (i < -size || i >= size)
      p.invalid("index " + std::to_string(i) + " is out of range for dim " + std::to_string(dim) +
                " of size " + std::to_string(size));
    p.copy(v, p.view(x, slice, strides, (i < 0 ? i + size : i) * strides[dim]));
  }
}

// out = self padded along its last dim by reflection (the edge element not repeated).
void plan_reflection_pad_1d(Planner &p) {
  const aclTensor &self = p.tensor(0, "self");
  const aclIntArray &padding = p.int_array(1, "padding");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(self, "self", kAny);
  const auto &dims = self.view.dims;
  if (dims.size() != 2 && dims.size() != 3)
    p.invalid("self has shape " + ops::dims_str(dims) + "; 2-d or 3-d is needed");
  const auto &pv = padding.values;
  const int64_t w = dims.back();
  if (pv.size() != 2 || pv[0] < 0 || pv[1] < 0 || pv[0] >= w || pv[1] >= w)
    p.invalid("padding " + ops::dims_str(pv) +
              " must be two non-negative values below self's last dim " + std::to_string(w));
  auto shape = dims;
  shape.back() += pv[0] + pv[1];
  p.same_shape(out, "out", shape, "self's shape padded");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  const size_t o = p.output(out, "out");
  std::vector<int64_t> pads(2 * dims.size(), 0);
  pads[pads.size() - 2] = pv[0];
  pads[pads.size() - 1] = pv[1];
  std::vector<uint8_t> bytes(pads.size() * sizeof(int64_t));
  std::memcpy(bytes.data(), pads.data(), bytes.size());
  const size_t pc = p.constant(D::i64, {static_cast<int64_t>(dims.size()), 2}, std::move(bytes));
  p.store(p.op1("PadV3", {x, pc}, {{"mode", std::string("reflect")}}), o);
}

// out = x rolled by shifts along dims (the flattened tensor when dims is empty): for each
// combination of the two pieces of every rolled dim, one copy.
void plan_roll(Planner &p) {
  const aclTensor &x = p.tensor(0, "x");
  const aclIntArray &shifts = p.int_array(1, "shifts");
  const aclIntArray &dims = p.int_array(2, "dims");
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(x, "x", kAny);
  p.same_shape(out, "out", x.view.dims, "x's shape");
  if (out.dtype != x.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", x " +
              ops::dtype_name(x.dtype));
  size_t xv = p.input(x, "x"), ov = p.output(out, "out");
  std::vector<int64_t> axes = dims.values;
  if (axes.empty()) {  // roll of the flattened tensor
    if (shifts.values.size() != 1) p.invalid("dims is empty, so shifts must hold one value");
    if (!p.value(xv).contiguous || !p.value(ov).contiguous)
      p.invalid("a roll without dims needs dense x and out");
    xv = p.reshape(xv, {x.view.numel()});
    ov = p.reshape(ov, {x.view.numel()});
    axes = {0};
  } else if (shifts.values.size() != axes.size()) {
    p.invalid("shifts has " + std::to_string(shifts.values.size()) + " values for " +
              std::to_string(axes.size()) + " dims");
  }
  const auto shape = p.dims(xv);
  const auto xs = p.value(xv).strides, os = p.value(ov).strides;
  std::vector<int64_t> shift(shape.size(), 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t a = normalize_dim(p, axes[k], shape.size(), "dims");
    const int64_t n = shape[a];
    if (n > 0) shift[a] = ((shift[a] + shifts.values[k]) % n + n) % n;
  }
  std::vector<size_t> rolled;
  for (size_t a = 0; a < shape.size(); ++a)
    if (shift[a] != 0) rolled.push_back(a);
  // Piece bit 0 of dim a: source [0, n - s) to [s, n); bit 1: source [n - s, n) to [0, s).
  for (uint32_t mask = 0; mask < (1u << rolled.size()); ++mask) {
    auto piece = shape;
    int64_t src = 0, dst = 0;
    for (size_t k = 0; k < rolled.size(); ++k) {
      const size_t a = rolled[k];
      const int64_t n = shape[a], s = shift[a];
      const bool tail = (mask >> k) & 1;
      piece[a] = tail ? s : n - s;
      src += (tail ? n - s : 0) * xs[a];
      dst += (tail ? 0 : s) * os[a];
    }
    p.copy(p.view(xv, piece, xs, src), p.view(ov, piece, os, dst));
  }
}

const Registrar reg({
    {"Cast", plan_cast},
    {"InplaceCopy", plan_inplace_copy},
    {"InplaceFillScalar", plan_inplace_fill_scalar},
    {"InplaceZero", plan_inplace_zero},
    {"Slice", plan_slice},
    {"Cat", plan_cat},
    {"Repeat", plan_repeat},
    {"ConstantPadNd", plan_constant_pad_nd},
    {"Arange", plan_arange},
    {"Permute", plan_permute},
    {"RepeatInterleaveIntWithDim", plan_repeat_interleave_int_with_dim},
    {"InplaceIndexCopy", plan_inplace_index_copy},
    {"Tril", plan_tril},
    {"Triu", plan_triu},
    {"Roll", plan_roll},
    {"InplaceTriu", plan_inplace_triu},
    {"InplaceIndexFillTensor", plan_inplace_index_fill_tensor},
    {"ReflectionPad1d", plan_reflection_pad_1d},
});

}  // namespace

}  // namespace openacl::nn
