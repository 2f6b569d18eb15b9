// Cast between data types, and the ops that make constant tensors: ZerosLike, OnesLike, Fill.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

// Float -> integer saturates and maps NaN to 0 (C++ leaves both undefined).
template <class D, class S>
inline D convert(S s) {
  if constexpr (std::is_same_v<D, bool>) {
    return static_cast<compute_t<S>>(s) != 0;
  } else if constexpr (std::is_integral_v<D> && !std::is_integral_v<S>) {
    const double v = static_cast<double>(static_cast<compute_t<S>>(s));
    if (!(v == v)) return D(0);
    if (v <= static_cast<double>(std::numeric_limits<D>::lowest()))
      return std::numeric_limits<D>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  } else if constexpr (std::is_same_v<D, half_t> || std::is_same_v<D, bf16_t>) {
    return D(static_cast<float>(static_cast<compute_t<S>>(s)));
  } else {
    return static_cast<D>(static_cast<compute_t<S>>(s));
  }
}

template <class S, class D>
std::unique_ptr<PreparedOp> cast_op(int64_t n) {
  return make_op(
      [n](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        const S *x = static_cast<const S *>(in[0].data);
        D *y = static_cast<D *>(out[0].data);
        parallel_range(cores, static_cast<size_t>(n), 32 * 1024, [&](size_t b, size_t e) {
          // float16 <-> float32 in bulk (F16C): attention casts whole key / value caches.
          if constexpr (std::is_same_v<S, half_t> && std::is_same_v<D, float>)
            to_f32(DType::f16, x + b, y + b, e - b);
          else if constexpr (std::is_same_v<S, float> && std::is_same_v<D, half_t>)
            from_f32(DType::f16, x + b, y + b, e - b);
          else
            for (size_t i = b; i < e; ++i) y[i] = convert<D>(x[i]);
        });
      });
}

std::unique_ptr<PreparedOp> build_cast(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.work_per_element();
  const DType src = call.in(0).dtype;
  const DType dst = call.attr_dtype("dst_type");
  if (dtype_size(src) == 0)
    call.bad_dtype(
        0, std::string("has data type ") + dtype_name(src) + ", which Cast does not support");
  if (dtype_size(dst) == 0)
    fail(Errc::unsupported_data_type,
         call.type() + ": attr 'dst_type' " + dtype_name(dst) + " is not supported");
  call.output(dst, call.in(0).dims, call.in(0).format);
  const int64_t n = call.in(0).element_count();
  std::unique_ptr<PreparedOp> op;
  visit_dtype(src, [&](auto s) {
    visit_dtype(dst, [&](auto d) { op = cast_op<decltype(s), decltype(d)>(n); });
  });
  return op;
}

// Writes `value` (already converted to the dtype) count times.
void fill_bytes(backend::AiCores &cores, void *dst, const void *value, size_t esize,
                int64_t count) {
  char *d = static_cast<char *>(dst);
  parallel_range(cores, static_cast<size_t>(count), 64 * 1024, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) std::memcpy(d + i * esize, value, esize);
  });
}

std::unique_ptr<PreparedOp> build_like(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.work_per_element();
  const auto &x = call.in(0);
  const size_t esize = dtype_size(x.dtype);
  if (esize == 0) call.bad_dtype(0, std::string("has data type ") + dtype_name(x.dtype));
  call.output(x.dtype, x.dims, x.format);
  std::vector<char> one(esize, 0);
  if (call.type() == "OnesLike")
    visit_dtype(x.dtype, [&](auto v) {
      using T = decltype(v);
      const T t = convert<T>(1.0f);
      std::memcpy(one.data(), &t, esize);
    });
  const int64_t n = x.element_count();
  return make_op([one, esize, n](const std::vector<Tensor> &, const std::vector<Tensor> &out,
                                 backend::AiCores &cores) {
    fill_bytes(cores, out[0].data, one.data(), esize, n);
  });
}

std::unique_ptr<PreparedOp> build_fill(OpCall &call) {
  call.work_per_element();
  std::vector<int64_t> dims;
  size_t value_index = 1;
  if (call.type() == "FillD") {
    call.inputs_between(1, 1, "value");
    value_index = 0;
    dims = call.attr_ints("dims");
  } else {
    call.inputs_between(2, 2, "dims, value");
    if (auto v = call.const_ints(0)) {
      dims = *v;
    } else if (const TensorDesc *y = call.given(0)) {
      dims = y->dims;
    } else {
      call.bad_input(0, "(dims) has no constant value; set it with aclSetTensorConst");
    }
  }
  for (int64_t d : dims)
    if (d < 0) call.bad_input(0, "(dims) holds a negative dim: " + dims_str(dims));
  const auto &v = call.in(value_index);
  if (v.element_count() != 1)
    call.bad_input(value_index, "(value) must hold 1 element, has shape " + dims_str(v.dims));
  const size_t esize = dtype_size(v.dtype);
  if (esize == 0) call.bad_dtype(value_index, std::string("has data type ") + dtype_name(v.dtype));
  call.output(v.dtype, dims);
  const int64_t n = product(dims);
  return make_op([n, esize, value_index](const std::vector<Tensor> &in,
                                         const std::vector<Tensor> &out, backend::AiCores &cores) {
    char value[8];
    std::memcpy(value, in[value_index].data, esize);  // read on the stream: device memory
    fill_bytes(cores, out[0].data, value, esize, n);
  });
}

const Registrar reg({
    {"Cast", build_cast},
    {"ZerosLike", build_like},
    {"OnesLike", build_like},
    {"Fill", build_fill},
    {"FillD", build_fill},
});

}  // namespace
}  // namespace openacl::ops
