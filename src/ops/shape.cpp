// Data-movement ops: Transpose, the Reshape family, Concat, Split, Slice, StridedSliceD,
// Gather, Tile, Expand, Pad. All are strided copies (kernel.h strided_copy).
#include <numeric>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

size_t elem_size_of(const OpCall &call, size_t i) {
  const size_t e = dtype_size(call.in(i).dtype);
  if (e == 0) call.bad_dtype(i, std::string("has data type ") + dtype_name(call.in(i).dtype));
  return e;
}

// Ints from const input i, else attr `name`, else the fallback; fails naming both.
std::vector<int64_t> ints_from(const OpCall &call, size_t i, const char *name) {
  if (call.has(i))
    if (auto v = call.const_ints(i)) return *v;
  if (call.has_attr(name)) return call.attr_ints(name);
  if (call.has(i))
    call.bad_input(
        i, std::string("(") + name + ") has no constant value; set it with aclSetTensorConst");
  return call.attr_ints(name);  // reports the missing attr
}

// y = view of x: dims with src element strides, starting at element offset.
std::unique_ptr<PreparedOp> view_op(std::vector<int64_t> dims, std::vector<int64_t> src_strides,
                                    int64_t offset, size_t esize) {
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        strided_copy(cores, dims, static_cast<char *>(out[0].data), contiguous_strides(dims),
                     static_cast<const char *>(in[0].data) + offset * static_cast<int64_t>(esize),
                     src_strides, esize);
      });
}

std::unique_ptr<PreparedOp> copy_op(size_t bytes) {
  return make_op([bytes](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                         backend::AiCores &cores) {
    if (in[0].data != out[0].data)
      strided_copy(cores, {static_cast<int64_t>(bytes)}, static_cast<char *>(out[0].data), {1},
                   static_cast<const char *>(in[0].data), {1}, 1);
  });
}

std::unique_ptr<PreparedOp> build_transpose(OpCall &call) {
  const bool d = call.type() == "TransposeD";
  call.inputs_between(1, d ? 1 : 2, d ? "x" : "x, perm");
  const auto &x = call.in(0);
  const size_t esize = elem_size_of(call, 0);
  std::vector<int64_t> perm = d ? call.attr_ints("perm") : ints_from(call, 1, "perm");
  if (perm.size() != x.dims.size())
    call.bad_attr("perm", "has " + std::to_string(perm.size()) + " entries; x has rank " +
                              std::to_string(x.dims.size()));
  std::vector<bool> seen(perm.size(), false);
  for (auto &p : perm) {
    p = normalize_axis(call, p, perm.size(), "perm");
    if (seen[p]) call.bad_attr("perm", dims_str(perm) + " is not a permutation");
    seen[p] = true;
  }
  const auto cs = contiguous_strides(x.dims);
  std::vector<int64_t> dims, strides;
  for (int64_t p : perm) {
    dims.push_back(x.dims[p]);
    strides.push_back(cs[p]);
  }
  call.output(x.dtype, dims, x.format);
  return view_op(dims, strides, 0, esize);
}

std::unique_ptr<PreparedOp> finish_reshape(OpCall &call, std::vector<int64_t> dims) {
  const auto &x = call.in(0);
  if (product(dims) != x.element_count())
    call.bad_input(0, "has shape " + dims_str(x.dims) + " (" + std::to_string(x.element_count()) +
                          " elements), which cannot be reshaped to " + dims_str(dims));
  elem_size_of(call, 0);
  call.output(x.dtype, dims, x.format);
  return copy_op(x.byte_size());
}

std::unique_ptr<PreparedOp> build_reshape(OpCall &call) {
  call.inputs_between(2, 2, "x, shape");
  const auto &x = call.in(0);
  std::vector<int64_t> shape;
  if (auto v = call.const_ints(1)) {
    shape = *v;
  } else if (const TensorDesc *y = call.given(0)) {
    shape = y->dims;
  } else {
    call.bad_input(1, "(shape) has no constant value; set it with aclSetTensorConst");
  }
  const int64_t axis = call.attr_int("axis", 0);
  const int64_t num_axes = call.attr_int("num_axes", -1);
  // Reshape only dims [axis, axis+num_axes) of x (all by default).
  const auto r = static_cast<int64_t>(x.dims.size());
  const int64_t a = axis < 0 ? axis + r + 1 : axis;
  const int64_t e = num_axes < 0 ? r : a + num_axes;
  if (a < 0 || a > r || e > r || e < a)
    call.bad_attr("axis", "and num_axes select no valid dims of rank " + std::to_string(r));
  int64_t known = 1, infer_at = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer_at >= 0) call.bad_input(1, "(shape) " + dims_str(shape) + " has more than one -1");
      infer_at = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      call.bad_input(1, "(shape) " + dims_str(shape) + " has a negative dim");
    } else {
      known *= shape[i];
    }
  }
  const int64_t part = product(x.dims, static_cast<size_t>(a), static_cast<size_t>(e));
  if (infer_at >= 0) {
    if (known == 0 || part % known != 0)
      call.bad_input(1,
                     "(shape) " + dims_str(shape) + " does not fit x's shape " + dims_str(x.dims));
    shape[infer_at] = part / known;
  }
  std::vector<int64_t> dims(x.dims.begin(), x.dims.begin() + a);
  dims.insert(dims.end(), shape.begin(), shape.end());
  dims.insert(dims.end(), x.dims.begin() + e, x.dims.end());
  return finish_reshape(call, dims);
}

std::unique_ptr<PreparedOp> build_squeeze(OpCall &call) {
  call.inputs_between(1, 1, "x");
  const auto &x = call.in(0);
  auto axes = call.attr_ints("axis", std::vector<int64_t>{});
  std::vector<bool> drop(x.dims.size(), false);
  for (int64_t a : axes) {
    a = normalize_axis(call, a, x.dims.size(), "axis");
    if (x.dims[a] != 1)
      call.bad_attr("axis", "selects dim " + std::to_string(a) + " of size " +
                                std::to_string(x.dims[a]) + ", not 1");
    drop[a] = true;
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i < x.dims.size(); ++i)
    if (!(axes.empty() ? x.dims[i] == 1 : drop[i])) dims.push_back(x.dims[i]);
  return finish_reshape(call, dims);
}

std::vector<int64_t> unsqueeze_dims(const OpCall &call, const std::vector<int64_t> &in,
                                    std::vector<int64_t> axes, const char *what) {
  const size_t r = in.size() + axes.size();
  std::vector<bool> at(r, false);
  for (auto a : axes) {
    a = normalize_axis(call, a, r, what);
    if (at[a]) call.bad_attr(what, "repeats axis " + std::to_string(a));
    at[a] = true;
  }
  std::vector<int64_t> dims;
  size_t k = 0;
  for (size_t i = 0; i < r; ++i) dims.push_back(at[i] ? 1 : in[k++]);
  return dims;
}

std::unique_ptr<PreparedOp> build_unsqueeze(OpCall &call) {
  call.inputs_between(1, 1, "x");
  return finish_reshape(call,
                        unsqueeze_dims(call, call.in(0).dims, call.attr_ints("axes"), "axes"));
}

std::unique_ptr<PreparedOp> build_expand_dims(OpCall &call) {
  call.inputs_between(2, 2, "x, axis");
  return finish_reshape(call,
                        unsqueeze_dims(call, call.in(0).dims, ints_from(call, 1, "axis"), "axis"));
}

std::unique_ptr<PreparedOp> build_flatten(OpCall &call) {
  call.inputs_between(1, 1, "x");
  const auto &x = call.in(0);
  const int64_t axis = normalize_axis(call, call.attr_int("axis", 1), x.dims.size() + 1, "axis");
  return finish_reshape(call, {product(x.dims, 0, axis), product(x.dims, axis)});
}

// ---- Concat / Split ----

std::unique_ptr<PreparedOp> concat_core(OpCall &call, size_t first, size_t n, int64_t axis_in) {
  if (n == 0)
    fail(Errc::op_input_not_match, call.type() + ": needs at least one tensor to concatenate");
  if (call.has_attr("N") && call.attr_int("N") != static_cast<int64_t>(n))
    call.bad_attr("N", "is " + std::to_string(call.attr_int("N")) + " but " + std::to_string(n) +
                           " tensors were passed");
  const auto &x0 = call.in(first);
  const size_t esize = elem_size_of(call, first);
  const int64_t axis = normalize_axis(call, axis_in, x0.dims.size(), "concat_dim");
  std::vector<int64_t> dims = x0.dims;
  dims[axis] = 0;
  std::vector<std::vector<int64_t>> parts;
  for (size_t k = first; k < first + n; ++k) {
    const auto &x = call.in(k);
    call.same_dtype(first, k);
    if (x.dims.size() != x0.dims.size())
      call.bad_input(k, "has rank " + std::to_string(x.dims.size()) + ", expected " +
                            std::to_string(x0.dims.size()));
    for (size_t i = 0; i < x.dims.size(); ++i)
      if (static_cast<int64_t>(i) != axis && x.dims[i] != x0.dims[i])
        call.bad_input(k, "has shape " + dims_str(x.dims) + ", which differs from " +
                              dims_str(x0.dims) + " outside the concat axis");
    dims[axis] += x.dims[axis];
    parts.push_back(x.dims);
  }
  call.output(x0.dtype, dims, x0.format);
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    const auto ds = contiguous_strides(dims);
    int64_t offset = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      strided_copy(
          cores, parts[k],
          static_cast<char *>(out[0].data) + offset * ds[axis] * static_cast<int64_t>(esize), ds,
          static_cast<const char *>(in[first + k].data), contiguous_strides(parts[k]), esize);
      offset += parts[k][axis];
    }
  });
}

std::unique_ptr<PreparedOp> build_concat(OpCall &call) {
  const std::string &t = call.type();
  const size_t n = call.num_inputs();
  if (t == "ConcatD" || t == "ConcatV2D")
    return concat_core(call, 0, n, call.attr_int("concat_dim"));
  if (n < 2)
    fail(Errc::op_input_not_match,
         t + ": expected the tensors and concat_dim, got " + std::to_string(n) + " inputs");
  const size_t dim_at = t == "Concat" ? 0 : n - 1;
  auto v = call.const_ints(dim_at);
  if (!v || v->size() != 1)
    call.bad_input(dim_at, "(concat_dim) must be a constant scalar (aclSetTensorConst)");
  return concat_core(call, t == "Concat" ? 1 : 0, n - 1, (*v)[0]);
}

std::unique_ptr<PreparedOp> split_core(OpCall &call, size_t xi, int64_t axis_in,
                                       std::vector<int64_t> sizes, int64_t num_split) {
  const auto &x = call.in(xi);
  const size_t esize = elem_size_of(call, xi);
  const int64_t axis = normalize_axis(call, axis_in, x.dims.size(), "split_dim");
  const int64_t len = x.dims[axis];
  if (sizes.empty()) {
    if (num_split <= 0 || len % num_split != 0)
      call.bad_attr("num_split", std::to_string(num_split) + " does not divide dim " +
                                     std::to_string(axis) + " of size " + std::to_string(len));
    sizes.assign(num_split, len / num_split);
  }
  if (num_split > 0 && static_cast<int64_t>(sizes.size()) != num_split)
    call.bad_attr("num_split", "is " + std::to_string(num_split) + " but size_splits has " +
                                   std::to_string(sizes.size()) + " entries");
  int64_t total = 0, infer_at = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && infer_at < 0) infer_at = static_cast<int64_t>(i);
    else if (sizes[i] < 0) call.bad_attr("size_splits", dims_str(sizes) + " has a negative size");
    else total += sizes[i];
  }
  if (infer_at >= 0) sizes[infer_at] = len - total;
  if (std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != len ||
      (infer_at >= 0 && sizes[infer_at] < 0))
    call.bad_attr("size_splits", dims_str(sizes) + " does not sum to dim " + std::to_string(axis) +
                                     " of size " + std::to_string(len));
  std::vector<std::vector<int64_t>> parts;
  for (int64_t s : sizes) {
    auto d = x.dims;
    d[axis] = s;
    call.output(x.dtype, d, x.format);
    parts.push_back(d);
  }
  const auto xdims = x.dims;
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    const auto ss = contiguous_strides(xdims);
    int64_t offset = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      strided_copy(
          cores, parts[k], static_cast<char *>(out[k].data), contiguous_strides(parts[k]),
          static_cast<const char *>(in[xi].data) + offset * ss[axis] * static_cast<int64_t>(esize),
          ss, esize);
      offset += parts[k][axis];
    }
  });
}

std::unique_ptr<PreparedOp> build_split(OpCall &call) {
  const std::string &t = call.type();
  if (t == "SplitD") {
    call.inputs_between(1, 1, "x");
    return split_core(call, 0, call.attr_int("split_dim"), {}, call.attr_int("num_split"));
  }
  if (t == "SplitVD") {
    call.inputs_between(1, 1, "x");
    return split_core(call, 0, call.attr_int("split_dim"), call.attr_ints("size_splits"),
                      call.attr_int("num_split", 0));
  }
  if (t == "Split") {
    call.inputs_between(2, 2, "split_dim, x");
    auto v = call.const_ints(0);
    if (!v || v->size() != 1)
      call.bad_input(0, "(split_dim) must be a constant scalar (aclSetTensorConst)");
    return split_core(call, 1, (*v)[0], {}, call.attr_int("num_split"));
  }
  call.inputs_between(3, 3, "x, size_splits, split_dim");
  auto sizes = call.const_ints(1);
  auto dim = call.const_ints(2);
  if (!sizes)
    call.bad_input(1, "(size_splits) has no constant value; set it with aclSetTensorConst");
  if (!dim || dim->size() != 1)
    call.bad_input(2, "(split_dim) must be a constant scalar (aclSetTensorConst)");
  return split_core(call, 0, (*dim)[0], *sizes, call.attr_int("num_split", 0));
}

// ---- Slice / StridedSliceD ----

std::unique_ptr<PreparedOp> build_slice(OpCall &call) {
  const bool d = call.type() == "SliceD";
  call.inputs_between(d ? 1 : 3, d ? 1 : 3, d ? "x" : "x, offsets, size");
  const auto &x = call.in(0);
  const size_t esize = elem_size_of(call, 0);
  auto offsets = d ? call.attr_ints("offsets") : ints_from(call, 1, "offsets");
  auto size = d ? call.attr_ints("size") : ints_from(call, 2, "size");
  if (offsets.size() != x.dims.size() || size.size() != x.dims.size())
    call.bad_attr("offsets", "and size must have rank " + std::to_string(x.dims.size()) +
                                 " entries, got " + std::to_string(offsets.size()) + " and " +
                                 std::to_string(size.size()));
  const auto cs = contiguous_strides(x.dims);
  int64_t start = 0;
  for (size_t i = 0; i < x.dims.size(); ++i) {
    if (size[i] == -1) size[i] = x.dims[i] - offsets[i];
    if (offsets[i] < 0 || size[i] < 0 || offsets[i] + size[i] > x.dims[i])
      call.bad_attr("offsets", dims_str(offsets) + " with size " + dims_str(size) +
                                   " exceeds x's shape " + dims_str(x.dims));
    start += offsets[i] * cs[i];
  }
  call.output(x.dtype, size, x.format);
  return view_op(size, cs, start, esize);
}

std::unique_ptr<PreparedOp> build_strided_slice(OpCall &call) {
  call.inputs_between(1, 1, "x");
  const auto &x = call.in(0);
  const size_t esize = elem_size_of(call, 0);
  auto begin = call.attr_ints("begin"), end = call.attr_ints("end");
  auto strides = call.attr_ints("strides", std::vector<int64_t>(begin.size(), 1));
  const int64_t bmask = call.attr_int("begin_mask", 0), emask = call.attr_int("end_mask", 0);
  for (const char *m : {"ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
    if (call.attr_int(m, 0) != 0)
      call.bad_attr(m, "must be 0: only begin_mask and end_mask are supported");
  if (begin.size() != end.size() || begin.size() != strides.size() || begin.size() > x.dims.size())
    call.bad_attr("begin", "end and strides must have the same length, at most the rank " +
                               std::to_string(x.dims.size()));
  const auto cs = contiguous_strides(x.dims);
  std::vector<int64_t> dims = x.dims, src = cs;
  int64_t start = 0;
  for (size_t i = 0; i < begin.size(); ++i) {
    const int64_t n = x.dims[i], s = strides[i];
    if (s == 0) call.bad_attr("strides", "has a 0 entry");
    int64_t b = (bmask >> i) & 1 ? (s > 0 ? 0 : n - 1) : begin[i];
    int64_t e = (emask >> i) & 1 ? (s > 0 ? n : -n - 1) : end[i];
    if (b < 0) b += n;
    if (e < 0 && !((emask >> i) & 1)) e += n;
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, n);
      e = std::clamp<int64_t>(e, 0, n);
      dims[i] = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, -1, n - 1);
      e = std::clamp<int64_t>(e, -1, n - 1);
      dims[i] = b > e ? (b - e - s - 1) / -s : 0;
    }
    if (dims[i] > 0) start += b * cs[i];
    src[i] = cs[i] * s;
  }
  call.output(x.dtype, dims, x.format);
  return view_op(dims, src, start, esize);
}

// ---- Gather ----

template <class I>
void gather_rows(const char *x, const I *idx, char *y, int64_t outer, int64_t nidx,
                 int64_t axis_len, size_t row_bytes, backend::AiCores &cores) {
  parallel_range(
      cores, static_cast<size_t>(outer * nidx), std::max<size_t>(1, 16384 / (row_bytes + 1)),
      [&](size_t b, size_t e) {
        for (size_t k = b; k < e; ++k) {
          const int64_t o = static_cast<int64_t>(k) / nidx, j = static_cast<int64_t>(k) % nidx;
          int64_t i = static_cast<int64_t>(idx[j]);
          if (i < 0) i += axis_len;
          if (i < 0 || i >= axis_len)
            fail(Errc::task_failure,
                 "Gather: index " + std::to_string(static_cast<int64_t>(idx[j])) +
                     " is out of range for an axis of size " + std::to_string(axis_len));
          std::memcpy(y + k * row_bytes, x + (o * axis_len + i) * static_cast<int64_t>(row_bytes),
                      row_bytes);
        }
      });
}

std::unique_ptr<PreparedOp> build_gather(OpCall &call) {
  const std::string &t = call.type();
  int64_t axis = 0;
  if (t == "GatherV2") {
    call.inputs_between(3, 3, "x, indices, axis");
    auto v = call.const_ints(2);
    if (!v || v->size() != 1)
      call.bad_input(2, "(axis) must be a constant scalar (aclSetTensorConst)");
    axis = (*v)[0];
  } else {
    call.inputs_between(2, 2, "x, indices");
    if (t == "GatherV2D") axis = call.attr_int("axis");
  }
  if (call.attr_int("batch_dims", 0) != 0) call.bad_attr("batch_dims", "must be 0");
  const auto &x = call.in(0), &idx = call.in(1);
  const size_t esize = elem_size_of(call, 0);
  call.dtype_in(1, {DType::i32, DType::i64});
  call.rank_at_least(0, 1);
  axis = normalize_axis(call, axis, x.dims.size(), "axis");
  std::vector<int64_t> dims(x.dims.begin(), x.dims.begin() + axis);
  dims.insert(dims.end(), idx.dims.begin(), idx.dims.end());
  dims.insert(dims.end(), x.dims.begin() + axis + 1, x.dims.end());
  call.output(x.dtype, dims, x.format);
  const int64_t outer = product(x.dims, 0, axis), axis_len = x.dims[axis],
                nidx = idx.element_count();
  const size_t row_bytes = static_cast<size_t>(product(x.dims, axis + 1)) * esize;
  const bool i64 = idx.dtype == DType::i64;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        const char *xp = static_cast<const char *>(in[0].data);
        char *yp = static_cast<char *>(out[0].data);
        if (i64)
          gather_rows(xp, static_cast<const int64_t *>(in[1].data), yp, outer, nidx, axis_len,
                      row_bytes, cores);
        else
          gather_rows(xp, static_cast<const int32_t *>(in[1].data), yp, outer, nidx, axis_len,
                      row_bytes, cores);
      });
}

// ---- Tile / Expand / Pad ----

std::unique_ptr<PreparedOp> build_tile(OpCall &call) {
  const bool d = call.type() == "TileD";
  call.inputs_between(d ? 1 : 2, d ? 1 : 2, d ? "x" : "x, multiples");
  const auto &x = call.in(0);
  const size_t esize = elem_size_of(call, 0);
  auto m = d ? call.attr_ints("multiples") : ints_from(call, 1, "multiples");
  if (m.size() < x.dims.size())
    call.bad_attr("multiples", "has fewer entries than x's rank " + std::to_string(x.dims.size()));
  std::vector<int64_t> xd(m.size() - x.dims.size(), 1);
  xd.insert(xd.end(), x.dims.begin(), x.dims.end());
  const auto cs = contiguous_strides(xd);
  std::vector<int64_t> view, strides, out;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] < 0) call.bad_attr("multiples", dims_str(m) + " has a negative entry");
    view.insert(view.end(), {m[i], xd[i]});
    strides.insert(strides.end(), {0, cs[i]});
    out.push_back(m[i] * xd[i]);
  }
  call.output(x.dtype, out, x.format);
  return view_op(view, strides, 0, esize);
}

std::unique_ptr<PreparedOp> build_expand(OpCall &call) {
  call.inputs_between(2, 2, "x, shape");
  const auto &x = call.in(0);
  const size_t esize = elem_size_of(call, 0);
  std::vector<int64_t> shape;
  if (auto v = call.const_ints(1)) shape = *v;
  else if (const TensorDesc *y = call.given(0)) shape = y->dims;
  else call.bad_input(1, "(shape) has no constant value; set it with aclSetTensorConst");
  std::vector<int64_t> out;
  if (!broadcast_shapes(x.dims, shape, out) || (call.type() == "BroadcastTo" && out != shape))
    call.bad_input(
        0, "has shape " + dims_str(x.dims) + ", which does not broadcast to " + dims_str(shape));
  call.output(x.dtype, out, x.format);
  return view_op(out, broadcast_strides(x.dims, out), 0, esize);
}

// Pad modes "reflect" and "edge": each output element copies the input element its index maps
// to, dimension by dimension (reflect mirrors without repeating the border; edge repeats it).
int64_t border_source(int64_t o, int64_t before, int64_t n, bool reflect) {
  const int64_t s = o - before;
  if (s < 0) return reflect ? -s : 0;
  if (s >= n) return reflect ? 2 * (n - 1) - s : n - 1;
  return s;
}

std::unique_ptr<PreparedOp> make_border_pad(OpCall &call, const std::vector<int64_t> &xd,
                                            const std::vector<int64_t> &out,
                                            const std::vector<int64_t> &before,
                                            const std::vector<int64_t> &after, size_t esize,
                                            bool reflect) {
  const size_t r = xd.size();
  for (size_t i = 0; i < r; ++i) {
    const int64_t most = reflect ? xd[i] - 1 : (xd[i] > 0 ? INT64_MAX : 0);
    if ((before[i] > 0 || after[i] > 0) && (before[i] > most || after[i] > most)) {
      call.bad_attr("paddings",
                    std::string(reflect ? "reflect" : "edge") + " padding of dimension " +
                        std::to_string(i) + " (size " + std::to_string(xd[i]) + ") must be " +
                        (reflect ? "below the dimension's size" : "of a non-empty dimension"));
    }
  }
  const auto xs = contiguous_strides(xd);
  const int64_t inner = out[r - 1], rows = product(out) / inner;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
        const char *x = static_cast<const char *>(in[0].data);
        char *y = static_cast<char *>(o[0].data);
        parallel_range(cores, static_cast<size_t>(rows), 256, [&](size_t b, size_t e) {
          for (size_t row = b; row < e; ++row) {
            int64_t rest = static_cast<int64_t>(row), src = 0;
            for (size_t d = r - 1; d-- > 0;) {
              src += border_source(rest % out[d], before[d], xd[d], reflect) * xs[d];
              rest /= out[d];
            }
            char *line = y + static_cast<int64_t>(row) * inner * static_cast<int64_t>(esize);
            for (int64_t j = 0; j < inner; ++j) {
              std::memcpy(line + j * static_cast<int64_t>(esize),
                          x + (src + border_source(j, before[r - 1], xd[r - 1], reflect)) *
                                  static_cast<int64_t>(esize),
                          esize);
            }
          }
        });
      });
}

std::unique_ptr<PreparedOp> build_pad(OpCall &call) {
  const std::string &t = call.type();
  const auto &x0 = call.in(0);
  const size_t r = x0.dims.size();
  std::vector<int64_t> before(r), after(r);
  bool has_value = false;
  std::string mode = "constant";
  if (t == "PadD") {
    call.inputs_between(1, 1, "x");
    auto p = call.attr_int_lists("paddings");
    if (p.size() != r)
      call.bad_attr("paddings",
                    "has " + std::to_string(p.size()) + " pairs; x has rank " + std::to_string(r));
    for (size_t i = 0; i < r; ++i) {
      if (p[i].size() != 2)
        call.bad_attr("paddings", "entry " + std::to_string(i) + " is not a pair");
      before[i] = p[i][0];
      after[i] = p[i][1];
    }
  } else {
    call.inputs_between(2, 3, "x, paddings, [constant_values]");
    auto p = call.const_ints(1);
    if (!p || p->size() != 2 * r)
      call.bad_input(1, "(paddings) must be a constant of 2 x rank ints (aclSetTensorConst)");
    const bool contiguous = t != "PadV3" || call.attr_bool("paddings_contiguous", true);
    if (t == "PadV3") mode = call.attr_str("mode", std::string("constant"));
    if (mode != "constant" && mode != "reflect" && mode != "edge")
      call.bad_attr("mode", "'" + mode + "' is not supported; 'constant', 'reflect' or 'edge'");
    for (size_t i = 0; i < r; ++i) {
      before[i] = contiguous ? (*p)[2 * i] : (*p)[i];
      after[i] = contiguous ? (*p)[2 * i + 1] : (*p)[r + i];
    }
    has_value = call.has(2);
    if (has_value) {
      call.same_dtype(0, 2);
      if (call.in(2).element_count() != 1)
        call.bad_input(2, "(constant_values) must hold 1 element");
    }
  }
  const size_t esize = elem_size_of(call, 0);
  std::vector<int64_t> out(r);
  int64_t offset = 0;
  for (size_t i = 0; i < r; ++i) {
    if (before[i] < 0 || after[i] < 0)
      call.bad_attr("paddings", "has a negative entry; cropping is not supported");
    out[i] = x0.dims[i] + before[i] + after[i];
  }
  const auto os = contiguous_strides(out);
  for (size_t i = 0; i < r; ++i) offset += before[i] * os[i];
  call.output(x0.dtype, out, x0.format);
  const auto xd = x0.dims;
  const int64_t total = product(out);
  if (mode != "constant" && total > 0)
    return make_border_pad(call, xd, out, before, after, esize, mode == "reflect");
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
        char value[8] = {};
        if (has_value) std::memcpy(value, in[2].data, esize);
        char *y = static_cast<char *>(o[0].data);
        parallel_range(cores, static_cast<size_t>(total), 64 * 1024, [&](size_t b, size_t e) {
          for (size_t i = b; i < e; ++i) std::memcpy(y + i * esize, value, esize);
        });
        strided_copy(cores, xd, y + offset * static_cast<int64_t>(esize), os,
                     static_cast<const char *>(in[0].data), contiguous_strides(xd), esize);
      });
}

const Registrar reg({
    {"Transpose", build_transpose}, {"TransposeD", build_transpose},
    {"Reshape", build_reshape},     {"Squeeze", build_squeeze},
    {"Unsqueeze", build_unsqueeze}, {"ExpandDims", build_expand_dims},
    {"Flatten", build_flatten},     {"Concat", build_concat},
    {"ConcatD", build_concat},      {"ConcatV2", build_concat},
    {"ConcatV2D", build_concat},    {"Split", build_split},
    {"SplitD", build_split},        {"SplitV", build_split},
    {"SplitVD", build_split},       {"Slice", build_slice},
    {"SliceD", build_slice},        {"StridedSliceD", build_strided_slice},
    {"Gather", build_gather},       {"GatherV2", build_gather},
    {"GatherV2D", build_gather},    {"Tile", build_tile},
    {"TileD", build_tile},          {"Expand", build_expand},
    {"BroadcastTo", build_expand},  {"Pad", build_pad},
    {"PadV3", build_pad},           {"PadD", build_pad},
});

}  // namespace
}  // namespace openacl::ops
