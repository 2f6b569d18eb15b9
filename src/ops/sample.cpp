// GridSampler2D (the ONNX GridSample): x [N, C, H, W] sampled at the normalized (x, y)
// coordinates of grid [N, Ho, Wo, 2], bilinearly or at the nearest pixel, with zeros, border
// or reflection padding. Coordinates and padding follow ONNX Runtime's GridSample.
#include <cmath>

#include "ops/kernel.h"

namespace openacl::ops {
namespace {

enum class Padding { zeros, border, reflection };

// Mirrors v into [lo, hi] as often as it takes.
float reflect(float v, float lo, float hi) {
  const float range = hi - lo;
  if (range <= 0) return lo;
  if (v < lo) {
    const float dx = lo - v;
    const auto n = static_cast<int64_t>(dx / range);
    const float r = dx - static_cast<float>(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (v > hi) {
    const float dx = v - hi;
    const auto n = static_cast<int64_t>(dx / range);
    const float r = dx - static_cast<float>(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return v;
}

struct Sampler {
  int64_t h, w;
  bool align;
  Padding pad;
  float lo_x, hi_x, lo_y, hi_y;  // the reflection bounds

  Sampler(int64_t h_, int64_t w_, bool align_, Padding pad_)
      : h(h_), w(w_), align(align_), pad(pad_) {
    lo_x = align ? 0.0f : -0.5f;
    hi_x = align ? static_cast<float>(w - 1) : static_cast<float>(w) - 0.5f;
    lo_y = align ? 0.0f : -0.5f;
    hi_y = align ? static_cast<float>(h - 1) : static_cast<float>(h) - 0.5f;
  }
  float unnormalize(float g, int64_t size) const {
    return align ? (g + 1) / 2 * static_cast<float>(size - 1)
                 : ((g + 1) * static_cast<float>(size) - 1) / 2;
  }
  // The coordinate after the padding rule (border: clamped; reflection: mirrored).
  float place(float v, int64_t size, float lo, float hi) const {
    if (pad == Padding::border) return std::clamp(v, 0.0f, static_cast<float>(size - 1));
    if (pad == Padding::reflection) return reflect(v, lo, hi);
    return v;
  }
  // The pixel at integer (r, c) of one plane, under the padding rule.
  float pixel(const float *plane, int64_t r, int64_t c) const {
    if (pad == Padding::zeros) {
      if (r < 0 || r >= h || c < 0 || c >= w) return 0.0f;
    } else if (pad == Padding::border) {
      r = std::clamp<int64_t>(r, 0, h - 1);
      c = std::clamp<int64_t>(c, 0, w - 1);
    } else {
      r = std::clamp<int64_t>(static_cast<int64_t>(reflect(static_cast<float>(r), lo_y, hi_y)), 0,
                              h - 1);
      c = std::clamp<int64_t>(static_cast<int64_t>(reflect(static_cast<float>(c), lo_x, hi_x)), 0,
                              w - 1);
    }
    return plane[r * w + c];
  }
};

std::unique_ptr<PreparedOp> build_grid_sampler(OpCall &call) {
  call.inputs_between(2, 2, "x, grid");
  call.dtype_in(0, {DType::f32});
  call.dtype_in(1, {DType::f32});
  call.rank_is(0, 4);
  call.rank_is(1, 4);
  const auto &x = call.in(0), &g = call.in(1);
  if (g.dims[0] != x.dims[0] || g.dims[3] != 2)
    call.bad_input(1, "has shape " + dims_str(g.dims) + "; expected [N, Ho, Wo, 2] with x's N " +
                          std::to_string(x.dims[0]));
  const std::string mode = call.attr_str("interpolation_mode", std::string("bilinear"));
  if (mode != "bilinear" && mode != "nearest")
    call.bad_attr("interpolation_mode", "is '" + mode + "'; expected bilinear or nearest");
  const std::string pm = call.attr_str("padding_mode", std::string("zeros"));
  Padding pad = Padding::zeros;
  if (pm == "border") pad = Padding::border;
  else if (pm == "reflection") pad = Padding::reflection;
  else if (pm != "zeros")
    call.bad_attr("padding_mode", "is '" + pm + "'; expected zeros, border or reflection");
  const bool align = call.attr_bool("align_corners", false), nearest = mode == "nearest";
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], w = x.dims[3], ho = g.dims[1],
                wo = g.dims[2];
  call.output(x.dtype, {n, c, ho, wo}, x.format);
  const Sampler s(h, w, align, pad);
  return make_op([=](const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                     backend::AiCores &cores) {
    const auto *xp = static_cast<const float *>(in[0].data);
    const auto *gp = static_cast<const float *>(in[1].data);
    auto *yp = static_cast<float *>(out[0].data);
    parallel_range(cores, static_cast<size_t>(n * ho), 4, [&](size_t lo, size_t hi) {
      for (size_t r = lo; r < hi; ++r) {
        const int64_t img = static_cast<int64_t>(r) / ho, oy = static_cast<int64_t>(r) % ho;
        for (int64_t ox = 0; ox < wo; ++ox) {
          const float *gxy = gp + ((img * ho + oy) * wo + ox) * 2;
          const float fx = s.place(s.unnormalize(gxy[0], w), w, s.lo_x, s.hi_x);
          const float fy = s.place(s.unnormalize(gxy[1], h), h, s.lo_y, s.hi_y);
          for (int64_t ch = 0; ch < c; ++ch) {
            const float *plane = xp + (img * c + ch) * h * w;
            float v;
            if (nearest) {
              v = s.pixel(plane, static_cast<int64_t>(std::nearbyint(fy)),
                          static_cast<int64_t>(std::nearbyint(fx)));
            } else {
              const auto x0 = static_cast<int64_t>(std::floor(fx)),
                         y0 = static_cast<int64_t>(std::floor(fy));
              const float ax = fx - static_cast<float>(x0), ay = fy - static_cast<float>(y0);
              v = (1 - ay) * ((1 - ax) * s.pixel(plane, y0, x0) + ax * s.pixel(plane, y0, x0 + 1)) +
                  ay *
                      ((1 - ax) * s.pixel(plane, y0 + 1, x0) + ax * s.pixel(plane, y0 + 1, x0 + 1));
            }
            yp[((img * c + ch) * ho + oy) * wo + ox] = v;
          }
        }
      }
    });
  });
}

const Registrar reg({{"GridSampler2D", build_grid_sampler}});

}  // namespace
}  // namespace openacl::ops
