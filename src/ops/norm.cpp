// Normalisations and reductions: BatchNorm (inference), LayerNorm, SoftmaxV2, LogSoftmaxV2,
// ReduceSum/Mean/Max/Min/Prod (+D forms), ArgMaxV2/ArgMaxD/ArgMinD. Float math in f32
// (sums in double).
#include <cmath>
#include <cstring>
#include <limits>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

const std::initializer_list<DType> kFloats = {DType::f32, DType::f16, DType::bf16};

// Reads a whole float-typed tensor as f32 (copying only when needed).
const float *as_f32(DType t, const void *p, size_t n, std::vector<float> &tmp) {
  if (t == DType::f32) return static_cast<const float *>(p);
  tmp.resize(n);
  to_f32(t, p, tmp.data(), n);
  return tmp.data();
}

// Softmax (or log-softmax) of a contiguous row, in place. Max and sum go through sixteen lanes
// so that the loops vectorise without reassociation flags, in one AVX-512 register
// (simd_wide). The copy into the output stays a memcpy of its own: fused with the max, GCC left
// the max loop scalar and softmax ran 2x slower.
OPENACL_SIMD_KERNEL void softmax_row(float *v, int64_t n, bool log) {
  constexpr int L = 16;
  float m[L], s[L];
  for (int j = 0; j < L; ++j) m[j] = -std::numeric_limits<float>::infinity(), s[j] = 0;
  int64_t k = 0;
  for (; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) m[j] = std::max(m[j], v[k + j]);
  float mx = m[0];
  for (int j = 1; j < L; ++j) mx = std::max(mx, m[j]);
  for (; k < n; ++k) mx = std::max(mx, v[k]);
  for (k = 0; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) {
      const float e = fast_exp(v[k + j] - mx);
      s[j] += e;
      if (!log) v[k + j] = e;
    }
  float sum = 0;
  for (int j = 0; j < L; ++j) sum += s[j];
  for (; k < n; ++k) {
    const float e = fast_exp(v[k] - mx);
    sum += e;
    if (!log) v[k] = e;
  }
  if (log) {
    const float sub = mx + std::log(sum);
    for (k = 0; k < n; ++k) v[k] -= sub;
  } else {
    const float inv = 1.0f / sum;
    for (k = 0; k < n; ++k) v[k] *= inv;
  }
}

// ---- BatchNorm ----

std::unique_ptr<PreparedOp> build_batchnorm(OpCall &call) {
  call.inputs_between(5, 5, "x, scale, offset, mean, variance");
  call.dtype_in(0, kFloats);
  call.rank_at_least(0, 2);
  if (call.attr_bool("is_training", false))
    call.bad_attr("is_training", "is true; only inference (false) is supported");
  const auto &x = call.in(0);
  const std::string fmt = call.attr_str("data_format", std::string("NCHW"));
  if (fmt != "NCHW" && fmt != "NHWC" && fmt != "NCDHW" && fmt != "ND")
    call.bad_attr("data_format", "is '" + fmt + "'; expected NCHW or NHWC");
  const bool nhwc = fmt == "NHWC";
  const size_t caxis = nhwc ? x.dims.size() - 1 : 1;
  const int64_t c = x.dims[caxis];
  const DType pt = call.in(1).dtype;
  for (size_t i = 1; i < 5; ++i) {
    call.dtype_in(i, kFloats);
    if (call.in(i).dtype != pt) call.same_dtype(1, i);
    if (call.in(i).element_count() != c)
      call.bad_input(i, "has shape " + dims_str(call.in(i).dims) + "; expected " +
                            std::to_string(c) + " elements (the channels)");
  }
  const float eps = call.attr_float("epsilon", 0.0001f);
  call.output(x.dtype, x.dims, x.format);
  for (size_t i = 0; i < 4; ++i)
    if (call.given() == nullptr || call.given()->size() > 1) call.output(pt, {c});
  if (call.given() != nullptr && call.given()->size() == 1) call.outputs().resize(1);
  const int64_t outer = nhwc ? product(x.dims, 0, caxis) : x.dims[0];
  const int64_t inner = nhwc ? 1 : product(x.dims, 2);
  const DType xt = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        std::vector<float> prm[4];
        const float *s = as_f32(pt, in[1].data, c, prm[0]), *o = as_f32(pt, in[2].data, c, prm[1]);
        const float *m = as_f32(pt, in[3].data, c, prm[2]), *v = as_f32(pt, in[4].data, c, prm[3]);
        std::vector<float> a(c), b(c);
        for (int64_t i = 0; i < c; ++i) {
          a[i] = s[i] / std::sqrt(v[i] + eps);
          b[i] = o[i] - m[i] * a[i];
        }
        visit_dtype(xt, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *yp = static_cast<T *>(out[0].data);
            parallel_range(cores, static_cast<size_t>(outer * c),
                           std::max<size_t>(1, 16384 / (inner + 1)), [&](size_t lo, size_t hi) {
                             for (size_t r = lo; r < hi; ++r) {
                               const int64_t ch = static_cast<int64_t>(r) % c;
                               const float av = a[ch], bv = b[ch];
                               const T *xs = xp + r * inner;
                               T *ys = yp + r * inner;
                               for (int64_t i = 0; i < inner; ++i)
                                 ys[i] = T(static_cast<float>(xs[i]) * av + bv);
                             }
                           });
          }
        });
        // Inference: the batch statistics outputs carry the running ones.
        for (size_t k = 1; k < out.size(); ++k)
          std::memcpy(out[k].data, in[k % 2 == 1 ? 3 : 4].data, c * dtype_size(pt));
      });
}

// ---- LayerNorm ----

std::unique_ptr<PreparedOp> build_layernorm(OpCall &call) {
  call.inputs_between(3, 3, "x, gamma, beta");
  call.dtype_in(0, kFloats);
  const auto &x = call.in(0);
  const size_t r = x.dims.size();
  const int64_t bna =
      normalize_axis(call, call.attr_int("begin_norm_axis", 0), r, "begin_norm_axis");
  int64_t bpa = normalize_axis(call, call.attr_int("begin_params_axis", 0), r, "begin_params_axis");
  const float eps = call.attr_float("epsilon", 1e-7f);
  const int64_t outer = product(x.dims, 0, bna), inner = product(x.dims, bna);
  if (bpa < bna) bpa = bna;  // parameters cover the normalised block
  const int64_t psize = product(x.dims, bpa);
  for (size_t i = 1; i < 3; ++i) {
    call.dtype_in(i, kFloats);
    if (call.in(i).element_count() != psize)
      call.bad_input(i, "has shape " + dims_str(call.in(i).dims) + "; expected " +
                            std::to_string(psize) + " elements (x's dims from begin_params_axis)");
  }
  call.output(x.dtype, x.dims, x.format);
  std::vector<int64_t> sd(x.dims.begin(), x.dims.begin() + bna);
  sd.resize(r, 1);
  if (call.given() == nullptr || call.given()->size() > 1) {
    call.output(x.dtype, sd);
    call.output(x.dtype, sd);
  }
  const DType xt = x.dtype, gt = call.in(1).dtype, bt = call.in(2).dtype;
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    std::vector<float> gtmp, btmp;
    const float *g = as_f32(gt, in[1].data, psize, gtmp), *b = as_f32(bt, in[2].data, psize, btmp);
    parallel_range(
        cores, static_cast<size_t>(outer), std::max<size_t>(1, 16384 / (inner + 1)),
        [&](size_t lo, size_t hi) {
          std::vector<float> row(inner);
          for (size_t o = lo; o < hi; ++o) {
            to_f32(xt, static_cast<const char *>(in[0].data) + o * inner * dtype_size(xt),
                   row.data(), inner);
            double sum = 0;
            for (int64_t i = 0; i < inner; ++i) sum += row[i];
            const double mean = inner ? sum / inner : 0;
            double sq = 0;
            for (int64_t i = 0; i < inner; ++i) sq += (row[i] - mean) * (row[i] - mean);
            const double var = inner ? sq / inner : 0;
            const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps)),
                        mf = static_cast<float>(mean);
            for (int64_t i = 0; i < inner; ++i)
              row[i] = (row[i] - mf) * rstd * g[i % psize] + b[i % psize];
            from_f32(xt, row.data(), static_cast<char *>(out[0].data) + o * inner * dtype_size(xt),
                     inner);
            if (out.size() == 3) {
              const float mv = mf, vv = static_cast<float>(var);
              from_f32(xt, &mv, static_cast<char *>(out[1].data) + o * dtype_size(xt), 1);
              from_f32(xt, &vv, static_cast<char *>(out[2].data) + o * dtype_size(xt), 1);
            }
          }
        });
  });
}

// ---- Softmax ----

std::unique_ptr<PreparedOp> build_softmax(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.dtype_in(0, kFloats);
  const auto &x = call.in(0);
  auto axes = call.attr_ints("axes", std::vector<int64_t>{-1});
  const size_t r = std::max<size_t>(1, x.dims.size());
  for (auto &a : axes) a = normalize_axis(call, a, r, "axes");
  std::sort(axes.begin(), axes.end());
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] != axes[i - 1] + 1) call.bad_attr("axes", "must be consecutive dims");
  const bool log = call.type() == "LogSoftmaxV2";
  call.output(x.dtype, x.dims, x.format);
  const int64_t outer = product(x.dims, 0, axes.front()),
                len = product(x.dims, axes.front(), axes.back() + 1),
                inner = product(x.dims, axes.back() + 1);
  const DType xt = x.dtype;
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    const size_t es = dtype_size(xt);
    parallel_range(
        cores, static_cast<size_t>(outer * inner), std::max<size_t>(1, 8192 / (len + 1)),
        [&](size_t lo, size_t hi) {
          std::vector<float> v(xt == DType::f32 && inner == 1 ? 0 : len);
          for (size_t t = lo; t < hi; ++t) {
            const int64_t o = static_cast<int64_t>(t) / inner, i = static_cast<int64_t>(t) % inner;
            const char *src = static_cast<const char *>(in[0].data) + (o * len * inner + i) * es;
            char *dst = static_cast<char *>(out[0].data) + (o * len * inner + i) * es;
            if (v.empty()) {  // f32 rows: in place in the output
              if (dst != src) std::memcpy(dst, src, len * sizeof(float));
              simd_wide(
                  OPENACL_SIMD_LAMBDA { softmax_row(reinterpret_cast<float *>(dst), len, log); });
              continue;
            }
            if (inner == 1) to_f32(xt, src, v.data(), len);
            else
              for (int64_t k = 0; k < len; ++k) to_f32(xt, src + k * inner * es, &v[k], 1);
            simd_wide(OPENACL_SIMD_LAMBDA { softmax_row(v.data(), len, log); });
            if (inner == 1) from_f32(xt, v.data(), dst, len);
            else
              for (int64_t k = 0; k < len; ++k) from_f32(xt, &v[k], dst + k * inner * es, 1);
          }
        });
  });
}

// ---- Reductions ----

enum class Red { sum, mean, max, min, prod };

std::unique_ptr<PreparedOp> build_reduce(OpCall &call) {
  std::string t = call.type();
  const bool d = t.back() == 'D';
  if (d) t.pop_back();
  const Red kind = t == "ReduceSum"    ? Red::sum
                   : t == "ReduceMean" ? Red::mean
                   : t == "ReduceMax"  ? Red::max
                   : t == "ReduceMin"  ? Red::min
                                       : Red::prod;
  call.inputs_between(d ? 1 : 1, d ? 1 : 2, d ? "x" : "x, axes");
  if (kind == Red::mean) call.dtype_in(0, kFloats);
  else call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64});
  const auto &x = call.in(0);
  std::vector<int64_t> axes;
  if (d) axes = call.attr_ints("axes");
  else if (call.has(1)) {
    auto v = call.const_ints(1);
    if (!v) call.bad_input(1, "(axes) has no constant value; set it with aclSetTensorConst");
    axes = *v;
  } else {
    axes = call.attr_ints("axes", std::vector<int64_t>{});
  }
  const bool keep = call.attr_bool("keep_dims", false);
  const size_t r = x.dims.size();
  std::vector<bool> red(r, axes.empty());
  for (int64_t a : axes) red[normalize_axis(call, a, std::max<size_t>(r, 1), "axes")] = true;
  std::vector<int64_t> out, kept_dims, red_dims, kept_s, red_s;
  const auto cs = contiguous_strides(x.dims);
  for (size_t i = 0; i < r; ++i) {
    if (red[i]) {
      if (keep) out.push_back(1);
      red_dims.push_back(x.dims[i]);
      red_s.push_back(cs[i]);
    } else {
      out.push_back(x.dims[i]);
      kept_dims.push_back(x.dims[i]);
      kept_s.push_back(cs[i]);
    }
  }
  const int64_t rl = product(red_dims), kl = product(kept_dims);
  if (rl == 0 && kl != 0 && (kind == Red::max || kind == Red::min))
    call.bad_input(0, "has shape " + dims_str(x.dims) + ": max/min over an empty set");
  call.output(x.dtype, out, x.format);
  // View x as [kept..., reduced...] and make it contiguous [kl, rl] (a copy unless already so).
  std::vector<int64_t> vdims = kept_dims, vstr = kept_s;
  vdims.insert(vdims.end(), red_dims.begin(), red_dims.end());
  vstr.insert(vstr.end(), red_s.begin(), red_s.end());
  const bool direct = vstr == contiguous_strides(vdims);
  const DType xt = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
        visit_dtype(xt, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t> || std::is_same_v<T, int32_t> ||
                        std::is_same_v<T, int64_t>) {
            std::vector<T> tmp;
            const T *src = static_cast<const T *>(in[0].data);
            if (!direct) {
              tmp.resize(kl * rl);
              strided_copy(cores, vdims, reinterpret_cast<char *>(tmp.data()),
                           contiguous_strides(vdims), static_cast<const char *>(in[0].data), vstr,
                           sizeof(T));
              src = tmp.data();
            }
            T *y = static_cast<T *>(o[0].data);
            using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
            parallel_range(cores, static_cast<size_t>(kl), std::max<size_t>(1, 16384 / (rl + 1)),
                           [&](size_t lo, size_t hi) {
                             for (size_t k = lo; k < hi; ++k) {
                               const T *row = src + k * rl;
                               Acc acc = kind == Red::prod ? 1 : 0;
                               if (kind == Red::max || kind == Red::min)
                                 acc = static_cast<Acc>(static_cast<compute_t<T>>(row[0]));
                               for (int64_t i = 0; i < rl; ++i) {
                                 const Acc v = static_cast<Acc>(static_cast<compute_t<T>>(row[i]));
                                 switch (kind) {
                                   case Red::sum:
                                   case Red::mean:
                                     acc += v;
                                     break;
                                   case Red::prod:
                                     acc *= v;
                                     break;
                                   case Red::max:
                                     acc = (v > acc || v != v) ? v : acc;
                                     break;
                                   case Red::min:
                                     acc = (v < acc || v != v) ? v : acc;
                                     break;
                                 }
                               }
                               if (kind == Red::mean)
                                 acc = rl ? acc / static_cast<Acc>(rl)
                                          : std::numeric_limits<Acc>::quiet_NaN();
                               y[k] = T(static_cast<compute_t<T>>(acc));
                             }
                           });
          }
        });
      });
}

// ---- ArgMax / ArgMin ----

std::unique_ptr<PreparedOp> build_argmax(OpCall &call) {
  const std::string &t = call.type();
  const bool is_min = t == "ArgMinD";
  int64_t axis;
  if (t == "ArgMaxV2") {
    call.inputs_between(2, 2, "x, dimension");
    auto v = call.const_ints(1);
    if (!v || v->size() != 1)
      call.bad_input(1, "(dimension) must be a constant scalar (aclSetTensorConst)");
    axis = (*v)[0];
  } else {
    call.inputs_between(1, 1, "x");
    axis = call.attr_int("dimension");
  }
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i64});
  call.rank_at_least(0, 1);
  const auto &x = call.in(0);
  axis = normalize_axis(call, axis, x.dims.size(), "dimension");
  const DType ot = call.attr_dtype("dtype", DType::i32);
  const bool last =
      call.attr_bool("select_last_index", false);  // ties: the last index instead of the first
  if (ot != DType::i32 && ot != DType::i64)
    call.bad_attr("dtype", std::string("is ") + dtype_name(ot) + "; expected int32 or int64");
  if (x.dims[axis] == 0) call.bad_input(0, "has an empty reduction dim");
  std::vector<int64_t> out = x.dims;
  out.erase(out.begin() + axis);
  call.output(ot, out, x.format);
  const int64_t outer = product(x.dims, 0, axis), len = x.dims[axis],
                inner = product(x.dims, axis + 1);
  const DType xt = x.dtype;
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &o,
                     backend::AiCores &cores) {
    visit_dtype(xt, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                    std::is_same_v<T, bf16_t> || std::is_same_v<T, int32_t> ||
                    std::is_same_v<T, int64_t>) {
        const T *xp = static_cast<const T *>(in[0].data);
        parallel_range(cores, static_cast<size_t>(outer * inner), 4096, [&](size_t lo, size_t hi) {
          for (size_t q = lo; q < hi; ++q) {
            const int64_t oi = static_cast<int64_t>(q) / inner,
                          ii = static_cast<int64_t>(q) % inner;
            const T *s = xp + oi * len * inner + ii;
            int64_t best = 0;
            auto bv = static_cast<compute_t<T>>(s[0]);
            for (int64_t k = 1; k < len; ++k) {
              const auto v = static_cast<compute_t<T>>(s[k * inner]);
              if (is_min ? (v < bv || (last && v == bv)) : (v > bv || (last && v == bv))) {
                bv = v;
                best = k;
              }
            }
            if (ot == DType::i64) static_cast<int64_t *>(o[0].data)[q] = best;
            else static_cast<int32_t *>(o[0].data)[q] = static_cast<int32_t>(best);
          }
        });
      }
    });
  });
}

// ---- LRN (across channels, NCHW) ----

std::unique_ptr<PreparedOp> build_lrn(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16});
  call.rank_is(0, 4);
  const auto &x = call.in(0);
  const int64_t radius = call.attr_int("depth_radius", 5);
  if (radius < 0) call.bad_attr("depth_radius", "is negative");
  const float bias = call.attr_float("bias", 1.0f), alpha = call.attr_float("alpha", 1.0f),
              beta = call.attr_float("beta", 0.5f);
  if (call.attr_str("norm_region", std::string("ACROSS_CHANNELS")) != "ACROSS_CHANNELS")
    call.bad_attr("norm_region", "must be ACROSS_CHANNELS");
  call.output(x.dtype, x.dims, x.format);
  const int64_t n = x.dims[0], c = x.dims[1], hw = x.dims[2] * x.dims[3];
  const DType t = x.dtype;
  // y = x / (bias + alpha * sum of x^2 over channels c - radius .. c + radius) ^ beta
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        visit_dtype(t, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *yp = static_cast<T *>(out[0].data);
            parallel_range(cores, static_cast<size_t>(n * c), 4, [&](size_t lo, size_t hi) {
              for (size_t r = lo; r < hi; ++r) {
                const int64_t img = static_cast<int64_t>(r) / c, ch = static_cast<int64_t>(r) % c;
                const int64_t c0 = std::max<int64_t>(0, ch - radius),
                              c1 = std::min<int64_t>(c - 1, ch + radius);
                for (int64_t p = 0; p < hw; ++p) {
                  float sum = 0;
                  for (int64_t k = c0; k <= c1; ++k) {
                    const float v = float(xp[(img * c + k) * hw + p]);
                    sum += v * v;
                  }
                  const float v = float(xp[(img * c + ch) * hw + p]);
                  yp[(img * c + ch) * hw + p] = T(v / std::pow(bias + alpha * sum, beta));
                }
              }
            });
          }
        });
      });
}

const Registrar reg({
    {"LRN", build_lrn},
    {"BatchNorm", build_batchnorm},
    {"LayerNorm", build_layernorm},
    {"SoftmaxV2", build_softmax},
    {"LogSoftmaxV2", build_softmax},
    {"ReduceSum", build_reduce},
    {"ReduceSumD", build_reduce},
    {"ReduceMean", build_reduce},
    {"ReduceMeanD", build_reduce},
    {"ReduceMax", build_reduce},
    {"ReduceMaxD", build_reduce},
    {"ReduceMin", build_reduce},
    {"ReduceMinD", build_reduce},
    {"ReduceProd", build_reduce},
    {"ReduceProdD", build_reduce},
    {"ArgMaxV2", build_argmax},
    {"ArgMaxD", build_argmax},
    {"ArgMinD", build_argmax},
});

}  // namespace
}  // namespace openacl::ops
