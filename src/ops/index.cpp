// Ops that address elements by computed indices or positions: Cumsum, GatherElements,
// ScatterElements, GatherNd, TensorScatterUpdate / TensorScatterAdd, OneHot, TopKV2,
// Tril / Triu.
#include <algorithm>
#include <numeric>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

// An index read from the data, wrapped once if negative; fails the stream when out of range.
int64_t checked_index(const char *op, int64_t i, int64_t len) {
  const int64_t w = i < 0 ? i + len : i;
  if (w < 0 || w >= len)
    fail(Errc::task_failure, std::string(op) + ": index " + std::to_string(i) +
                                 " is out of range for a dim of size " + std::to_string(len));
  return w;
}

int64_t read_index(const void *p, bool i64, int64_t k) {
  return i64 ? static_cast<const int64_t *>(p)[k] : static_cast<const int32_t *>(p)[k];
}

int64_t scalar_const(const OpCall &call, size_t i, const char *what) {
  auto v = call.const_ints(i);
  if (!v || v->size() != 1)
    call.bad_input(i, std::string("(") + what + ") must be a constant scalar (aclSetTensorConst)");
  return (*v)[0];
}

// Calls f(q, start) for each of the outer * inner lines along an axis of length len (line q
// holds the elements start, start + inner, ...), split over the AI cores.
template <class F>
void for_each_line(backend::AiCores &cores, int64_t outer, int64_t len, int64_t inner, size_t grain,
                   F &&f) {
  parallel_range(cores, static_cast<size_t>(outer * inner), grain, [&](size_t lo, size_t hi) {
    for (auto q = static_cast<int64_t>(lo); q < static_cast<int64_t>(hi); ++q)
      f(q, q / inner * len * inner + q % inner);
  });
}

template <class T>
constexpr bool is_arith =
    std::is_same_v<T, float> || std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t> ||
    std::is_same_v<T, double> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

// ---- Cumsum ----

std::unique_ptr<PreparedOp> build_cumsum(OpCall &call) {
  const bool d = call.type() == "CumsumD";
  call.inputs_between(d ? 1 : 2, d ? 1 : 2, d ? "x" : "x, axis");
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i32, DType::i64});
  call.rank_at_least(0, 1);
  const auto &x = call.in(0);
  const int64_t axis = normalize_axis(
      call, d ? call.attr_int("axis", 0) : scalar_const(call, 1, "axis"), x.dims.size(), "axis");
  const bool exclusive = call.attr_bool("exclusive", false),
             reverse = call.attr_bool("reverse", false);
  call.output(x.dtype, x.dims, x.format);
  const int64_t outer = product(x.dims, 0, axis), len = x.dims[axis],
                inner = product(x.dims, axis + 1);
  const DType t = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        visit_dtype(t, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (is_arith<T>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *yp = static_cast<T *>(out[0].data);
            for_each_line(cores, outer, len, inner, 256, [&](int64_t, int64_t base) {
              compute_t<T> acc{};
              for (int64_t s = 0; s < len; ++s) {
                const int64_t k = base + (reverse ? len - 1 - s : s) * inner;
                const auto v = static_cast<compute_t<T>>(xp[k]);
                if (!exclusive) acc += v;
                yp[k] = T(acc);
                if (exclusive) acc += v;
              }
            });
          }
        });
      });
}

// ---- GatherElements / ScatterElements ----

// Each position of an index tensor (x's rank) addresses the x element at the same coordinates
// but along axis, where the index value is the coordinate.
struct ElementAddressing {
  std::vector<int64_t> x_strides, idx_strides;
  int64_t axis = 0, len = 0;
  bool i64 = false;

  int64_t offset(const void *idx, int64_t q, const char *op) const {
    int64_t rem = q, off = 0;
    for (size_t d = 0; d < idx_strides.size(); ++d) {
      const int64_t c = rem / idx_strides[d];
      rem %= idx_strides[d];
      off +=
          (static_cast<int64_t>(d) == axis ? checked_index(op, read_index(idx, i64, q), len) : c) *
          x_strides[d];
    }
    return off;
  }
};

ElementAddressing element_addressing(const OpCall &call, const TensorDesc &x, const TensorDesc &idx,
                                     int64_t axis) {
  call.dtype_in(1, {DType::i32, DType::i64});
  call.rank_at_least(0, 1);
  if (idx.dims.size() != x.dims.size())
    call.bad_input(1, "has rank " + std::to_string(idx.dims.size()) + "; it must equal x's rank " +
                          std::to_string(x.dims.size()));
  ElementAddressing a;
  a.axis = normalize_axis(call, axis, x.dims.size(), call.has_attr("dim") ? "dim" : "axis");
  for (size_t i = 0; i < x.dims.size(); ++i)
    if (static_cast<int64_t>(i) != a.axis && idx.dims[i] > x.dims[i])
      call.bad_input(1, "has shape " + dims_str(idx.dims) + ", larger than x's " +
                            dims_str(x.dims) + " outside dim " + std::to_string(a.axis));
  a.x_strides = contiguous_strides(x.dims);
  a.idx_strides = contiguous_strides(idx.dims);
  a.len = x.dims[a.axis];
  a.i64 = idx.dtype == DType::i64;
  return a;
}

size_t element_size(const OpCall &call, size_t i) {
  const size_t e = dtype_size(call.in(i).dtype);
  if (e == 0) call.bad_dtype(i, std::string("has data type ") + dtype_name(call.in(i).dtype));
  return e;
}

std::unique_ptr<PreparedOp> build_gather_elements(OpCall &call) {
  call.inputs_between(2, 2, "x, index");
  const auto &x = call.in(0), &idx = call.in(1);
  const size_t esize = element_size(call, 0);
  const ElementAddressing a = element_addressing(call, x, idx, call.attr_int("dim", 0));
  call.output(x.dtype, idx.dims, x.format);
  const int64_t n = idx.element_count();
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        const char *xp = static_cast<const char *>(in[0].data);
        char *yp = static_cast<char *>(out[0].data);
        parallel_range(cores, static_cast<size_t>(n), 4096, [&](size_t lo, size_t hi) {
          for (size_t q = lo; q < hi; ++q)
            std::memcpy(yp + q * esize,
                        xp + a.offset(in[1].data, static_cast<int64_t>(q), "GatherElements") *
                                 static_cast<int64_t>(esize),
                        esize);
        });
      });
}

std::unique_ptr<PreparedOp> build_scatter_elements(OpCall &call) {
  call.inputs_between(3, 3, "data, indices, updates");
  const auto &x = call.in(0), &idx = call.in(1), &upd = call.in(2);
  const std::string reduction = call.attr_str("reduction", "none");
  if (reduction != "none" && reduction != "add")
    call.bad_attr("reduction", "is '" + reduction + "'; expected none or add");
  const bool add = reduction == "add";
  if (add)
    call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i32, DType::i64});
  const size_t esize = element_size(call, 0);
  call.same_dtype(0, 2);
  if (upd.dims != idx.dims)
    call.bad_input(
        2, "has shape " + dims_str(upd.dims) + "; it must equal indices' " + dims_str(idx.dims));
  const ElementAddressing a = element_addressing(call, x, idx, call.attr_int("axis", 0));
  call.output(x.dtype, x.dims, x.format);
  const int64_t n = idx.element_count();
  const size_t total = static_cast<size_t>(x.element_count()) * esize;
  const DType t = x.dtype;
  // Sequential: repeated indices apply in order (none: the last wins).
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &) {
        char *yp = static_cast<char *>(out[0].data);
        if (in[0].data != out[0].data) std::memcpy(yp, in[0].data, total);
        const char *up = static_cast<const char *>(in[2].data);
        visit_dtype(t, [&](auto tag) {
          using T = decltype(tag);
          for (int64_t q = 0; q < n; ++q) {
            const int64_t off = a.offset(in[1].data, q, "ScatterElements");
            if constexpr (is_arith<T>) {
              if (add) {
                T &dst = reinterpret_cast<T *>(yp)[off];
                dst = T(static_cast<compute_t<T>>(dst) +
                        static_cast<compute_t<T>>(reinterpret_cast<const T *>(up)[q]));
                continue;
              }
            }
            std::memcpy(yp + off * static_cast<int64_t>(esize),
                        up + q * static_cast<int64_t>(esize), esize);
          }
        });
      });
}

// ---- GatherNd / TensorScatterUpdate / TensorScatterAdd ----

// indices [..., k] address slices of x's first k dims; each slice has `slice` elements.
struct NdAddressing {
  int64_t count = 0;             // number of index tuples
  int64_t depth = 0;             // k
  int64_t slice = 0;             // elements per addressed slice
  std::vector<int64_t> dims;     // x's first k dims
  std::vector<int64_t> strides;  // in elements
  bool i64 = false;

  int64_t offset(const void *idx, int64_t t, const char *op) const {
    int64_t off = 0;
    for (int64_t j = 0; j < depth; ++j)
      off += checked_index(op, read_index(idx, i64, t * depth + j), dims[j]) * strides[j];
    return off;
  }
};

NdAddressing nd_addressing(const OpCall &call, const TensorDesc &x, const TensorDesc &idx) {
  call.dtype_in(1, {DType::i32, DType::i64});
  call.rank_at_least(1, 1);
  NdAddressing a;
  a.depth = idx.dims.back();
  if (a.depth < 1 || a.depth > static_cast<int64_t>(x.dims.size()))
    call.bad_input(1, "has last dim " + std::to_string(a.depth) + "; it must be in [1, " +
                          std::to_string(x.dims.size()) + "] (x's rank)");
  a.count = product(idx.dims, 0, idx.dims.size() - 1);
  a.slice = product(x.dims, static_cast<size_t>(a.depth));
  a.dims.assign(x.dims.begin(), x.dims.begin() + a.depth);
  const auto cs = contiguous_strides(x.dims);
  a.strides.assign(cs.begin(), cs.begin() + a.depth);
  a.i64 = idx.dtype == DType::i64;
  return a;
}

std::unique_ptr<PreparedOp> build_gather_nd(OpCall &call) {
  call.inputs_between(2, 2, "x, indices");
  const auto &x = call.in(0), &idx = call.in(1);
  const size_t esize = element_size(call, 0);
  const NdAddressing a = nd_addressing(call, x, idx);
  std::vector<int64_t> dims(idx.dims.begin(), idx.dims.end() - 1);
  dims.insert(dims.end(), x.dims.begin() + a.depth, x.dims.end());
  call.output(x.dtype, dims, Format::nd);
  const size_t row = static_cast<size_t>(a.slice) * esize;
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    const char *xp = static_cast<const char *>(in[0].data);
    char *yp = static_cast<char *>(out[0].data);
    parallel_range(cores, static_cast<size_t>(a.count), std::max<size_t>(1, 16384 / (row + 1)),
                   [&](size_t lo, size_t hi) {
                     for (size_t t = lo; t < hi; ++t)
                       std::memcpy(yp + t * row,
                                   xp + a.offset(in[1].data, static_cast<int64_t>(t), "GatherNd") *
                                            static_cast<int64_t>(esize),
                                   row);
                   });
  });
}

std::unique_ptr<PreparedOp> build_tensor_scatter(OpCall &call) {
  const bool add = call.type() == "TensorScatterAdd";
  call.inputs_between(3, 3, "x, indices, updates");
  const auto &x = call.in(0), &idx = call.in(1), &upd = call.in(2);
  if (add)
    call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i32, DType::i64});
  const size_t esize = element_size(call, 0);
  call.same_dtype(0, 2);
  const NdAddressing a = nd_addressing(call, x, idx);
  std::vector<int64_t> want(idx.dims.begin(), idx.dims.end() - 1);
  want.insert(want.end(), x.dims.begin() + a.depth, x.dims.end());
  if (upd.dims != want)
    call.bad_input(2, "has shape " + dims_str(upd.dims) + "; indices " + dims_str(idx.dims) +
                          " into x " + dims_str(x.dims) + " need " + dims_str(want));
  call.output(x.dtype, x.dims, x.format);
  const size_t total = static_cast<size_t>(x.element_count()) * esize;
  const DType t = x.dtype;
  // Sequential over the index tuples: duplicates must apply in order (update: the last wins).
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &) {
    char *yp = static_cast<char *>(out[0].data);
    if (in[0].data != out[0].data) std::memcpy(yp, in[0].data, total);
    const char *up = static_cast<const char *>(in[2].data);
    for (int64_t k = 0; k < a.count; ++k) {
      const int64_t off = a.offset(in[1].data, k, add ? "TensorScatterAdd" : "TensorScatterUpdate");
      if (!add) {
        std::memcpy(yp + off * static_cast<int64_t>(esize),
                    up + k * a.slice * static_cast<int64_t>(esize),
                    static_cast<size_t>(a.slice) * esize);
        continue;
      }
      visit_dtype(t, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (is_arith<T>) {
          T *dst = reinterpret_cast<T *>(yp) + off;
          const T *src = reinterpret_cast<const T *>(up) + k * a.slice;
          for (int64_t e = 0; e < a.slice; ++e)
            dst[e] = T(static_cast<compute_t<T>>(dst[e]) + static_cast<compute_t<T>>(src[e]));
        }
      });
    }
  });
}

// ---- OneHot ----

std::unique_ptr<PreparedOp> build_one_hot(OpCall &call) {
  call.inputs_between(4, 4, "x, depth, on_value, off_value");
  call.dtype_in(0, {DType::i32, DType::i64, DType::u8});
  const auto &x = call.in(0), &on = call.in(2);
  const int64_t depth = scalar_const(call, 1, "depth");
  if (depth < 0) call.bad_input(1, "(depth) is negative");
  if (on.element_count() != 1) call.bad_input(2, "(on_value) must be a scalar");
  if (call.in(3).element_count() != 1) call.bad_input(3, "(off_value) must be a scalar");
  call.same_dtype(2, 3);
  const size_t esize = element_size(call, 2);
  const int64_t axis = normalize_axis(call, call.attr_int("axis", -1), x.dims.size() + 1, "axis");
  std::vector<int64_t> dims = x.dims;
  dims.insert(dims.begin() + axis, depth);
  call.output(on.dtype, dims, Format::nd);
  const int64_t outer = product(x.dims, 0, axis), inner = product(x.dims, axis);
  const DType it = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        char *yp = static_cast<char *>(out[0].data);
        const char *onp = static_cast<const char *>(in[2].data),
                   *offp = static_cast<const char *>(in[3].data);
        const int64_t n = outer * depth * inner;
        parallel_range(cores, static_cast<size_t>(n), 4096, [&](size_t lo, size_t hi) {
          for (size_t q = lo; q < hi; ++q) {
            const int64_t o = static_cast<int64_t>(q) / (depth * inner),
                          dd = static_cast<int64_t>(q) / inner % depth,
                          i = static_cast<int64_t>(q) % inner;
            const int64_t k = o * inner + i;
            int64_t v = it == DType::i64   ? static_cast<const int64_t *>(in[0].data)[k]
                        : it == DType::i32 ? static_cast<const int32_t *>(in[0].data)[k]
                                           : static_cast<const uint8_t *>(in[0].data)[k];
            if (v < 0) v += depth;  // ONNX: negative indices count from the end; others are all off
            std::memcpy(yp + q * esize, v == dd ? onp : offp, esize);
          }
        });
      });
}

// ---- TopKV2 ----

std::unique_ptr<PreparedOp> build_top_k(OpCall &call) {
  call.inputs_between(2, 2, "x, k");
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i32, DType::i64});
  call.rank_at_least(0, 1);
  const auto &x = call.in(0);
  const int64_t axis = normalize_axis(call, call.attr_int("dim", -1), x.dims.size(), "dim");
  const int64_t k = scalar_const(call, 1, "k"), len = x.dims[axis];
  if (k < 0 || k > len)
    call.bad_input(
        1, "(k) is " + std::to_string(k) + "; it must be in [0, " + std::to_string(len) + "]");
  const bool largest = call.attr_bool("largest", true);
  (void)call.attr_bool("sorted", true);  // results are always sorted, which satisfies both
  const DType it = call.attr_dtype("indices_dtype", DType::i32);
  if (it != DType::i32 && it != DType::i64)
    call.bad_attr("indices_dtype",
                  std::string("is ") + dtype_name(it) + "; expected int32 or int64");
  std::vector<int64_t> dims = x.dims;
  dims[axis] = k;
  call.output(x.dtype, dims, x.format);
  call.output(it, dims, x.format);
  const int64_t outer = product(x.dims, 0, axis), inner = product(x.dims, axis + 1);
  const DType t = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        visit_dtype(t, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (is_arith<T>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *vp = static_cast<T *>(out[0].data);
            for_each_line(cores, outer, len, inner, 16, [&](int64_t q, int64_t base) {
              thread_local std::vector<int64_t> order;
              order.resize(static_cast<size_t>(len));
              const int64_t obase = q / inner * k * inner + q % inner;
              std::iota(order.begin(), order.end(), 0);
              // Ties keep the lower index first, as ONNX Runtime does.
              auto before = [&](int64_t a, int64_t b) {
                const auto va = static_cast<compute_t<T>>(xp[base + a * inner]);
                const auto vb = static_cast<compute_t<T>>(xp[base + b * inner]);
                if (va != vb) return largest ? va > vb : va < vb;
                return a < b;
              };
              std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
              for (int64_t j = 0; j < k; ++j) {
                const int64_t o = obase + j * inner;
                vp[o] = xp[base + order[static_cast<size_t>(j)] * inner];
                if (it == DType::i64)
                  static_cast<int64_t *>(out[1].data)[o] = order[static_cast<size_t>(j)];
                else
                  static_cast<int32_t *>(out[1].data)[o] =
                      static_cast<int32_t>(order[static_cast<size_t>(j)]);
              }
            });
          }
        });
      });
}

// ---- Tril / Triu ----

std::unique_ptr<PreparedOp> build_triangle(OpCall &call) {
  const bool upper = call.type() == "Triu";
  call.inputs_between(1, 1, "x");
  call.rank_at_least(0, 2);
  const auto &x = call.in(0);
  const size_t esize = element_size(call, 0);
  const int64_t diagonal = call.attr_int("diagonal", 0);
  call.output(x.dtype, x.dims, x.format);
  const int64_t rows = x.dims[x.dims.size() - 2], cols = x.dims.back();
  const int64_t mats = product(x.dims, 0, x.dims.size() - 2);
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        const char *xp = static_cast<const char *>(in[0].data);
        char *yp = static_cast<char *>(out[0].data);
        parallel_range(cores, static_cast<size_t>(mats * rows), 64, [&](size_t lo, size_t hi) {
          for (size_t r = lo; r < hi; ++r) {
            const int64_t i = static_cast<int64_t>(r) % rows;
            // Kept columns: j - i >= diagonal (upper) or j - i <= diagonal (lower).
            const int64_t a = upper ? std::clamp<int64_t>(i + diagonal, 0, cols) : 0;
            const int64_t b = upper ? cols : std::clamp<int64_t>(i + diagonal + 1, 0, cols);
            char *row = yp + static_cast<int64_t>(r) * cols * static_cast<int64_t>(esize);
            const char *src = xp + static_cast<int64_t>(r) * cols * static_cast<int64_t>(esize);
            std::memset(row, 0, static_cast<size_t>(a) * esize);
            std::memmove(row + a * static_cast<int64_t>(esize),
                         src + a * static_cast<int64_t>(esize), static_cast<size_t>(b - a) * esize);
            std::memset(row + b * static_cast<int64_t>(esize), 0,
                        static_cast<size_t>(cols - b) * esize);
          }
        });
      });
}

const Registrar reg({
    {"Cumsum", build_cumsum},
    {"CumsumD", build_cumsum},
    {"GatherElements", build_gather_elements},
    {"ScatterElements", build_scatter_elements},
    {"GatherNd", build_gather_nd},
    {"TensorScatterUpdate", build_tensor_scatter},
    {"TensorScatterAdd", build_tensor_scatter},
    {"OneHot", build_one_hot},
    {"TopKV2", build_top_k},
    {"Tril", build_triangle},
    {"Triu", build_triangle},
});

}  // namespace
}  // namespace openacl::ops
