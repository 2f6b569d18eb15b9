#include "ops/winograd.h"

#include <algorithm>
#include <vector>

#include "backend/backend.h"
#include "ops/isa.h"
#include "ops/kernel.h"

namespace openacl::ops {
namespace {

constexpr int64_t kP = 16;     // positions of a 4x4 tile
constexpr int64_t kTiles = 8;  // tiles transformed and multiplied at a time

// Unaligned eight floats: a memcpy of an f32x8 compiled to two 16-byte moves through the stack
// in the AVX2 build. By reference: a vector argument or result by value has a different ABI in
// each build.
using f32x8u = float __attribute__((vector_size(32), aligned(4)));
OPENACL_SIMD_KERNEL void load8(f32x8 &v, const float *p) {
  v = *reinterpret_cast<const f32x8u *>(p);
}
OPENACL_SIMD_KERNEL void store8(float *p, const f32x8 &v) { *reinterpret_cast<f32x8u *>(p) = v; }

// u[p][i][o] = (G g G^T)[p] of the 3x3 kernel g of output o and input i; o padded to op.
void transform_filter(const Winograd3x3 &s, const float *f, float *u, int64_t op) {
  for (int64_t o = 0; o < s.oc; ++o)
    for (int64_t i = 0; i < s.c; ++i) {
      float g[3][3], t[4][3];
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) g[a][b] = f[o * s.so + i * s.si + a * s.sh + b * s.sw];
      for (int b = 0; b < 3; ++b) {
        t[0][b] = g[0][b];
        t[1][b] = (g[0][b] + g[1][b] + g[2][b]) * 0.5f;
        t[2][b] = (g[0][b] - g[1][b] + g[2][b]) * 0.5f;
        t[3][b] = g[2][b];
      }
      for (int a = 0; a < 4; ++a) {
        const float r[4] = {t[a][0], (t[a][0] + t[a][1] + t[a][2]) * 0.5f,
                            (t[a][0] - t[a][1] + t[a][2]) * 0.5f, t[a][2]};
        for (int b = 0; b < 4; ++b) u[((a * 4 + b) * s.c + i) * op + o] = r[b];
      }
    }
}

// v[t][p][c] = (B^T d B)[p] of the 4x4 input tile d of tiles t0 + t, t < nt, of output tile
// row ty.
OPENACL_SIMD_KERNEL void transform_input(const Winograd3x3 &s, const float *x, int64_t ty,
                                         int64_t t0, int64_t nt, float *v) {
  const int64_t c = s.c, r0 = 2 * ty - s.pt;
  for (int64_t t = 0; t < nt; ++t) {
    const int64_t c0 = 2 * (t0 + t) - s.pl;
    const bool inside = r0 >= 0 && r0 + 4 <= s.h && c0 >= 0 && c0 + 4 <= s.w;
    for (int64_t k = 0; k < c; k += 8) {
      f32x8 d[4][4];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
          const int64_t ih = r0 + a, iw = c0 + b;
          if (inside || (ih >= 0 && ih < s.h && iw >= 0 && iw < s.w))
            load8(d[a][b], x + (ih * s.w + iw) * c + k);
          else d[a][b] = f32x8{};
        }
      float *vt = v + t * kP * c + k;
      for (int b = 0; b < 4; ++b) {
        const f32x8 e0 = d[0][b] - d[2][b], e1 = d[1][b] + d[2][b], e2 = d[2][b] - d[1][b],
                    e3 = d[1][b] - d[3][b];
        d[0][b] = e0, d[1][b] = e1, d[2][b] = e2, d[3][b] = e3;
      }
      for (int a = 0; a < 4; ++a) {
        store8(vt + (a * 4 + 0) * c, d[a][0] - d[a][2]);
        store8(vt + (a * 4 + 1) * c, d[a][1] + d[a][2]);
        store8(vt + (a * 4 + 2) * c, d[a][2] - d[a][1]);
        store8(vt + (a * 4 + 3) * c, d[a][1] - d[a][3]);
      }
    }
  }
}

// m[t][o] = sum over i of v[t][i] u[i][o] for nv * 8 outputs o, 4 tiles at a time: the weight
// vectors are loaded once for 4 tiles (12 accumulators at nv 3).
template <int NV>
OPENACL_SIMD_KERNEL void tile_products(const float *v, int64_t vs, const float *u, int64_t us,
                                       float *m, int64_t ms, int64_t tiles, int64_t c) {
  int64_t t = 0;
  for (; t + 4 <= tiles; t += 4) {
    f32x8 acc[4][NV] = {};
    for (int64_t i = 0; i < c; ++i) {
      f32x8 w[NV];
      for (int q = 0; q < NV; ++q) load8(w[q], u + i * us + 8 * q);
      for (int j = 0; j < 4; ++j) {
        const float a = v[(t + j) * vs + i];
        for (int q = 0; q < NV; ++q) acc[j][q] += w[q] * a;
      }
    }
    for (int j = 0; j < 4; ++j)
      for (int q = 0; q < NV; ++q) store8(m + (t + j) * ms + 8 * q, acc[j][q]);
  }
  for (; t < tiles; ++t) {
    f32x8 acc[NV] = {};
    for (int64_t i = 0; i < c; ++i) {
      const float a = v[t * vs + i];
      for (int q = 0; q < NV; ++q) {
        f32x8 w;
        load8(w, u + i * us + 8 * q);
        acc[q] += w * a;
      }
    }
    for (int q = 0; q < NV; ++q) store8(m + t * ms + 8 * q, acc[q]);
  }
}

// y rows 2 ty, 2 ty + 1 of tiles t0 + t = A^T m A + bias, m[p][t][o], t < nt.
OPENACL_SIMD_KERNEL void transform_output(const Winograd3x3 &s, const float *m, int64_t op,
                                          const float *bias, int64_t ty, int64_t t0, int64_t nt,
                                          float *y) {
  for (int64_t t = 0; t < nt; ++t)
    for (int64_t o = 0; o < s.oc; o += 8) {
      const int64_t lanes = std::min<int64_t>(8, s.oc - o);
      f32x8 e[4][4], b{};
      for (int p = 0; p < kP; ++p) load8(e[p / 4][p % 4], m + (p * nt + t) * op + o);
      if (bias)
        for (int64_t l = 0; l < lanes; ++l) b[l] = bias[o + l];
      for (int a = 0; a < 2; ++a) {
        const int64_t row = 2 * ty + a;
        if (row >= s.oh) break;
        f32x8 r[4];
        for (int j = 0; j < 4; ++j)
          r[j] = a == 0 ? e[0][j] + e[1][j] + e[2][j] : e[1][j] - e[2][j] - e[3][j];
        const f32x8 out[2] = {r[0] + r[1] + r[2] + b, r[1] - r[2] - r[3] + b};
        for (int64_t k = 0, col = 2 * (t0 + t); k < 2 && col + k < s.ow; ++k) {
          float *dst = y + (row * s.ow + col + k) * s.oc + o;
          if (lanes == 8) store8(dst, out[k]);
          else
            for (int64_t l = 0; l < lanes; ++l) dst[l] = out[k][l];
        }
      }
    }
}

class WinogradOp final : public PreparedOp {
 public:
  explicit WinogradOp(const Winograd3x3 &s) : s_(s), op_((s.oc + 7) / 8 * 8) {}

  void bind_constant(size_t input, const void *data, size_t n,
                     backend::DeviceBackend &device) override {
    if (input != 1) return;
    const backend::HostView view(device, data, n, backend::DeviceBackend::Access::read);
    u_.assign(static_cast<size_t>(kP * s_.c * op_), 0.0f);
    transform_filter(s_, static_cast<const float *>(view.data()), u_.data(), op_);
  }

  void run(const std::vector<Tensor> &in, const std::vector<Tensor> &out,
           backend::AiCores &cores) const override {
    std::vector<float> own;
    const float *u = u_.data();
    if (u_.empty()) {  // weights that are not a model's constant: transformed at every run
      own.assign(static_cast<size_t>(kP * s_.c * op_), 0.0f);
      transform_filter(s_, static_cast<const float *>(in[1].data), own.data(), op_);
      u = own.data();
    }
    const auto *x = static_cast<const float *>(in[0].data);
    const float *bias = s_.bias ? static_cast<const float *>(in[2].data) : nullptr;
    auto *y = static_cast<float *>(out[0].data);
    const int64_t rows = (s_.oh + 1) / 2, tiles = (s_.ow + 1) / 2;
    const int64_t in_image = s_.h * s_.w * s_.c, out_image = s_.oh * s_.ow * s_.oc;
    parallel_range(cores, static_cast<size_t>(s_.n * rows), 1, [&](size_t lo, size_t hi) {
      // kTiles tiles' transformed input and products at a time, which stay in L1 (a whole tile
      // row's, 0.6 MB at det's 160x160, went out to L2 and back). Allocated per part, not kept
      // per thread: libascendcl's static TLS is full (docs/PERFORMANCE.md, "The host cost of one
      // aclnn call"), and 61 KB at det's 96 channels is nothing beside a millisecond's work.
      const auto vn = static_cast<size_t>(kTiles * kP * s_.c);
      std::vector<float> scratch(vn + static_cast<size_t>(kP * kTiles * op_));
      float *v = scratch.data(), *m = v + vn;
      simd(OPENACL_SIMD_LAMBDA {
        for (size_t r = lo; r < hi; ++r) {
          const auto img = static_cast<int64_t>(r) / rows, ty = static_cast<int64_t>(r) % rows;
          for (int64_t t0 = 0; t0 < tiles; t0 += kTiles) {
            const int64_t nt = std::min(kTiles, tiles - t0);
            transform_input(s_, x + img * in_image, ty, t0, nt, v);
            for (int64_t p = 0; p < kP; ++p)
              for (int64_t o = 0; o < op_; o += 24) {
                const float *vp = v + p * s_.c, *up = u + p * s_.c * op_ + o;
                float *mp = m + p * nt * op_ + o;
                const int64_t vs = kP * s_.c;
                switch (std::min<int64_t>(3, (op_ - o) / 8)) {
                  case 3:
                    tile_products<3>(vp, vs, up, op_, mp, op_, nt, s_.c);
                    break;
                  case 2:
                    tile_products<2>(vp, vs, up, op_, mp, op_, nt, s_.c);
                    break;
                  default:
                    tile_products<1>(vp, vs, up, op_, mp, op_, nt, s_.c);
                }
              }
            transform_output(s_, m, op_, bias, ty, t0, nt, y + img * out_image);
          }
        }
      });
    });
  }

 private:
  Winograd3x3 s_;
  int64_t op_;            // output channels padded to a multiple of 8
  std::vector<float> u_;  // the transformed filter of a bound constant
};

}  // namespace

bool winograd_pays(const Winograd3x3 &s) {
  return use_avx2() && !use_avx512() && s.c % 8 == 0 && s.c >= 32 && s.oh * s.ow >= 1600;
}

std::unique_ptr<PreparedOp> winograd_conv(const Winograd3x3 &s) {
  return std::make_unique<WinogradOp>(s);
}

}  // namespace openacl::ops
