// Resize (ONNX-style) and ResizeNearestNeighborV2 / ResizeBilinearV2 (TF-style), NCHW.
// Source coordinates and weights per output row and column are computed at prepare().
// Resize also takes data_format NHWC in nearest and linear modes (a model's channels-last
// tensors between convolutions): x and y are then [N, H, W, C], while scales and sizes keep
// ONNX's [N, C, H, W] order.
#include <algorithm>
#include <array>
#include <cmath>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

struct Axis {
  std::vector<int64_t> i0, i1;
  std::vector<float> w;  // weight of i1
};

// The input coordinate output index o maps to.
double source_coord(const OpCall &call, int64_t o, int64_t in, int64_t out, double scale,
                    const std::string &coord) {
  if (coord == "half_pixel") return (o + 0.5) / scale - 0.5;
  if (coord == "pytorch_half_pixel") return out > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (coord == "align_corners") return out > 1 ? o * double(in - 1) / double(out - 1) : 0.0;
  if (coord == "asymmetric") return o / scale;
  if (coord == "tf_half_pixel_for_nn") return (o + 0.5) / scale;
  call.bad_attr("coordinate_transformation_mode",
                "is '" + coord +
                    "'; expected half_pixel, asymmetric, align_corners, pytorch_half_pixel or "
                    "tf_half_pixel_for_nn");
}

Axis map_axis(const OpCall &call, int64_t in, int64_t out, double scale, const std::string &coord,
              bool linear, const std::string &nearest) {
  Axis a;
  for (int64_t o = 0; o < out; ++o) {
    double x = source_coord(call, o, in, out, scale, coord);
    if (linear) {
      x = std::clamp(x, 0.0, double(in - 1));
      const auto x0 = static_cast<int64_t>(std::floor(x));
      a.i0.push_back(x0);
      a.i1.push_back(std::min(x0 + 1, in - 1));
      a.w.push_back(static_cast<float>(x - x0));
    } else {
      double r;
      if (nearest == "round_prefer_floor") r = std::ceil(x - 0.5);
      else if (nearest == "round_prefer_ceil") r = std::floor(x + 0.5);
      else if (nearest == "floor") r = std::floor(x);
      else if (nearest == "ceil") r = std::ceil(x);
      else
        call.bad_attr(
            "nearest_mode",
            "is '" + nearest + "'; expected round_prefer_floor, round_prefer_ceil, floor or ceil");
      const auto i = static_cast<int64_t>(std::clamp(r, 0.0, double(in - 1)));
      a.i0.push_back(i);
      a.i1.push_back(i);
      a.w.push_back(0.0f);
    }
  }
  return a;
}

// Checks the output size, declares the output, and derives unset scales from the sizes.
void declare_output(OpCall &call, int64_t oh, int64_t ow, double &sh, double &sw,
                    bool nhwc = false) {
  const auto &x = call.in(0);
  const int64_t h = x.dims[nhwc ? 1 : 2], w = x.dims[nhwc ? 2 : 3];
  if (oh < 0 || ow < 0) call.bad_attr("sizes", "give a negative output size");
  if ((h == 0 || w == 0) && oh * ow > 0)
    call.bad_input(0, "is empty; cannot resize " + dims_str(x.dims) + " to a non-empty size");
  call.output(x.dtype,
              nhwc ? std::vector<int64_t>{x.dims[0], oh, ow, x.dims[3]}
                   : std::vector<int64_t>{x.dims[0], x.dims[1], oh, ow},
              x.format);
  if (sh <= 0) sh = h ? double(oh) / h : 1.0;
  if (sw <= 0) sw = w ? double(ow) / w : 1.0;
}

// One output row of an NHWC resize: each output pixel is its source pixel's (nearest) or a
// blend of the four around it (linear), all c channels at once.
template <class T>
void nhwc_row(const T *r0, const T *r1, T *dst, int64_t ow, int64_t c, const Axis &aw, float wy,
              bool linear) {
  for (int64_t ox = 0; ox < ow; ++ox, dst += c) {
    const T *a = r0 + aw.i0[ox] * c;
    if (!linear) {
      std::copy(a, a + c, dst);
      continue;
    }
    const T *b = r0 + aw.i1[ox] * c, *p = r1 + aw.i0[ox] * c, *q = r1 + aw.i1[ox] * c;
    const float wx = aw.w[ox];
    for (int64_t k = 0; k < c; ++k) {
      const float top = float(compute_t<T>(a[k])) * (1 - wx) + float(compute_t<T>(b[k])) * wx;
      const float bot = float(compute_t<T>(p[k])) * (1 - wx) + float(compute_t<T>(q[k])) * wx;
      const float v = top * (1 - wy) + bot * wy;
      if constexpr (std::is_integral_v<T>) dst[k] = static_cast<T>(std::nearbyint(v));
      else dst[k] = T(v);
    }
  }
}

std::unique_ptr<PreparedOp> resize_core(OpCall &call, int64_t oh, int64_t ow, double sh, double sw,
                                        const std::string &coord, bool linear,
                                        const std::string &nearest, bool nhwc = false) {
  const auto &x = call.in(0);
  const int64_t n = x.dims[0], c = x.dims[nhwc ? 3 : 1], h = x.dims[nhwc ? 1 : 2],
                w = x.dims[nhwc ? 2 : 3];
  declare_output(call, oh, ow, sh, sw, nhwc);
  const Axis ah = map_axis(call, h, oh, sh, coord, linear, nearest),
             aw = map_axis(call, w, ow, sw, coord, linear, nearest);
  const DType dt = x.dtype;
  if (nhwc) {
    return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                       backend::AiCores &cores) {
      visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                      std::is_same_v<T, bf16_t> || std::is_same_v<T, uint8_t> ||
                      std::is_same_v<T, int32_t>) {
          const T *xp = static_cast<const T *>(in[0].data);
          T *yp = static_cast<T *>(out[0].data);
          parallel_range(cores, static_cast<size_t>(n * oh),
                         std::max<size_t>(1, 8192 / (ow * c + 1)), [&](size_t lo, size_t hi) {
                           for (size_t r = lo; r < hi; ++r) {
                             const int64_t img = static_cast<int64_t>(r) / oh,
                                           oy = static_cast<int64_t>(r) % oh;
                             const T *src = xp + img * h * w * c;
                             nhwc_row(src + ah.i0[oy] * w * c, src + ah.i1[oy] * w * c,
                                      yp + static_cast<int64_t>(r) * ow * c, ow, c, aw, ah.w[oy],
                                      linear);
                           }
                         });
        }
      });
    });
  }
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        visit_dtype(dt, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t> || std::is_same_v<T, uint8_t> ||
                        std::is_same_v<T, int32_t>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *yp = static_cast<T *>(out[0].data);
            parallel_range(cores, static_cast<size_t>(n * c * oh),
                           std::max<size_t>(1, 8192 / (ow + 1)), [&](size_t lo, size_t hi) {
                             for (size_t r = lo; r < hi; ++r) {
                               const int64_t plane = static_cast<int64_t>(r) / oh,
                                             oy = static_cast<int64_t>(r) % oh;
                               const T *src = xp + plane * h * w;
                               const T *r0 = src + ah.i0[oy] * w, *r1 = src + ah.i1[oy] * w;
                               T *dst = yp + (plane * oh + oy) * ow;
                               if (!linear) {
                                 for (int64_t ox = 0; ox < ow; ++ox) dst[ox] = r0[aw.i0[ox]];
                                 continue;
                               }
                               const float wy = ah.w[oy];
                               for (int64_t ox = 0; ox < ow; ++ox) {
                                 const float wx = aw.w[ox];
                                 const float top = float(compute_t<T>(r0[aw.i0[ox]])) * (1 - wx) +
                                                   float(compute_t<T>(r0[aw.i1[ox]])) * wx;
                                 const float bot = float(compute_t<T>(r1[aw.i0[ox]])) * (1 - wx) +
                                                   float(compute_t<T>(r1[aw.i1[ox]])) * wx;
                                 const float v = top * (1 - wy) + bot * wy;
                                 if constexpr (std::is_integral_v<T>)
                                   dst[ox] = static_cast<T>(std::nearbyint(v));
                                 else dst[ox] = T(v);
                               }
                             }
                           });
          }
        });
      });
}

// Bicubic taps per output index: the four inputs around the source coordinate (clamped to
// the edge) and their weights, ONNX's cubic convolution with coefficient a; exclude_outside
// drops the taps outside the input and renormalizes the rest.
struct CubicAxis {
  std::vector<std::array<int64_t, 4>> idx;
  std::vector<std::array<float, 4>> w;
};

CubicAxis cubic_axis(const OpCall &call, int64_t in, int64_t out, double scale,
                     const std::string &coord, double a, bool exclude_outside) {
  CubicAxis ax;
  auto kernel = [a](double t) {  // t = |distance|
    if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
    return 0.0;
  };
  for (int64_t o = 0; o < out; ++o) {
    const double x = source_coord(call, o, in, out, scale, coord);
    const auto x0 = static_cast<int64_t>(std::floor(x));
    const double s = x - static_cast<double>(x0);
    std::array<int64_t, 4> idx{};
    std::array<double, 4> w{};
    double sum = 0;
    for (int t = 0; t < 4; ++t) {
      const int64_t i = x0 - 1 + t;
      w[t] = kernel(std::abs(s + 1 - t));
      if (exclude_outside && (i < 0 || i >= in)) w[t] = 0;
      idx[t] = std::clamp<int64_t>(i, 0, in - 1);
      sum += w[t];
    }
    std::array<float, 4> wf{};
    for (int t = 0; t < 4; ++t)
      wf[t] = static_cast<float>(exclude_outside && sum != 0 ? w[t] / sum : w[t]);
    ax.idx.push_back(idx);
    ax.w.push_back(wf);
  }
  return ax;
}

std::unique_ptr<PreparedOp> resize_cubic(OpCall &call, int64_t oh, int64_t ow, double sh, double sw,
                                         const std::string &coord) {
  const auto &x = call.in(0);
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16});
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], w = x.dims[3];
  declare_output(call, oh, ow, sh, sw);
  const double a = call.attr_float("cubic_coeff_a", -0.75f);
  const bool exclude = call.attr_int("exclude_outside", 0) != 0;
  const CubicAxis ay = cubic_axis(call, h, oh, sh, coord, a, exclude),
                  axw = cubic_axis(call, w, ow, sw, coord, a, exclude);
  const DType dt = x.dtype;
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &out, backend::AiCores &cores) {
        visit_dtype(dt, [&](auto tag) {
          using T = decltype(tag);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t>) {
            const T *xp = static_cast<const T *>(in[0].data);
            T *yp = static_cast<T *>(out[0].data);
            parallel_range(cores, static_cast<size_t>(n * c * oh),
                           std::max<size_t>(1, 2048 / (ow + 1)), [&](size_t lo, size_t hi) {
                             for (size_t r = lo; r < hi; ++r) {
                               const int64_t plane = static_cast<int64_t>(r) / oh,
                                             oy = static_cast<int64_t>(r) % oh;
                               const T *src = xp + plane * h * w;
                               T *dst = yp + (plane * oh + oy) * ow;
                               for (int64_t ox = 0; ox < ow; ++ox) {
                                 float v = 0;
                                 for (int i = 0; i < 4; ++i) {
                                   const T *row = src + ay.idx[oy][i] * w;
                                   float across = 0;
                                   for (int j = 0; j < 4; ++j)
                                     across += float(row[axw.idx[ox][j]]) * axw.w[ox][j];
                                   v += across * ay.w[oy][i];
                                 }
                                 dst[ox] = T(v);
                               }
                             }
                           });
          }
        });
      });
}

std::unique_ptr<PreparedOp> build_resize(OpCall &call) {
  call.inputs_between(1, 4, "x, [roi], [scales], [sizes]");
  call.rank_is(0, 4);
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::u8, DType::i32});
  const auto &x = call.in(0);
  std::string mode = call.attr_str("mode", std::string("nearest"));
  if (mode != "nearest" && mode != "linear" && mode != "bilinear" && mode != "cubic")
    call.bad_attr("mode", "is '" + mode + "'; supported: nearest, linear, bilinear, cubic");
  const std::string coord =
      call.attr_str("coordinate_transformation_mode", std::string("half_pixel"));
  const std::string nearest = call.attr_str("nearest_mode", std::string("round_prefer_floor"));
  const std::string format = call.attr_str("data_format", std::string("NCHW"));
  if (format != "NCHW" && format != "NHWC")
    call.bad_attr("data_format", "is '" + format + "'; expected NCHW or NHWC");
  const bool nhwc = format == "NHWC";
  if (nhwc && mode == "cubic")
    call.bad_attr("data_format", "NHWC is supported in nearest and linear modes, not cubic");
  const int hi = nhwc ? 1 : 2, wi = nhwc ? 2 : 3, ci = nhwc ? 3 : 1;
  int64_t oh = -1, ow = -1;
  double sh = 0, sw = 0;
  if (auto scales = call.const_floats(2); scales && !scales->empty()) {
    if (scales->size() != 4) call.bad_input(2, "(scales) must have 4 entries");
    sh = (*scales)[2];
    sw = (*scales)[3];
    // In float, as ONNX Runtime computes it: 5 x 1.8f is 9, not 8.9999...
    oh = static_cast<int64_t>(std::floor(static_cast<float>(x.dims[hi]) * static_cast<float>(sh)));
    ow = static_cast<int64_t>(std::floor(static_cast<float>(x.dims[wi]) * static_cast<float>(sw)));
  }
  if (auto sizes = call.const_ints(3)) {
    if (sizes->size() != 4) call.bad_input(3, "(sizes) must have 4 entries");
    oh = (*sizes)[2];
    ow = (*sizes)[3];
    if ((*sizes)[0] != x.dims[0] || (*sizes)[1] != x.dims[ci])
      call.bad_input(3, "(sizes) must keep N and C");
    sh = sw = 0;
  }
  if (oh < 0) {
    const TensorDesc *y = call.given(0);
    if (y == nullptr || y->dims.size() != 4)
      call.bad_input(
          3,
          "(sizes) and scales have no constant value and no 4-D output descriptor gives the size");
    oh = y->dims[hi];
    ow = y->dims[wi];
  }
  if (mode == "cubic") return resize_cubic(call, oh, ow, sh, sw, coord);
  return resize_core(call, oh, ow, sh, sw, coord, mode != "nearest", nearest, nhwc);
}

std::unique_ptr<PreparedOp> build_resize_tf(OpCall &call) {
  call.inputs_between(2, 2, "x, size");
  call.rank_is(0, 4);
  call.dtype_in(0, {DType::f32, DType::f16, DType::bf16, DType::u8, DType::i32});
  const bool linear = call.type() == "ResizeBilinearV2";
  const bool align = call.attr_bool("align_corners", false),
             half = call.attr_bool("half_pixel_centers", false);
  if (align && half) call.bad_attr("half_pixel_centers", "and align_corners cannot both be true");
  int64_t oh, ow;
  if (auto s = call.const_ints(1)) {
    if (s->size() != 2) call.bad_input(1, "(size) must have 2 entries (H, W)");
    oh = (*s)[0];
    ow = (*s)[1];
  } else if (const TensorDesc *y = call.given(0); y != nullptr && y->dims.size() == 4) {
    oh = y->dims[2];
    ow = y->dims[3];
  } else {
    call.bad_input(1, "(size) has no constant value; set it with aclSetTensorConst");
  }
  const std::string coord = align  ? "align_corners"
                            : half ? (linear ? "half_pixel" : "tf_half_pixel_for_nn")
                                   : "asymmetric";
  const std::string nearest = align ? "round_prefer_ceil" : "floor";
  return resize_core(call, oh, ow, 0, 0, coord, linear, nearest);
}

const Registrar reg({
    {"Resize", build_resize},
    {"ResizeNearestNeighborV2", build_resize_tf},
    {"ResizeBilinearV2", build_resize_tf},
});

}  // namespace
}  // namespace openacl::ops
