// The op library against double-precision references, without the runtime: ops::prepare()
// then PreparedOp::run() on host buffers with a serial AiCores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "backend/backend.h"
#include "ops/half.h"
#include "ops/isa.h"
#include "ops/kernel.h"
#include "ops/op.h"
#include "ops/quant_matmul.h"
#include "ops/winograd.h"

namespace ops = openacl::ops;
using ops::DType;

namespace {

struct SerialCores final : openacl::backend::AiCores {
  unsigned count() const override { return 2; }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override {
    for (size_t i = 0; i < n; ++i) body(i);
  }
};

ops::TensorDesc desc(DType t, std::vector<int64_t> dims) {
  ops::TensorDesc d;
  d.dtype = t;
  d.dims = std::move(dims);
  return d;
}

// A host tensor holding doubles that are stored in the tensor's dtype.
struct Buf {
  ops::TensorDesc d;
  std::vector<uint8_t> bytes;
  Buf(DType t, std::vector<int64_t> dims)
      : d(desc(t, std::move(dims))), bytes(std::max<size_t>(1, d.byte_size())) {}
  size_t n() const { return static_cast<size_t>(d.element_count()); }
  void set(size_t i, double v) {
    switch (d.dtype) {
      case DType::f32:
        reinterpret_cast<float *>(bytes.data())[i] = static_cast<float>(v);
        break;
      case DType::f16:
        reinterpret_cast<uint16_t *>(bytes.data())[i] = ops::float_to_half(static_cast<float>(v));
        break;
      case DType::bf16:
        reinterpret_cast<uint16_t *>(bytes.data())[i] = ops::float_to_bf16(static_cast<float>(v));
        break;
      case DType::i32:
        reinterpret_cast<int32_t *>(bytes.data())[i] = static_cast<int32_t>(v);
        break;
      case DType::i64:
        reinterpret_cast<int64_t *>(bytes.data())[i] = static_cast<int64_t>(v);
        break;
      case DType::i8:
        reinterpret_cast<int8_t *>(bytes.data())[i] = static_cast<int8_t>(v);
        break;
      case DType::u8:
        reinterpret_cast<uint8_t *>(bytes.data())[i] = static_cast<uint8_t>(v);
        break;
      case DType::boolean:
        reinterpret_cast<bool *>(bytes.data())[i] = v != 0;
        break;
      default:
        FAIL();
    }
  }
  double get(size_t i) const {
    switch (d.dtype) {
      case DType::f32:
        return reinterpret_cast<const float *>(bytes.data())[i];
      case DType::f16:
        return ops::half_to_float(reinterpret_cast<const uint16_t *>(bytes.data())[i]);
      case DType::bf16:
        return ops::bf16_to_float(reinterpret_cast<const uint16_t *>(bytes.data())[i]);
      case DType::i32:
        return reinterpret_cast<const int32_t *>(bytes.data())[i];
      case DType::i64:
        return static_cast<double>(reinterpret_cast<const int64_t *>(bytes.data())[i]);
      case DType::i8:
        return reinterpret_cast<const int8_t *>(bytes.data())[i];
      case DType::u8:
        return reinterpret_cast<const uint8_t *>(bytes.data())[i];
      case DType::boolean:
        return reinterpret_cast<const bool *>(bytes.data())[i];
      default:
        return NAN;
    }
  }
  // Random values, rounded to what the dtype holds.
  Buf &random(double lo, double hi, unsigned seed = 1) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    for (size_t i = 0; i < n(); ++i) set(i, u(g));
    return *this;
  }
  ops::Tensor tensor() { return {d, bytes.data(), bytes.size()}; }
};

void run(const std::string &type, std::vector<Buf *> in, std::vector<Buf *> out,
         const ops::Attrs &attrs = {}) {
  std::vector<ops::TensorDesc> id, od;
  std::vector<ops::Tensor> it, ot;
  for (auto *b : in) id.push_back(b->d), it.push_back(b->tensor());
  for (auto *b : out) od.push_back(b->d), ot.push_back(b->tensor());
  SerialCores cores;
  ops::prepare(ops::host_kernels(), type, id, od, attrs, cores.count())->run(it, ot, cores);
}

double tol(DType t) {
  return t == DType::f16 ? 2e-3 : t == DType::bf16 ? 1.6e-2 : t == DType::f32 ? 1e-5 : 0;
}

void expect_near(const Buf &y, const std::vector<double> &ref, double rel) {
  ASSERT_EQ(y.n(), ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_NEAR(y.get(i), ref[i], rel * std::max(1.0, std::abs(ref[i]))) << "at " << i;
}

std::vector<int64_t> unravel(size_t i, const std::vector<int64_t> &dims) {
  std::vector<int64_t> idx(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    idx[k] = static_cast<int64_t>(i) % dims[k];
    i /= dims[k];
  }
  return idx;
}

size_t bcast_index(const std::vector<int64_t> &idx, const std::vector<int64_t> &dims) {
  size_t off = 0;
  const size_t shift = idx.size() - dims.size();
  for (size_t k = 0; k < dims.size(); ++k)
    off = off * dims[k] + (dims[k] == 1 ? 0 : idx[shift + k]);
  return off;
}

struct BinCase {
  const char *op;
  double (*f)(double, double);
};

class BinaryOps : public ::testing::TestWithParam<DType> {};

TEST_P(BinaryOps, BroadcastAgainstReference) {
  const DType t = GetParam();
  const bool is_int = t == DType::i32 || t == DType::i64 || t == DType::i8 || t == DType::u8;
  const BinCase cases[] = {
      {"Add", [](double a, double b) { return a + b; }},
      {"Sub", [](double a, double b) { return a - b; }},
      {"Mul", [](double a, double b) { return a * b; }},
      {"Maximum", [](double a, double b) { return std::max(a, b); }},
      {"Minimum", [](double a, double b) { return std::min(a, b); }},
      {"RealDiv", [](double a, double b) { return a / b; }},
  };
  const std::vector<std::vector<int64_t>> shapes[] = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {4}}, {{2, 1, 4}, {3, 1}},
      {{1}, {5, 2}},          {{}, {3}},        {{0, 3}, {3}}};
  for (const auto &c : cases) {
    for (const auto &s : shapes) {
      Buf a(t, s[0]), b(t, s[1]);
      a.random(is_int ? 1 : -3, is_int ? 9 : 3, 1);
      b.random(is_int ? 1 : 0.5, is_int ? 5 : 3, 2);
      std::vector<int64_t> od;
      const size_t r = std::max(s[0].size(), s[1].size());
      for (size_t k = 0; k < r; ++k) {
        const int64_t da = k < r - s[0].size() ? 1 : s[0][k - (r - s[0].size())];
        const int64_t db = k < r - s[1].size() ? 1 : s[1][k - (r - s[1].size())];
        od.push_back(da == 1 ? db : da);
      }
      Buf y(t, od);
      run(c.op, {&a, &b}, {&y});
      std::vector<double> ref;
      for (size_t i = 0; i < y.n(); ++i) {
        auto idx = unravel(i, od);
        double v = c.f(a.get(bcast_index(idx, s[0])), b.get(bcast_index(idx, s[1])));
        if (is_int && std::string(c.op) == "RealDiv") v = std::trunc(v);
        if (t == DType::u8) v = static_cast<uint8_t>(static_cast<int64_t>(v));
        if (t == DType::i8) v = static_cast<int8_t>(static_cast<int64_t>(v));
        ref.push_back(v);
      }
      SCOPED_TRACE(std::string(c.op) + " " + ops::dims_str(s[0]) + " " + ops::dims_str(s[1]));
      expect_near(y, ref, tol(t) * 2);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, BinaryOps,
                         ::testing::Values(DType::f32, DType::f16, DType::bf16, DType::i32,
                                           DType::i64, DType::i8, DType::u8));

TEST(Ops, ComparisonsGiveBool) {
  Buf a(DType::f32, {4}), b(DType::f32, {4}), y(DType::boolean, {4});
  for (int i = 0; i < 4; ++i) a.set(i, i), b.set(i, 3 - i);
  run("Less", {&a, &b}, {&y});
  expect_near(y, {1, 1, 0, 0}, 0);
}

TEST(Ops, UnaryAgainstReference) {
  struct U {
    const char *op;
    double (*f)(double);
    double lo, hi;
  };
  const U cases[] = {
      {"Relu", [](double x) { return std::max(0.0, x); }, -2, 2},
      {"Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, -4, 4},
      {"Tanh", [](double x) { return std::tanh(x); }, -3, 3},
      {"Exp", [](double x) { return std::exp(x); }, -3, 3},
      {"Log", [](double x) { return std::log(x); }, 0.1, 5},
      {"Sqrt", [](double x) { return std::sqrt(x); }, 0, 5},
      {"Rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.1, 5},
      {"Neg", [](double x) { return -x; }, -3, 3},
      {"Abs", [](double x) { return std::abs(x); }, -3, 3},
      {"HardSigmoid", [](double x) { return std::clamp(x * 0.16666666 + 0.5, 0.0, 1.0); }, -5, 5},
      {"HardSwish", [](double x) { return x * std::clamp(x + 3, 0.0, 6.0) / 6; }, -5, 5},
      {"Gelu",
       [](double x) {
         return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
       },
       -3, 3},
  };
  for (DType t : {DType::f32, DType::f16, DType::bf16}) {
    for (const auto &c : cases) {
      Buf x(t, {3, 37}), y(t, {3, 37});
      x.random(c.lo, c.hi, 3);
      run(c.op, {&x}, {&y});
      std::vector<double> ref;
      for (size_t i = 0; i < x.n(); ++i) ref.push_back(c.f(x.get(i)));
      SCOPED_TRACE(std::string(c.op) + " " + ops::dtype_name(t));
      expect_near(y, ref, tol(t) * 4 + 1e-6);
    }
  }
}

TEST(Ops, ClipByValueAndCast) {
  Buf x(DType::f32, {6}), lo(DType::f32, {}), hi(DType::f32, {}), y(DType::f32, {6});
  for (int i = 0; i < 6; ++i) x.set(i, i - 2.5);
  lo.set(0, -1);
  hi.set(0, 1.5);
  run("ClipByValue", {&x, &lo, &hi}, {&y});
  expect_near(y, {-1, -1, -0.5, 0.5, 1.5, 1.5}, 0);
  Buf c(DType::i32, {6});
  run("Cast", {&x}, {&c}, {{"dst_type", DType::i32}});
  expect_near(c, {-2, -1, 0, 0, 1, 2}, 0);
  Buf h(DType::f16, {6});
  run("Cast", {&x}, {&h}, {{"dst_type", int64_t{1}}});
  expect_near(h, {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}, 0);
  // Long enough for the bulk F16C path and its scalar tail: every value, subnormals included,
  // round-trips exactly, and floats between halves round to nearest even.
  Buf every(DType::f16, {65536}), wide(DType::f32, {65536}), back(DType::f16, {65536});
  auto *bits = reinterpret_cast<uint16_t *>(every.bytes.data());
  for (uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<uint16_t>(i);
  run("Cast", {&every}, {&wide}, {{"dst_type", DType::f32}});
  run("Cast", {&wide}, {&back}, {{"dst_type", DType::f16}});
  for (uint32_t i = 0; i < 65536; ++i) {
    const float ref = ops::half_to_float(bits[i]);
    if (std::isnan(ref)) continue;
    ASSERT_EQ(wide.get(i), ref) << i;
    ASSERT_EQ(reinterpret_cast<const uint16_t *>(back.bytes.data())[i], bits[i]) << i;
  }
  Buf between(DType::f32, {13}), rounded(DType::f16, {13});
  for (int i = 0; i < 13; ++i)
    between.set(i, 1.0 + (2 * i + 1) / 2048.0);  // halfway between halves
  run("Cast", {&between}, {&rounded}, {{"dst_type", DType::f16}});
  for (int i = 0; i < 13; ++i)
    EXPECT_EQ(reinterpret_cast<const uint16_t *>(rounded.bytes.data())[i],
              ops::float_to_half(static_cast<float>(between.get(i))))
        << i;
}

TEST(Ops, TransposeConcatSplitSliceGather) {
  Buf x(DType::f32, {2, 3, 4});
  for (size_t i = 0; i < x.n(); ++i) x.set(i, i);
  Buf t(DType::f32, {4, 2, 3});
  run("TransposeD", {&x}, {&t}, {{"perm", std::vector<int64_t>{2, 0, 1}}});
  for (size_t i = 0; i < t.n(); ++i) {
    auto idx = unravel(i, {4, 2, 3});
    ASSERT_EQ(t.get(i), idx[1] * 12 + idx[2] * 4 + idx[0]);
  }
  Buf c(DType::f32, {2, 6, 4});
  run("ConcatD", {&x, &x}, {&c}, {{"concat_dim", int64_t{1}}, {"N", int64_t{2}}});
  for (size_t i = 0; i < c.n(); ++i) {
    auto idx = unravel(i, {2, 6, 4});
    ASSERT_EQ(c.get(i), idx[0] * 12 + (idx[1] % 3) * 4 + idx[2]);
  }
  Buf s0(DType::f32, {2, 3, 1}), s1(DType::f32, {2, 3, 3});
  run("SplitVD", {&x}, {&s0, &s1},
      {{"size_splits", std::vector<int64_t>{1, -1}},
       {"split_dim", int64_t{-1}},
       {"num_split", int64_t{2}}});
  ASSERT_EQ(s0.get(1), 4);
  ASSERT_EQ(s1.get(3), 5);
  Buf sl(DType::f32, {1, 2, 2});
  run("SliceD", {&x}, {&sl},
      {{"offsets", std::vector<int64_t>{1, 1, 2}}, {"size", std::vector<int64_t>{1, -1, 2}}});
  expect_near(sl, {18, 19, 22, 23}, 0);
  Buf idx(DType::i64, {3}), g(DType::f32, {2, 3, 3});
  idx.set(0, 2), idx.set(1, 0), idx.set(2, -1);
  run("GatherV2D", {&x, &idx}, {&g}, {{"axis", int64_t{2}}});
  expect_near(g, {2, 0, 3, 6, 4, 7, 10, 8, 11, 14, 12, 15, 18, 16, 19, 22, 20, 23}, 0);
}

TEST(Ops, ReduceSoftmaxNorms) {
  Buf x(DType::f32, {2, 3, 4});
  x.random(-2, 2, 5);
  Buf y(DType::f32, {2, 1, 4});
  run("ReduceMeanD", {&x}, {&y}, {{"axes", std::vector<int64_t>{1}}, {"keep_dims", true}});
  std::vector<double> ref(8, 0);
  for (size_t i = 0; i < 24; ++i) {
    auto id = unravel(i, {2, 3, 4});
    ref[id[0] * 4 + id[2]] += x.get(i) / 3;
  }
  expect_near(y, ref, 1e-6);
  Buf m(DType::f32, {3});
  run("ReduceMaxD", {&x}, {&m}, {{"axes", std::vector<int64_t>{0, 2}}});
  for (int c = 0; c < 3; ++c) {
    double mx = -1e9;
    for (int n = 0; n < 2; ++n)
      for (int k = 0; k < 4; ++k) mx = std::max(mx, x.get(n * 12 + c * 4 + k));
    ASSERT_EQ(m.get(c), mx);
  }
  Buf s(DType::f32, {2, 3, 4});
  run("SoftmaxV2", {&x}, {&s}, {{"axes", std::vector<int64_t>{1}}});
  for (size_t i = 0; i < 24; ++i) {
    auto id = unravel(i, {2, 3, 4});
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += std::exp(x.get(id[0] * 12 + c * 4 + id[2]));
    ASSERT_NEAR(s.get(i), std::exp(x.get(i)) / sum, 1e-6);
  }
  Buf gm(DType::f32, {4}), bt(DType::f32, {4}), ln(DType::f32, {2, 3, 4});
  gm.random(0.5, 2, 7), bt.random(-1, 1, 8);
  run("LayerNorm", {&x, &gm, &bt}, {&ln},
      {{"begin_norm_axis", int64_t{-1}}, {"begin_params_axis", int64_t{-1}}, {"epsilon", 1e-5f}});
  for (int r = 0; r < 6; ++r) {
    double mean = 0, var = 0;
    for (int k = 0; k < 4; ++k) mean += x.get(r * 4 + k) / 4;
    for (int k = 0; k < 4; ++k) var += std::pow(x.get(r * 4 + k) - mean, 2) / 4;
    for (int k = 0; k < 4; ++k)
      ASSERT_NEAR(ln.get(r * 4 + k),
                  (x.get(r * 4 + k) - mean) / std::sqrt(var + 1e-5) * gm.get(k) + bt.get(k), 1e-5);
  }
  Buf sc(DType::f32, {3}), of(DType::f32, {3}), mu(DType::f32, {3}), va(DType::f32, {3}),
      bn(DType::f32, {2, 3, 4});
  sc.random(0.5, 2, 9), of.random(-1, 1, 10), mu.random(-1, 1, 11), va.random(0.5, 2, 12);
  run("BatchNorm", {&x, &sc, &of, &mu, &va}, {&bn}, {{"epsilon", 1e-3f}});
  for (size_t i = 0; i < 24; ++i) {
    const int c = unravel(i, {2, 3, 4})[1];
    ASSERT_NEAR(bn.get(i),
                (x.get(i) - mu.get(c)) / std::sqrt(va.get(c) + 1e-3) * sc.get(c) + of.get(c), 1e-5);
  }
}

// Direct convolution in double.
std::vector<double> conv_ref(const Buf &x, const Buf &w, const Buf *b, int64_t sh, int64_t sw,
                             int64_t pt, int64_t pl, int64_t dh, int64_t dw, int64_t g, int64_t oh,
                             int64_t ow) {
  const int64_t n = x.d.dims[0], c = x.d.dims[1], h = x.d.dims[2], wd = x.d.dims[3];
  const int64_t oc = w.d.dims[0], kh = w.d.dims[2], kw = w.d.dims[3], cg = c / g, og = oc / g;
  std::vector<double> y(n * oc * oh * ow);
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t o = 0; o < oc; ++o)
      for (int64_t yy = 0; yy < oh; ++yy)
        for (int64_t xx = 0; xx < ow; ++xx) {
          double acc = b ? b->get(o) : 0;
          const int64_t gi = o / og;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = yy * sh - pt + ky * dh, ix = xx * sw - pl + kx * dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += x.get(((ni * c + gi * cg + ci) * h + iy) * wd + ix) *
                       w.get(((o * cg + ci) * kh + ky) * kw + kx);
              }
          y[((ni * oc + o) * oh + yy) * ow + xx] = acc;
        }
  return y;
}

TEST(Ops, Conv2DAgainstReference) {
  for (DType t : {DType::f32, DType::f16}) {
    for (int64_t g : {1, 2, 4}) {
      Buf x(t, {2, 4, 7, 6}), w(t, {8, 4 / g, 3, 3}), b(t, {8});
      x.random(-1, 1, 1), w.random(-1, 1, 2), b.random(-1, 1, 3);
      // stride 2, pads 1,0,1,1, dilation 1 -> oh = (7+1-3)/2+1 = 3, ow = (6+2-3)/2+1 = 3
      Buf y(t, {2, 8, 3, 3});
      run("Conv2D", {&x, &w, &b}, {&y},
          {{"strides", std::vector<int64_t>{1, 1, 2, 2}},
           {"pads", std::vector<int64_t>{1, 0, 1, 1}},
           {"dilations", std::vector<int64_t>{1, 1, 1, 1}},
           {"groups", g},
           {"data_format", std::string("NCHW")}});
      SCOPED_TRACE(std::string(ops::dtype_name(t)) + " groups " + std::to_string(g));
      expect_near(y, conv_ref(x, w, &b, 2, 2, 1, 1, 1, 1, g, 3, 3), t == DType::f16 ? 1e-2 : 1e-5);
    }
  }
  Buf x(DType::f32, {1, 2, 8, 8}), w(DType::f32, {3, 2, 3, 3}), y(DType::f32, {1, 3, 4, 4});
  x.random(-1, 1, 4), w.random(-1, 1, 5);
  run("Conv2D", {&x, &w}, {&y},
      {{"strides", std::vector<int64_t>{1, 1, 1, 1}},
       {"pads", std::vector<int64_t>{0, 0, 0, 0}},
       {"dilations", std::vector<int64_t>{1, 1, 2, 2}}});
  expect_near(y, conv_ref(x, w, nullptr, 1, 1, 0, 0, 2, 2, 1, 4, 4), 1e-5);
}

TEST(Ops, Conv2DTransposeAgainstReference) {
  // y[n,o,iy*s - p + ky, ...] += x[n,c,iy,ix] * w[c,o,ky,kx]
  Buf x(DType::f32, {1, 3, 4, 5}), w(DType::f32, {3, 2, 3, 3}), y(DType::f32, {1, 2, 8, 10});
  x.random(-1, 1, 1), w.random(-1, 1, 2);
  run("Conv2DTransposeD", {&x, &w}, {&y},
      {{"input_size", std::vector<int64_t>{1, 2, 8, 10}},
       {"strides", std::vector<int64_t>{1, 1, 2, 2}},
       {"pads", std::vector<int64_t>{1, 1, 1, 1}},
       {"output_padding", std::vector<int64_t>{0, 0, 1, 1}}});
  std::vector<double> ref(2 * 8 * 10, 0);
  for (int c = 0; c < 3; ++c)
    for (int iy = 0; iy < 4; ++iy)
      for (int ix = 0; ix < 5; ++ix)
        for (int o = 0; o < 2; ++o)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              const int yy = iy * 2 - 1 + ky, xx = ix * 2 - 1 + kx;
              if (yy < 0 || yy >= 8 || xx < 0 || xx >= 10) continue;
              ref[(o * 8 + yy) * 10 + xx] +=
                  x.get((c * 4 + iy) * 5 + ix) * w.get(((c * 2 + o) * 3 + ky) * 3 + kx);
            }
  expect_near(y, ref, 1e-5);
}

// Runs MatMulV2 with transpose_x2 (y = a x b^T [+ bias], b stored [N, K]) and returns the
// double-precision reference of y.
std::vector<double> matmul_nk(Buf &a, Buf &b, Buf *bias, Buf *y) {
  std::vector<Buf *> in = {&a, &b};
  if (bias) in.push_back(bias);
  run("MatMulV2", in, {y}, {{"transpose_x2", true}});
  const int64_t m = a.d.dims[0], k = a.d.dims[1], n = b.d.dims[0];
  std::vector<double> ref;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias ? bias->get(j) : 0;
      for (int64_t q = 0; q < k; ++q) acc += a.get(i * k + q) * b.get(j * k + q);
      ref.push_back(acc);
    }
  return ref;
}

TEST(Ops, MatMulOfAFewRowsAgainstAWeightStoredNByK) {
  // ggml's layout (transpose_x2): the skinny kernel, output columns split over the cores when
  // there is enough work. m: one block of each size the AVX-512 build takes (1 to 6 rows; 13 as
  // 4 + 4 + 5) and, in the AVX2 build, several blocks of unequal size; K with and
  // without a tail past the vector lanes, and past one depth block (1024); N not a multiple of
  // the 4-column panel; float16 and bfloat16 summed in f32, y rounded once. One row of x takes
  // f32 and f16 weight rows one by one up to 8 KB a row and in panels beyond (k 4200).
  for (DType t : {DType::f32, DType::f16, DType::bf16})
    for (int64_t m : {1, 2, 3, 6, 13})
      for (int64_t k : {7, 37, 1100, 4200})
        for (bool with_bias : {false, true}) {
          if (k == 4200 && m > 1) continue;
          const int64_t n = 1001;
          Buf a(t, {m, k}), b(t, {n, k}), bias(t, {n}), y(t, {m, n});
          a.random(-1, 1, 7), b.random(-1, 1, 8), bias.random(-1, 1, 9);
          const std::vector<double> ref = matmul_nk(a, b, with_bias ? &bias : nullptr, &y);
          SCOPED_TRACE(ops::dtype_name(t) + std::string(" m ") + std::to_string(m) + " k " +
                       std::to_string(k) + (with_bias ? " bias" : ""));
          // f32 sums of 4200 products drift by about 1e-5.
          const double f32_tol = k > 1100 ? 4e-5 : 1e-5;
          expect_near(y, ref, t == DType::f32 ? f32_tol : t == DType::f16 ? 1e-3 : 8e-3);
        }
}

TEST(Ops, MatMulOfManyRowsAgainstA16BitWeightStoredNByK) {
  // Past the skinny kernel's 64 rows: the panel kernel. m: one 16-row sliver past 64 (65), an
  // odd number of slivers (7 for 100: the AVX-512 build's lone last sliver); K shorter than a
  // vector, and past one depth block (256) with a tail; N a few columns (one chunk, padded
  // tile) and more than a chunk of a core; x of the weight's dtype or f32 (ggml's).
  for (DType wt : {DType::f16, DType::bf16})
    for (DType xt : {wt, DType::f32})
      for (int64_t m : {65, 100})
        for (int64_t k : {7, 600})
          for (int64_t n : {5, 301}) {
            const bool with_bias = xt == wt && n == 301;
            Buf a(xt, {m, k}), b(wt, {n, k}), bias(xt, {n}), y(xt, {m, n});
            a.random(-1, 1, 7), b.random(-1, 1, 8), bias.random(-1, 1, 9);
            const std::vector<double> ref = matmul_nk(a, b, with_bias ? &bias : nullptr, &y);
            SCOPED_TRACE(ops::dtype_name(xt) + std::string(" x ") + ops::dtype_name(wt) + " m " +
                         std::to_string(m) + " k " + std::to_string(k) + " n " + std::to_string(n) +
                         (with_bias ? " bias" : ""));
            // An f32 y holds f32 sums of up to 600 products; a 16-bit y is rounded once.
            expect_near(y, ref, xt == DType::f32 ? 2e-5 : xt == DType::f16 ? 1e-3 : 8e-3);
          }
}

TEST(Ops, MatMulAgainstQuantizedWeightsStoredNByK) {
  // ggml's Q8_0 and Q4_0 weights as WeightQuantBatchMatmulV2 takes them: int8 or int4 rows of k
  // with a scale per group of 32, x in float16 or f32. m: each block size of the in-register path
  // (1 to 4, one row with each kind of group) and the dequantized chunks through the skinny
  // matmul (5, 8, 9; 70: a full block of 64 rows and a tail); groups of 32, 16, one a row (k),
  // and 6 (the generic loops); rows of every operand further apart than their length; n not a
  // multiple of any chunk.
  struct Case {
    int64_t m, k, group;
  };
  for (bool int4 : {false, true})
    for (DType xt : {DType::f16, DType::f32})
      for (const Case c :
           {Case{1, 256, 32}, Case{2, 96, 32}, Case{3, 64, 16}, Case{4, 128, 128}, Case{5, 64, 32},
            Case{8, 32, 32}, Case{9, 96, 32}, Case{70, 160, 32}, Case{3, 48, 6}, Case{70, 36, 6},
            Case{1, 4096, 32}, Case{1, 96, 16}, Case{1, 128, 128}, Case{1, 48, 6}}) {
        const int64_t m = c.m, k = c.k, n = 37, groups = k / c.group;
        const int64_t ldx = k + 3, ldw = (int4 ? k / 2 : k) + 5, lds = groups + 1, ldy = n + 2;
        const bool with_bias = m % 2 == 1;
        std::mt19937 g(static_cast<unsigned>(m * k));
        std::uniform_int_distribution<int> qd(int4 ? -8 : -127, int4 ? 7 : 127);
        std::uniform_real_distribution<double> xd(-1, 1), sd(0.001, 0.02);
        Buf x(xt, {m, ldx}), sc(DType::f16, {n, lds}), y(xt, {m, ldy});
        std::vector<uint8_t> w(static_cast<size_t>(n * ldw));
        std::vector<int> q(static_cast<size_t>(n * k));
        std::vector<float> bias(static_cast<size_t>(n));
        for (size_t i = 0; i < x.n(); ++i) x.set(i, xd(g));
        for (size_t i = 0; i < sc.n(); ++i) sc.set(i, sd(g));
        for (float &b : bias) b = static_cast<float>(xd(g));
        for (int64_t j = 0; j < n; ++j)
          for (int64_t t = 0; t < k; ++t) {
            const int v = q[j * k + t] = qd(g);
            if (int4) w[j * ldw + t / 2] |= static_cast<uint8_t>((v & 0xf) << (4 * (t % 2)));
            else w[j * ldw + t] = static_cast<uint8_t>(v);
          }
        ops::QuantMatmulShape s{m, k, n, c.group, int4, xt, DType::f16, xt};
        ops::QuantMatmulData d{x.bytes.data(),
                               ldx,
                               w.data(),
                               ldw,
                               sc.bytes.data(),
                               lds,
                               with_bias ? bias.data() : nullptr,
                               y.bytes.data(),
                               ldy};
        SerialCores cores;
        ops::quant_matmul(s, d, cores);
        // The float16 weight of the panel route: each value q * scale rounded once.
        std::vector<uint16_t> w16(static_cast<size_t>(n * k));
        ops::quant_dequantize_f16(s, d, w16.data(), cores);
        for (int64_t e = 0; e < n * k; ++e)
          ASSERT_EQ(w16[e],
                    ops::float_to_half(static_cast<float>(q[e]) *
                                       static_cast<float>(sc.get(e / k * lds + e % k / c.group))))
              << "weight " << e;
        SCOPED_TRACE(std::string(int4 ? "int4" : "int8") + " x " + ops::dtype_name(xt) + " m " +
                     std::to_string(m) + " k " + std::to_string(k) + " group " +
                     std::to_string(c.group));
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double want = with_bias ? bias[j] : 0, size = std::abs(want);
            for (int64_t t = 0; t < k; ++t) {
              const double p = x.get(i * ldx + t) * q[j * k + t] * sc.get(j * lds + t / c.group);
              want += p, size += std::abs(p);
            }
            // f32 sums; a float16 y rounded once.
            const double tol = (xt == DType::f16 ? 1e-3 : 2e-6) * std::max(1.0, size);
            ASSERT_NEAR(y.get(i * ldy + j), want, tol) << "row " << i << " column " << j;
          }
      }
}

TEST(Ops, MatMulAndBatchMatMul) {
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      const int64_t m = 5, k = 7, n = 3;
      Buf a(DType::f32, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k});
      Buf b(DType::f32, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
      Buf bias(DType::f32, {n}), y(DType::f32, {m, n});
      a.random(-1, 1, 1), b.random(-1, 1, 2), bias.random(-1, 1, 3);
      run("MatMulV2", {&a, &b, &bias}, {&y}, {{"transpose_x1", ta}, {"transpose_x2", tb}});
      std::vector<double> ref;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double acc = bias.get(j);
          for (int64_t q = 0; q < k; ++q)
            acc += a.get(ta ? q * m + i : i * k + q) * b.get(tb ? j * k + q : q * n + j);
          ref.push_back(acc);
        }
      expect_near(y, ref, 1e-5);
    }
  Buf a(DType::f16, {2, 1, 3, 4}), b(DType::f16, {3, 4, 2}), y(DType::f16, {2, 3, 3, 2});
  a.random(-1, 1, 4), b.random(-1, 1, 5);
  run("BatchMatMulV2", {&a, &b}, {&y});
  std::vector<double> ref;
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 3; ++q)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
          double acc = 0;
          for (int kk = 0; kk < 4; ++kk)
            acc += a.get((p * 3 + i) * 4 + kk) * b.get((q * 4 + kk) * 2 + j);
          ref.push_back(acc);
        }
  expect_near(y, ref, 5e-3);
}

TEST(Ops, PoolingAndResize) {
  Buf x(DType::f32, {1, 2, 4, 4});
  for (size_t i = 0; i < x.n(); ++i) x.set(i, i);
  Buf mp(DType::f32, {1, 2, 2, 2});
  run("MaxPool", {&x}, {&mp},
      {{"ksize", std::vector<int64_t>{1, 1, 2, 2}},
       {"strides", std::vector<int64_t>{1, 1, 2, 2}},
       {"padding", std::string("VALID")},
       {"data_format", std::string("NCHW")}});
  expect_near(mp, {5, 7, 13, 15, 21, 23, 29, 31}, 0);
  Buf ap(DType::f32, {1, 2, 2, 2});
  run("AvgPoolV2", {&x}, {&ap},
      {{"ksize", std::vector<int64_t>{1, 1, 3, 3}},
       {"strides", std::vector<int64_t>{1, 1, 2, 2}},
       {"pads", std::vector<int64_t>{1, 1, 1, 1}},
       {"padding_mode", std::string("CALCULATED")}});
  // exclusive: window at (0,0) covers rows 0-1, cols 0-1 -> mean(0,1,4,5) = 2.5
  ASSERT_NEAR(ap.get(0), 2.5, 1e-6);
  Buf gp(DType::f32, {1, 2, 1, 1});
  run("GlobalAveragePool", {&x}, {&gp});
  expect_near(gp, {7.5, 23.5}, 1e-6);
  Buf up(DType::f32, {1, 2, 8, 8});
  run("Resize", {&x}, {&up},
      {{"mode", std::string("nearest")},
       {"coordinate_transformation_mode", std::string("asymmetric")},
       {"nearest_mode", std::string("floor")}});
  ASSERT_EQ(up.get(9), 0);   // (1,1) -> (0,0)
  ASSERT_EQ(up.get(18), 5);  // (2,2) -> (1,1)
  Buf bl(DType::f32, {1, 2, 8, 8});
  run("Resize", {&x}, {&bl},
      {{"mode", std::string("linear")},
       {"coordinate_transformation_mode", std::string("half_pixel")}});
  // (0,1): src x = 1.5/2 - 0.5 = 0.25 -> 0.75*0 + 0.25*1 = 0.25; src y clamps to 0.
  ASSERT_NEAR(bl.get(1), 0.25, 1e-6);
  Buf ac(DType::f32, {1, 2, 7, 7});
  run("Resize", {&x}, {&ac},
      {{"mode", std::string("linear")},
       {"coordinate_transformation_mode", std::string("align_corners")}});
  ASSERT_NEAR(ac.get(1), 0.5, 1e-6);
  ASSERT_NEAR(ac.get(48), 15, 1e-6);
}

TEST(Ops, ZeroSizedAndOneElement) {
  Buf a(DType::f32, {0, 4}), b(DType::f32, {0, 4}), y(DType::f32, {0, 4});
  run("Add", {&a, &b}, {&y});
  Buf s(DType::f32, {1}), t(DType::f32, {1}), u(DType::f32, {1});
  s.set(0, 2), t.set(0, 3);
  run("Mul", {&s, &t}, {&u});
  ASSERT_EQ(u.get(0), 6);
}

TEST(Ops, ValidationErrors) {
  auto code = [](auto &&f) {
    try {
      f();
    } catch (const openacl::Error &e) {
      EXPECT_NE(std::string(e.what()).size(), 0u);
      return e.code();
    }
    return openacl::Errc::ok;
  };
  using openacl::Errc;
  const auto f = desc(DType::f32, {2, 3});
  EXPECT_EQ(code([&] { ops::prepare(ops::host_kernels(), "NoSuchOp", {f}, {f}, {}, 1); }),
            Errc::op_type_not_match);
  EXPECT_EQ(code([&] { ops::prepare(ops::host_kernels(), "Add", {f}, {f}, {}, 1); }),
            Errc::op_input_not_match);
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Add", {f, desc(DType::i32, {2, 3})}, {f}, {}, 1);
            }),
            Errc::op_input_not_match);
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Add", {f, desc(DType::f32, {4})}, {f}, {}, 1);
            }),
            Errc::op_input_not_match);
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Add", {f, f}, {desc(DType::f32, {3, 2})}, {}, 1);
            }),
            Errc::op_output_not_match);
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Sigmoid", {desc(DType::i32, {2})},
                           {desc(DType::i32, {2})}, {}, 1);
            }),
            Errc::unsupported_data_type);
  EXPECT_EQ(code([&] { ops::prepare(ops::host_kernels(), "TransposeD", {f}, {f}, {}, 1); }),
            Errc::op_attr_not_match);
  EXPECT_EQ(
      code([&] {
        ops::prepare(ops::host_kernels(), "TransposeD", {f}, {f}, {{"perm", std::string("x")}}, 1);
      }),
      Errc::op_attr_not_match);
  EXPECT_TRUE(ops::is_known_op("Conv2D"));
  EXPECT_EQ(ops::infer("Add", {f, desc(DType::f32, {3})}, {})[0].dims,
            (std::vector<int64_t>{2, 3}));
}

// A stand-in for another backend's kernel: fills its output with 42.
std::unique_ptr<ops::PreparedOp> fill_42(ops::OpCall &call) {
  call.output(call.in(0).dtype, call.in(0).dims);
  return ops::make_op([](const std::vector<ops::Tensor> &, const std::vector<ops::Tensor> &out,
                         openacl::backend::AiCores &) {
    std::fill_n(static_cast<float *>(out[0].data), out[0].desc.element_count(), 42.0f);
  });
}

// An op is prepared by the kernel the backend's table has for it, and an op the table lacks
// fails naming the op and the backend.
TEST(Ops, PreparedThroughTheBackendsKernelTable) {
  openacl::backend::KernelTable other("other");
  other.add("Relu", fill_42);
  Buf x(DType::f32, {3}), y(DType::f32, {3});
  x.set(0, -1), x.set(1, 0), x.set(2, 5);
  SerialCores cores;
  ops::prepare(other, "Relu", {x.d}, {y.d}, {}, 1)->run({x.tensor()}, {y.tensor()}, cores);
  EXPECT_EQ(y.get(0), 42);
  EXPECT_EQ(y.get(2), 42);
  ops::prepare(ops::host_kernels(), "Relu", {x.d}, {y.d}, {}, 1)
      ->run({x.tensor()}, {y.tensor()}, cores);
  EXPECT_EQ(y.get(0), 0);
  EXPECT_EQ(y.get(2), 5);

  auto message = [&](const std::string &op) {
    try {
      ops::prepare(other, op, {x.d, x.d}, {y.d}, {}, 1);
    } catch (const openacl::Error &e) {
      EXPECT_EQ(e.code(), openacl::Errc::op_type_not_match);
      return std::string(e.what());
    }
    return std::string("prepared");
  };
  EXPECT_EQ(message("Add"), "the other backend has no kernel for op type 'Add'");
  EXPECT_EQ(message("NoSuchOp"), "op type 'NoSuchOp' is not a built-in operator of openacl");
  EXPECT_EQ(ops::host_kernels().backend(), "sim");
  EXPECT_TRUE(ops::host_kernels().supports("Add"));
  EXPECT_FALSE(other.supports("Add"));
}

}  // namespace

namespace {
// Any core count, run serially: the parts an op splits into depend only on the count.
struct CountedCores final : openacl::backend::AiCores {
  unsigned n;
  size_t widest = 0;  // the most parts one call ran
  explicit CountedCores(unsigned count) : n(count) {}
  unsigned count() const override { return n; }
  void parallel_for(size_t k, const std::function<void(size_t)> &body) override {
    widest = std::max(widest, k);
    for (size_t i = k; i-- > 0;) body(i);  // backwards: no part may rely on another's order
  }
};

// NCHW <-> NHWC copies of a 4-D f32 buffer's bytes.
std::vector<uint8_t> to_nhwc(const Buf &b, bool back = false) {
  const auto &d = b.d.dims;
  const int64_t n = d[0], c = d[1], h = d[2], w = d[3];
  std::vector<uint8_t> out(b.bytes.size());
  const auto *src = reinterpret_cast<const float *>(b.bytes.data());
  auto *dst = reinterpret_cast<float *>(out.data());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t y = 0; y < h * w; ++y) {
        const int64_t nchw = (i * c + k) * h * w + y, nhwc = (i * h * w + y) * c + k;
        if (back) dst[nchw] = src[nhwc];
        else dst[nhwc] = src[nchw];
      }
  return out;
}

TEST(Ops, Conv2DSplitsOverCoresByImagesRowsOrChannels) {
  struct Shape {
    std::vector<int64_t> x;
    int64_t oc, k, s, pad, dil, g = 1;
  };
  for (const Shape &sh :
       {Shape{{1, 16, 61, 40}, 24, 3, 1, 1, 1}, Shape{{1, 16, 61, 40}, 24, 3, 2, 1, 1},
        Shape{{1, 16, 45, 30}, 16, 3, 1, 2, 2}, Shape{{1, 16, 40, 40}, 32, 1, 1, 0, 1},
        Shape{{1, 64, 3, 40}, 64, 1, 1, 0, 1},     // channels-last: split by pixels
        Shape{{1, 16, 256, 256}, 32, 1, 1, 0, 1},  // channels-last: a matmul
        Shape{{1, 160, 1, 40}, 60, 3, 1, 1, 1},    // one row: bands of output channels
        // depthwise over 3 output rows (no channel bands): uneven bands of rows at stride 1
        Shape{{1, 96, 3, 80}, 96, 5, 1, 2, 1, 96}, Shape{{1, 96, 6, 80}, 96, 5, 2, 2, 1, 96},
        Shape{{3, 16, 30, 30}, 24, 3, 1, 1, 1}}) {
    for (unsigned cores : {1u, 2u, 3u}) {
      for (bool cl : {false, true}) {
        Buf x(DType::f32, sh.x), w(DType::f32, {sh.oc, sh.x[1] / sh.g, sh.k, sh.k}),
            b(DType::f32, {sh.oc});
        x.random(-1, 1, 1), w.random(-1, 1, 2), b.random(-1, 1, 3);
        const int64_t ke = (sh.k - 1) * sh.dil + 1;
        const int64_t oh = (sh.x[2] + 2 * sh.pad - ke) / sh.s + 1,
                      ow = (sh.x[3] + 2 * sh.pad - ke) / sh.s + 1;
        Buf y(DType::f32, {sh.x[0], sh.oc, oh, ow});
        ops::TensorDesc xd = x.d, yd = y.d;
        xd.channels_last = yd.channels_last = cl;
        std::vector<uint8_t> xs = cl ? to_nhwc(x) : x.bytes;
        CountedCores cc(cores);
        auto op = ops::prepare(ops::host_kernels(), "Conv2D", {xd, w.d, b.d}, {yd},
                               {{"strides", std::vector<int64_t>{1, 1, sh.s, sh.s}},
                                {"pads", std::vector<int64_t>{sh.pad, sh.pad, sh.pad, sh.pad}},
                                {"dilations", std::vector<int64_t>{1, 1, sh.dil, sh.dil}},
                                {"groups", sh.g}},
                               cores);
        op->run({{xd, xs.data(), xs.size()}, w.tensor(), b.tensor()},
                {{yd, y.bytes.data(), y.bytes.size()}}, cc);
        if (cl) y.bytes = to_nhwc(y, true);
        SCOPED_TRACE("x " + ops::dims_str(sh.x) + " stride " + std::to_string(sh.s) + " cores " +
                     std::to_string(cores) + (cl ? " channels-last" : ""));
        expect_near(y, conv_ref(x, w, &b, sh.s, sh.s, sh.pad, sh.pad, sh.dil, sh.dil, sh.g, oh, ow),
                    1e-4);
        const bool whole = sh.s > 1 && oh < 2 * static_cast<int64_t>(cores) && sh.g > 1;
        EXPECT_EQ(cc.widest, cores == 1 || whole ? 0u : cores);
      }
    }
  }
}

// The F(2x2, 3x3) kernel against the direct sum: odd sizes (partial tiles), padding 0 to 2,
// output channels not a multiple of 8 or of 24, two images, 1 to 3 cores, the filter bound as
// a model constant or read at every run.
TEST(Ops, Conv2DWinogradMatchesTheDirectSum) {
  // bind_constant reads the filter through a host view of its device: the sim device's.
  const auto host_device = openacl::backend::create_device("sim", 0, {"sim", 1 << 20, 1}, nullptr);
  struct Shape {
    int64_t n, c, h, w, oc, pad;
  };
  for (const Shape sh : {Shape{1, 8, 7, 9, 5, 1}, Shape{2, 16, 10, 6, 24, 1},
                         Shape{1, 32, 12, 11, 40, 0}, Shape{1, 8, 5, 5, 17, 2}}) {
    for (unsigned cores : {1u, 2u, 3u}) {
      for (bool bound : {false, true}) {
        const int64_t oh = sh.h + 2 * sh.pad - 2, ow = sh.w + 2 * sh.pad - 2;
        Buf x(DType::f32, {sh.n, sh.c, sh.h, sh.w}), w(DType::f32, {sh.oc, sh.c, 3, 3}),
            b(DType::f32, {sh.oc}), y(DType::f32, {sh.n, sh.oc, oh, ow});
        x.random(-1, 1, 4), w.random(-1, 1, 5), b.random(-1, 1, 6);
        const ops::Winograd3x3 s{sh.n, sh.c, sh.h,     sh.w, sh.oc, sh.pad, sh.pad,
                                 oh,   ow,   sh.c * 9, 9,    3,     1,      true};
        auto op = ops::winograd_conv(s);
        if (bound) op->bind_constant(1, w.bytes.data(), w.bytes.size(), *host_device);
        std::vector<uint8_t> xs = to_nhwc(x);
        ops::TensorDesc xd = x.d, yd = y.d;
        xd.channels_last = yd.channels_last = true;
        CountedCores cc(cores);
        op->run({{xd, xs.data(), xs.size()}, w.tensor(), b.tensor()},
                {{yd, y.bytes.data(), y.bytes.size()}}, cc);
        y.bytes = to_nhwc(y, true);
        SCOPED_TRACE("x " + ops::dims_str(x.d.dims) + " oc " + std::to_string(sh.oc) + " cores " +
                     std::to_string(cores) + (bound ? " bound" : ""));
        expect_near(y, conv_ref(x, w, &b, 1, 1, sh.pad, sh.pad, 1, 1, 1, oh, ow), 1e-4);
      }
    }
  }
  // Chosen only on AVX2 (not AVX-512) for at least 32 input channels in multiples of 8 and
  // 40x40 outputs.
  const ops::Winograd3x3 big{1, 96, 160, 160, 24, 1, 1, 160, 160, 864, 9, 3, 1, true};
  EXPECT_EQ(ops::winograd_pays(big), ops::use_avx2() && !ops::use_avx512());
  ops::Winograd3x3 few = big, odd = big, small = big;
  few.c = 24, odd.c = 100, small.oh = small.ow = 39;
  EXPECT_FALSE(ops::winograd_pays(few));
  EXPECT_FALSE(ops::winograd_pays(odd));
  EXPECT_FALSE(ops::winograd_pays(small));
}

TEST(Ops, MatMulSplitsOverCoresByRowsOrColumns) {
  // x1 the larger operand: bands of M rows; x2 the larger: bands of N columns. Each with
  // transposed operands and a bias, and a batch broadcast against a 2-D x2. M above 64, so that
  // a transposed x2 goes to oneDNN too, not to the skinny kernel.
  struct Shape {
    int64_t batch, m, k, n;
  };
  for (const Shape sh : {Shape{1, 100, 64, 80}, Shape{1, 80, 64, 300}, Shape{3, 50, 64, 40}}) {
    for (unsigned cores : {1u, 2u, 3u}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          const bool batched = sh.batch > 1;
          std::vector<int64_t> ad =
              ta ? std::vector<int64_t>{sh.k, sh.m} : std::vector<int64_t>{sh.m, sh.k};
          if (batched) ad.insert(ad.begin(), sh.batch);
          Buf a(DType::f32, ad), b(DType::f32, tb ? std::vector<int64_t>{sh.n, sh.k}
                                                  : std::vector<int64_t>{sh.k, sh.n});
          Buf bias(DType::f32, {sh.n});
          Buf y(DType::f32, batched ? std::vector<int64_t>{sh.batch, sh.m, sh.n}
                                    : std::vector<int64_t>{sh.m, sh.n});
          a.random(-1, 1, 1), b.random(-1, 1, 2), bias.random(-1, 1, 3);
          CountedCores cc(cores);
          std::vector<Buf *> ins = {&a, &b};
          if (!batched) ins.push_back(&bias);
          std::vector<ops::TensorDesc> ids;
          std::vector<ops::Tensor> its;
          for (Buf *i : ins) ids.push_back(i->d), its.push_back(i->tensor());
          const ops::Attrs attrs = batched ? ops::Attrs{{"adj_x1", ta}, {"adj_x2", tb}}
                                           : ops::Attrs{{"transpose_x1", ta}, {"transpose_x2", tb}};
          ops::prepare(ops::host_kernels(), batched ? "BatchMatMulV2" : "MatMulV2", ids, {y.d},
                       attrs, cores)
              ->run(its, {{y.d, y.bytes.data(), y.bytes.size()}}, cc);
          std::vector<double> ref;
          for (int64_t p = 0; p < sh.batch; ++p)
            for (int64_t i = 0; i < sh.m; ++i)
              for (int64_t j = 0; j < sh.n; ++j) {
                double acc = batched ? 0.0 : bias.get(j);
                const int64_t base = p * sh.m * sh.k;
                for (int64_t q = 0; q < sh.k; ++q)
                  acc += a.get(base + (ta ? q * sh.m + i : i * sh.k + q)) *
                         b.get(tb ? j * sh.k + q : q * sh.n + j);
                ref.push_back(acc);
              }
          SCOPED_TRACE("m " + std::to_string(sh.m) + " n " + std::to_string(sh.n) + " batch " +
                       std::to_string(sh.batch) + " cores " + std::to_string(cores) +
                       (ta ? " x1 transposed" : "") + (tb ? " x2 transposed" : ""));
          expect_near(y, ref, 1e-4);
          EXPECT_EQ(cc.widest, cores == 1 ? 0u : cores);
        }
      }
    }
  }
}

TEST(Ops, ResizeOfNhwcTensorsMatchesNchw) {
  for (const char *mode : {"nearest", "linear"}) {
    for (unsigned cores : {1u, 2u}) {
      Buf x(DType::f32, {2, 3, 5, 6}), ref(DType::f32, {2, 3, 9, 11}), y(DType::f32, {2, 3, 9, 11});
      x.random(-1, 1, 7);
      const ops::Attrs attrs{{"mode", std::string(mode)},
                             {"coordinate_transformation_mode", std::string("half_pixel")}};
      run("Resize", {&x}, {&ref}, attrs);
      // NHWC: x and y as [N, H, W, C]; the output size comes from y's descriptor.
      ops::TensorDesc xd = x.d, yd = y.d;
      xd.dims = {2, 5, 6, 3};
      yd.dims = {2, 9, 11, 3};
      ops::Attrs nhwc = attrs;
      nhwc["data_format"] = std::string("NHWC");
      std::vector<uint8_t> xs = to_nhwc(x);
      CountedCores cc(cores);
      ops::prepare(ops::host_kernels(), "Resize", {xd}, {yd}, nhwc, cores)
          ->run({{xd, xs.data(), xs.size()}}, {{yd, y.bytes.data(), y.bytes.size()}}, cc);
      y.bytes = to_nhwc(y, true);
      SCOPED_TRACE(std::string(mode) + " cores " + std::to_string(cores));
      std::vector<double> want;
      for (size_t i = 0; i < ref.n(); ++i) want.push_back(ref.get(i));
      expect_near(y, want, 1e-6);
    }
  }
  const auto d = desc(DType::f32, {1, 4, 4, 3});
  EXPECT_THROW(
      ops::prepare(ops::host_kernels(), "Resize", {d}, {desc(DType::f32, {1, 8, 8, 3})},
                   {{"mode", std::string("cubic")}, {"data_format", std::string("NHWC")}}, 1),
      openacl::Error);
}

// b's elements moved to the dims b.dims[perm[0]], b.dims[perm[1]], ... (numpy's transpose).
Buf permuted(const Buf &b, const std::vector<int64_t> &perm, ops::Format format = ops::Format::nd) {
  std::vector<int64_t> dims;
  for (int64_t p : perm) dims.push_back(b.d.dims[p]);
  Buf out(b.d.dtype, dims);
  out.d.format = format;
  for (size_t i = 0; i < out.n(); ++i) {
    const auto idx = unravel(i, dims);
    std::vector<int64_t> src(idx.size());
    for (size_t k = 0; k < perm.size(); ++k) src[perm[k]] = idx[k];
    size_t at = 0;
    for (size_t k = 0; k < src.size(); ++k) at = at * b.d.dims[k] + src[k];
    out.set(i, b.get(at));
  }
  return out;
}

TEST(Ops, Conv2DTakesNhwcTensorsAndFilterLayouts) {
  using F = ops::Format;
  // The filter as OIHW (NCHW), OHWI (NHWC) and HWIO (HWCN), and the permutation from OIHW.
  const std::pair<F, std::vector<int64_t>> filters[] = {
      {F::nchw, {0, 1, 2, 3}}, {F::nhwc, {0, 2, 3, 1}}, {F::hwcn, {2, 3, 1, 0}}};
  for (DType t : {DType::f32, DType::f16}) {
    for (const std::vector<int64_t> &xs :
         {std::vector<int64_t>{2, 4, 7, 6}, std::vector<int64_t>{1, 4, 20, 6}}) {
      for (int64_t g : {1, 2}) {
        for (const auto &[wf, perm] : filters) {
          for (unsigned cores : {1u, 3u}) {
            Buf x(t, xs), w(t, {8, 4 / g, 3, 3}), b(t, {8});
            x.random(-1, 1, 1), w.random(-1, 1, 2), b.random(-1, 1, 3);
            // NHWC strides 1,2,1,1 and dilations 1,1,2,1: sH 2, dW 2.
            const int64_t oh = (xs[2] + 1 - 3) / 2 + 1, ow = xs[3] + 2 - 5 + 1;
            Buf xn = permuted(x, {0, 2, 3, 1}, F::nhwc), wn = permuted(w, perm, wf);
            Buf yn(t, {xs[0], oh, ow, 8});
            yn.d.format = F::nhwc;
            CountedCores cc(cores);
            ops::prepare(ops::host_kernels(), "Conv2D", {xn.d, wn.d, b.d}, {yn.d},
                         {{"strides", std::vector<int64_t>{1, 2, 1, 1}},
                          {"pads", std::vector<int64_t>{1, 0, 1, 1}},
                          {"dilations", std::vector<int64_t>{1, 1, 2, 1}},
                          {"groups", g}},
                         cores)
                ->run({xn.tensor(), wn.tensor(), b.tensor()}, {yn.tensor()}, cc);
            SCOPED_TRACE(std::string(ops::dtype_name(t)) + " x " + ops::dims_str(xs) + " groups " +
                         std::to_string(g) + " filter format " +
                         std::to_string(static_cast<int>(wf)) + " cores " + std::to_string(cores));
            expect_near(permuted(yn, {0, 3, 1, 2}), conv_ref(x, w, &b, 2, 1, 1, 1, 1, 2, g, oh, ow),
                        t == DType::f16 ? 1e-2 : 1e-5);
          }
        }
      }
    }
  }
}

// The mean over a large plane keeps float precision in either layout (a plain float sum of
// 448x448 values drifts by about 1e-3 of it).
TEST(Ops, GlobalAveragePoolOverALargePlane) {
  Buf x(DType::f32, {1, 3, 448, 448});
  x.random(0.5, 1.5, 9);
  std::vector<double> ref(3, 0);
  for (size_t i = 0; i < x.n(); ++i) ref[i / (448 * 448)] += x.get(i) / (448.0 * 448.0);
  for (bool cl : {false, true}) {
    Buf y(DType::f32, {1, 3, 1, 1});
    ops::TensorDesc xd = x.d;
    xd.channels_last = cl;
    std::vector<uint8_t> xs = cl ? to_nhwc(x) : x.bytes;
    CountedCores cc(2);
    ops::prepare(ops::host_kernels(), "GlobalAveragePool", {xd}, {y.d}, {}, 2)
        ->run({{xd, xs.data(), xs.size()}}, {y.tensor()}, cc);
    SCOPED_TRACE(cl ? "channels-last" : "NCHW");
    expect_near(y, ref, 1e-6);
  }
}

TEST(Ops, Conv2DLayoutErrors) {
  using F = ops::Format;
  using openacl::Errc;
  auto code = [](auto &&f) {
    try {
      f();
    } catch (const openacl::Error &e) {
      return e.code();
    }
    return Errc::ok;
  };
  auto d = [](std::vector<int64_t> dims, F f) {
    ops::TensorDesc t = desc(DType::f32, std::move(dims));
    t.format = f;
    return t;
  };
  const ops::Attrs ones{{"strides", std::vector<int64_t>{1, 1, 1, 1}}};
  const auto x = d({1, 5, 5, 3}, F::nhwc), w = d({2, 3, 1, 1}, F::nchw),
             y = d({1, 5, 5, 2}, F::nhwc);
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Conv2D", {x, w}, {y}, ones, 1);
            }),
            Errc::ok);
  ops::Attrs nchw = ones;
  nchw["data_format"] = std::string("NCHW");
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Conv2D", {x, w}, {y}, nchw, 1);
            }),
            Errc::op_attr_not_match);
  ops::Attrs bad = ones;
  bad["data_format"] = std::string("NDHWC");
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Conv2D", {x, w}, {y}, bad, 1);
            }),
            Errc::op_attr_not_match);
  // An ND x takes its layout from data_format.
  ops::Attrs nhwc = ones;
  nhwc["data_format"] = std::string("NHWC");
  EXPECT_EQ(ops::infer("Conv2D", {d({1, 5, 5, 3}, F::nd), w}, nhwc)[0].dims,
            (std::vector<int64_t>{1, 5, 5, 2}));
  EXPECT_EQ(code([&] {
              ops::prepare(ops::host_kernels(), "Conv2D", {x, d({2, 3, 1, 1}, static_cast<F>(3))},
                           {y}, ones, 1);
            }),
            Errc::op_input_not_match);
  EXPECT_EQ(
      code([&] {
        ops::prepare(ops::host_kernels(), "Conv2D", {x, d({2, 1, 1, 2}, F::nhwc)}, {y}, ones, 1);
      }),
      Errc::op_input_not_match);
  EXPECT_EQ(
      code([&] {
        ops::prepare(ops::host_kernels(), "Conv2D", {x, w}, {d({1, 2, 5, 5}, F::nchw)}, ones, 1);
      }),
      Errc::op_output_not_match);
}

TEST(Ops, Conv2DTransposeWithStrideEqualToKernel) {
  // Windows that tile the output: computed as one matmul per kernel tap (patch_deconv) when
  // y is channels-last or has one channel.
  for (int64_t oc : {1, 3}) {
    for (bool cl : {false, true}) {
      if (oc != 1 && !cl) continue;  // that case takes oneDNN's deconvolution
      Buf x(DType::f32, {2, 5, 4, 3}), w(DType::f32, {5, oc, 2, 3}), b(DType::f32, {oc}),
          y(DType::f32, {2, oc, 8, 9});
      x.random(-1, 1, 1), w.random(-1, 1, 2), b.random(-1, 1, 3);
      ops::TensorDesc xd = x.d, yd = y.d;
      xd.channels_last = yd.channels_last = cl;
      std::vector<uint8_t> xs = cl ? to_nhwc(x) : x.bytes;
      CountedCores cores(2);
      ops::prepare(ops::host_kernels(), "Conv2DTransposeD", {xd, w.d, b.d}, {yd},
                   {{"input_size", std::vector<int64_t>{2, oc, 8, 9}},
                    {"strides", std::vector<int64_t>{1, 1, 2, 3}}},
                   2)
          ->run({{xd, xs.data(), xs.size()}, w.tensor(), b.tensor()},
                {{yd, y.bytes.data(), y.bytes.size()}}, cores);
      if (cl) y.bytes = to_nhwc(y, true);
      std::vector<double> ref(y.n());
      for (int ni = 0; ni < 2; ++ni)
        for (int o = 0; o < oc; ++o)
          for (int yy = 0; yy < 8; ++yy)
            for (int xx = 0; xx < 9; ++xx) {
              double acc = b.get(o);
              for (int ci = 0; ci < 5; ++ci)
                acc += x.get(((ni * 5 + ci) * 4 + yy / 2) * 3 + xx / 3) *
                       w.get(((ci * oc + o) * 2 + yy % 2) * 3 + xx % 3);
              ref[((ni * oc + o) * 8 + yy) * 9 + xx] = acc;
            }
      SCOPED_TRACE("oc " + std::to_string(oc) + (cl ? " channels-last" : ""));
      expect_near(y, ref, 1e-5);
    }
  }
}

TEST(Ops, Conv2DWideChannels) {
  // Enough channels for oneDNN's blocked kernels (a different code path from the small cases).
  Buf x(DType::f32, {1, 64, 20, 20}), w(DType::f32, {64, 64, 3, 3}), y(DType::f32, {1, 64, 20, 20});
  x.random(-1, 1, 1), w.random(-1, 1, 2);
  run("Conv2D", {&x, &w}, {&y},
      {{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  expect_near(y, conv_ref(x, w, nullptr, 1, 1, 1, 1, 1, 1, 1, 20, 20), 1e-4);
}
}  // namespace

namespace {

ops::TensorDesc const_i64(std::vector<int64_t> dims, std::vector<int64_t> v) {
  auto d = desc(DType::i64, std::move(dims));
  d.value.resize(v.size() * 8);
  std::memcpy(d.value.data(), v.data(), d.value.size());
  return d;
}

TEST(Ops, MoreShapeOps) {
  Buf x(DType::f32, {2, 3});
  for (size_t i = 0; i < 6; ++i) x.set(i, i);
  Buf p(DType::f32, {3, 5});
  run("PadD", {&x}, {&p}, {{"paddings", std::vector<std::vector<int64_t>>{{0, 1}, {2, 0}}}});
  expect_near(p, {0, 0, 0, 1, 2, 0, 0, 3, 4, 5, 0, 0, 0, 0, 0}, 0);
  // PadV3 reflect / edge: x = [[0 1 2] [3 4 5]], one row after, two columns before.
  Buf pads(DType::i64, {4});
  pads.d = const_i64({4}, {0, 1, 2, 0});
  Buf pr(DType::f32, {3, 5}), pe(DType::f32, {3, 5});
  run("PadV3", {&x, &pads}, {&pr}, {{"mode", std::string("reflect")}});
  expect_near(pr, {2, 1, 0, 1, 2, 5, 4, 3, 4, 5, 2, 1, 0, 1, 2}, 0);
  run("PadV3", {&x, &pads}, {&pe}, {{"mode", std::string("edge")}});
  expect_near(pe, {0, 0, 0, 1, 2, 3, 3, 3, 4, 5, 3, 3, 3, 4, 5}, 0);
  // Reflect padding must stay below the dimension's size (3 columns: at most 2).
  Buf too_far(DType::i64, {4});
  too_far.d = const_i64({4}, {0, 0, 3, 0});
  Buf bad(DType::f32, {2, 6});
  EXPECT_THROW(run("PadV3", {&x, &too_far}, {&bad}, {{"mode", std::string("reflect")}}),
               openacl::Error);
  EXPECT_THROW(run("PadV3", {&x, &pads}, {&pr}, {{"mode", std::string("wrap")}}), openacl::Error);
  Buf t(DType::f32, {4, 6});
  run("TileD", {&x}, {&t}, {{"multiples", std::vector<int64_t>{2, 2}}});
  for (size_t i = 0; i < 24; ++i) ASSERT_EQ(t.get(i), ((i / 6) % 2) * 3 + (i % 6) % 3);
  Buf sl(DType::f32, {2, 2});
  run("StridedSliceD", {&x}, {&sl},
      {{"begin", std::vector<int64_t>{0, 2}},
       {"end", std::vector<int64_t>{2, -4}},
       {"strides", std::vector<int64_t>{1, -2}}});
  expect_near(sl, {2, 0, 5, 3}, 0);
  // Reshape with a constant shape input; -1 is inferred.
  Buf r(DType::f32, {3, 2});
  Buf shape(DType::i64, {2});
  shape.d = const_i64({2}, {-1, 2});
  run("Reshape", {&x, &shape}, {&r});
  expect_near(r, {0, 1, 2, 3, 4, 5}, 0);
  Buf u(DType::f32, {2, 1, 3});
  run("Unsqueeze", {&x}, {&u}, {{"axes", std::vector<int64_t>{1}}});
  Buf sq(DType::f32, {2, 3});
  run("Squeeze", {&u}, {&sq});
  expect_near(sq, {0, 1, 2, 3, 4, 5}, 0);
  Buf cd(DType::i64, {});
  cd.d = const_i64({}, {0});
  Buf c(DType::f32, {4, 3});
  run("Concat", {&cd, &x, &x}, {&c}, {{"N", int64_t{2}}});
  expect_near(c, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, 0);
  Buf e(DType::f32, {2, 2, 3});
  Buf es(DType::i64, {3});
  es.d = const_i64({3}, {2, 2, 3});
  run("Expand", {&x, &es}, {&e});
  for (size_t i = 0; i < 12; ++i) ASSERT_EQ(e.get(i), i % 6);
}

// Rows long enough for the eight-lane loops, with a tail (1003, 2003): values far apart (exp
// underflows to 0 for some), a -inf, and a row with a NaN, which makes the whole row NaN (as
// oneDNN's softmax, tried for long rows, does not).
class LongSoftmax : public ::testing::TestWithParam<int64_t> {};

TEST_P(LongSoftmax, AndLogSoftmaxMatchTheDefinition) {
  const int64_t rows = 3, len = GetParam();
  Buf x(DType::f32, {rows, len});
  x.random(-60, 60, 11);
  x.set(5, -INFINITY);
  x.set(2 * len + 7, NAN);
  Buf s(DType::f32, {rows, len}), ls(DType::f32, {rows, len});
  run("SoftmaxV2", {&x}, {&s}, {{"axes", std::vector<int64_t>{-1}}});
  run("LogSoftmaxV2", {&x}, {&ls}, {{"axes", std::vector<int64_t>{-1}}});
  for (int64_t r = 0; r < 2; ++r) {
    double m = -INFINITY, sum = 0;
    for (int64_t k = 0; k < len; ++k) m = std::max(m, x.get(r * len + k));
    for (int64_t k = 0; k < len; ++k) sum += std::exp(x.get(r * len + k) - m);
    for (int64_t k = 0; k < len; ++k) {
      const size_t i = r * len + k;
      const double p = std::exp(x.get(i) - m) / sum;
      ASSERT_NEAR(s.get(i), p, 4e-6 * p + 1e-30) << "row " << r << ", element " << k;
      if (std::isinf(x.get(i))) ASSERT_EQ(ls.get(i), -INFINITY);
      else ASSERT_NEAR(ls.get(i), x.get(i) - m - std::log(sum), 1e-4) << r << ", " << k;
    }
  }
  for (int64_t k = 0; k < len; ++k) {
    ASSERT_TRUE(std::isnan(s.get(2 * len + k))) << k;
    ASSERT_TRUE(std::isnan(ls.get(2 * len + k))) << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, LongSoftmax, ::testing::Values(1003, 2003));

TEST(Ops, SoftmaxOfRowsLongerThanItsVectorLanes) {
  // Rows of the last axis: shorter than, equal to and longer than the vector lanes of the max
  // and sum, with a tail; f32 rows go straight into the output, f16 through a row in f32.
  for (DType t : {DType::f32, DType::f16})
    for (int64_t len : {1, 16, 37, 1000})
      for (const char *op : {"SoftmaxV2", "LogSoftmaxV2"}) {
        Buf x(t, {3, len}), y(t, {3, len});
        x.random(-8, 8, 11);
        run(op, {&x}, {&y}, {{"axes", std::vector<int64_t>{-1}}});
        const bool log = std::string(op) == "LogSoftmaxV2";
        std::vector<double> ref;
        for (int64_t r = 0; r < 3; ++r) {
          double mx = -1e30, sum = 0;
          for (int64_t k = 0; k < len; ++k) mx = std::max(mx, x.get(r * len + k));
          for (int64_t k = 0; k < len; ++k) sum += std::exp(x.get(r * len + k) - mx);
          for (int64_t k = 0; k < len; ++k) {
            const double d = x.get(r * len + k) - mx;
            ref.push_back(log ? d - std::log(sum) : std::exp(d) / sum);
          }
        }
        SCOPED_TRACE(std::string(op) + " " + ops::dtype_name(t) + " len " + std::to_string(len));
        expect_near(y, ref, t == DType::f32 ? 1e-5 : 1e-2);
      }
}

TEST(Ops, SelectFillArgMaxLogSoftmax) {
  Buf c(DType::boolean, {3}), a(DType::f32, {2, 3}), b(DType::f32, {}), y(DType::f32, {2, 3});
  c.set(0, 1), c.set(1, 0), c.set(2, 1);
  for (size_t i = 0; i < 6; ++i) a.set(i, i);
  b.set(0, -1);
  run("Select", {&c, &a, &b}, {&y});
  expect_near(y, {0, -1, 2, 3, -1, 5}, 0);
  Buf v(DType::i32, {}), f(DType::i32, {2, 2});
  v.set(0, 7);
  run("FillD", {&v}, {&f}, {{"dims", std::vector<int64_t>{2, 2}}});
  expect_near(f, {7, 7, 7, 7}, 0);
  Buf am(DType::i64, {2});
  a.set(4, 99);
  run("ArgMaxD", {&a}, {&am}, {{"dimension", int64_t{1}}, {"dtype", DType::i64}});
  expect_near(am, {2, 1}, 0);
  Buf ls(DType::f32, {2, 3});
  run("LogSoftmaxV2", {&a}, {&ls});
  for (int rrow = 0; rrow < 2; ++rrow) {
    double m = -1e30, s = 0;
    for (int k = 0; k < 3; ++k) m = std::max(m, a.get(rrow * 3 + k));
    for (int k = 0; k < 3; ++k) s += std::exp(a.get(rrow * 3 + k) - m);
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(ls.get(rrow * 3 + k), a.get(rrow * 3 + k) - m - std::log(s), 1e-5);
  }
}

TEST(Ops, IntegerFloorDivModAndCastSaturation) {
  Buf a(DType::i32, {4}), b(DType::i32, {4}), q(DType::i32, {4}), m(DType::i32, {4});
  const int av[] = {7, -7, 7, -7}, bv[] = {2, 2, -2, -2};
  for (int i = 0; i < 4; ++i) a.set(i, av[i]), b.set(i, bv[i]);
  run("FloorDiv", {&a, &b}, {&q});
  expect_near(q, {3, -4, -4, 3}, 0);
  run("FloorMod", {&a, &b}, {&m});
  expect_near(m, {1, 1, -1, -1}, 0);
  Buf x(DType::f32, {4}), i8(DType::i8, {4}), bl(DType::boolean, {4});
  x.set(0, 300), x.set(1, -300), x.set(2, NAN), x.set(3, 0.0);
  run("Cast", {&x}, {&i8}, {{"dst_type", DType::i8}});
  expect_near(i8, {127, -128, 0, 0}, 0);
  run("Cast", {&x}, {&bl}, {{"dst_type", DType::boolean}});
  expect_near(bl, {1, 1, 1, 0}, 0);
  Buf z(DType::i32, {4});
  EXPECT_THROW(run("Div", {&a, &z}, {&q}), openacl::Error);
}

TEST(Ops, ResizeTensorFlowForms) {
  Buf x(DType::f32, {1, 1, 2, 2}), y(DType::f32, {1, 1, 3, 3});
  for (size_t i = 0; i < 4; ++i) x.set(i, i);
  Buf size(DType::i64, {2});
  size.d = const_i64({2}, {3, 3});
  run("ResizeBilinearV2", {&x, &size}, {&y}, {{"align_corners", true}});
  expect_near(y, {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3}, 1e-6);
  run("ResizeNearestNeighborV2", {&x, &size}, {&y});
  expect_near(y, {0, 0, 1, 0, 0, 1, 2, 2, 3}, 0);
}

}  // namespace

#include "ops/kernel.h"

namespace {
TEST(Ops, BulkHalfConversionMatchesScalar) {
  // Every half value, through the bulk path (F16C when the CPU has it) and back.
  std::vector<uint16_t> h(65536), back(65536);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint16_t>(i);
  std::vector<float> f(h.size());
  ops::to_f32(DType::f16, h.data(), f.data(), h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    const float ref = ops::half_to_float(h[i]);
    if (std::isnan(ref)) ASSERT_TRUE(std::isnan(f[i])) << i;
    else ASSERT_EQ(f[i], ref) << i;
  }
  ops::from_f32(DType::f16, f.data(), back.data(), f.size());
  for (size_t i = 0; i < h.size(); ++i) {
    if (!std::isnan(f[i])) {
      ASSERT_EQ(back[i], h[i]) << i;
    }
  }
  // Floats between halves round to nearest even, like the scalar conversion.
  std::vector<float> x;
  std::mt19937 g(3);
  std::uniform_real_distribution<float> u(-70000.0f, 70000.0f);
  for (int i = 0; i < 4096; ++i) x.push_back(u(g) / static_cast<float>(1 << (i % 30)));
  std::vector<uint16_t> y(x.size());
  ops::from_f32(DType::f16, x.data(), y.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], ops::float_to_half(x[i])) << x[i];
}
}  // namespace

namespace {
TEST(Ops, FastExpIsAccurate) {
  // Within 2 ulp of the correctly rounded value over the whole finite, normal range.
  for (float x = -87.0f; x < 88.5f; x += 0.0137f) {
    const double ref = std::exp(static_cast<double>(x));
    ASSERT_NEAR(ops::fast_exp(x), ref, 2.5e-7 * ref) << x;
  }
  EXPECT_EQ(ops::fast_exp(0.0f), 1.0f);
  EXPECT_EQ(ops::fast_exp(100.0f), INFINITY);
  EXPECT_EQ(ops::fast_exp(-INFINITY), 0.0f);
  EXPECT_TRUE(std::isnan(ops::fast_exp(NAN)));
}
}  // namespace

namespace {

Buf values_of(DType t, std::vector<int64_t> dims, const std::vector<double> &v) {
  Buf b(t, std::move(dims));
  for (size_t i = 0; i < v.size(); ++i) b.set(i, v[i]);
  return b;
}
std::vector<double> all(const Buf &b) {
  std::vector<double> v(b.n());
  for (size_t i = 0; i < v.size(); ++i) v[i] = b.get(i);
  return v;
}

TEST(IndexOps, CumsumForwardExclusiveReverse) {
  Buf x = values_of(DType::f16, {2, 3}, {1, 2, 3, 4, 5, 6});
  Buf y(DType::f16, {2, 3});
  run("CumsumD", {&x}, {&y}, {{"axis", int64_t{1}}});
  EXPECT_EQ(all(y), (std::vector<double>{1, 3, 6, 4, 9, 15}));
  run("CumsumD", {&x}, {&y}, {{"axis", int64_t{0}}, {"exclusive", true}, {"reverse", true}});
  EXPECT_EQ(all(y), (std::vector<double>{4, 5, 6, 0, 0, 0}));
  Buf axis = values_of(DType::i32, {}, {-1});
  axis.d.value = axis.bytes;
  Buf xi = values_of(DType::i64, {2, 3}, {1, 2, 3, 4, 5, 6}), yi(DType::i64, {2, 3});
  run("Cumsum", {&xi, &axis}, {&yi}, {{"reverse", true}});
  EXPECT_EQ(all(yi), (std::vector<double>{6, 5, 3, 15, 11, 6}));
}

TEST(IndexOps, GatherElementsGatherNdAndScatters) {
  Buf x = values_of(DType::f32, {2, 3}, {10, 11, 12, 20, 21, 22});
  Buf idx = values_of(DType::i64, {2, 2}, {2, 0, -1, 1});
  Buf y(DType::f32, {2, 2});
  run("GatherElements", {&x, &idx}, {&y}, {{"dim", int64_t{1}}});
  EXPECT_EQ(all(y), (std::vector<double>{12, 10, 22, 21}));
  Buf scattered(DType::f32, {2, 3});
  Buf vals = values_of(DType::f32, {2, 2}, {1, 2, 3, 4});
  run("ScatterElements", {&x, &idx, &vals}, {&scattered}, {{"axis", int64_t{1}}});
  EXPECT_EQ(all(scattered), (std::vector<double>{2, 11, 1, 20, 4, 3}));
  Buf twice = values_of(DType::i64, {2, 2}, {1, 1, 0, 0});
  run("ScatterElements", {&x, &twice, &vals}, {&scattered}, {{"reduction", std::string("add")}});
  EXPECT_EQ(all(scattered), (std::vector<double>{10 + 3, 11 + 4, 12, 20 + 1, 21 + 2, 22}));
  Buf nd = values_of(DType::i32, {2, 1}, {1, 0});
  Buf rows(DType::f32, {2, 3});
  run("GatherNd", {&x, &nd}, {&rows});
  EXPECT_EQ(all(rows), (std::vector<double>{20, 21, 22, 10, 11, 12}));
  // Duplicate indices: an update keeps the last, an add sums them all.
  Buf at = values_of(DType::i64, {3, 2}, {0, 1, 1, 2, 0, 1});
  Buf upd = values_of(DType::f32, {3}, {1, 2, 3});
  Buf out(DType::f32, {2, 3});
  run("TensorScatterUpdate", {&x, &at, &upd}, {&out});
  EXPECT_EQ(all(out), (std::vector<double>{10, 3, 12, 20, 21, 2}));
  run("TensorScatterAdd", {&x, &at, &upd}, {&out});
  EXPECT_EQ(all(out), (std::vector<double>{10, 15, 12, 20, 21, 24}));
  // An index out of range fails the run (the stream, through the runtime).
  Buf bad = values_of(DType::i64, {2, 2}, {3, 0, 0, 0});
  try {
    run("GatherElements", {&x, &bad}, {&y}, {{"dim", int64_t{1}}});
    ADD_FAILURE() << "an out-of-range index ran";
  } catch (const openacl::Error &e) {
    EXPECT_EQ(e.code(), openacl::Errc::task_failure);
    EXPECT_NE(std::string(e.what()).find("index 3 is out of range"), std::string::npos) << e.what();
  }
}

TEST(IndexOps, OneHotTopKAndTriangles) {
  Buf ind = values_of(DType::i32, {3}, {0, 2, -1});
  Buf depth = values_of(DType::i64, {}, {3});
  depth.d.value = depth.bytes;
  Buf on = values_of(DType::f32, {}, {5}), off = values_of(DType::f32, {}, {-1});
  Buf oh(DType::f32, {3, 3});
  run("OneHot", {&ind, &depth, &on, &off}, {&oh});
  EXPECT_EQ(all(oh), (std::vector<double>{5, -1, -1, -1, -1, 5, -1, -1, 5}));
  Buf ohT(DType::f32, {3, 3});
  run("OneHot", {&ind, &depth, &on, &off}, {&ohT}, {{"axis", int64_t{0}}});
  EXPECT_EQ(all(ohT), (std::vector<double>{5, -1, -1, -1, -1, -1, -1, 5, 5}));

  Buf x = values_of(DType::f32, {2, 4}, {3, 1, 4, 1, 5, 9, 2, 6});
  Buf k = values_of(DType::i32, {}, {2});
  k.d.value = k.bytes;
  Buf v(DType::f32, {2, 2}), i(DType::i32, {2, 2});
  run("TopKV2", {&x, &k}, {&v, &i});
  EXPECT_EQ(all(v), (std::vector<double>{4, 3, 9, 6}));
  EXPECT_EQ(all(i), (std::vector<double>{2, 0, 1, 3}));
  Buf i64(DType::i64, {2, 2});
  run("TopKV2", {&x, &k}, {&v, &i64}, {{"largest", false}, {"indices_dtype", DType::i64}});
  EXPECT_EQ(all(v), (std::vector<double>{1, 1, 2, 5}));  // ties: the lower index first
  EXPECT_EQ(all(i64), (std::vector<double>{1, 3, 2, 0}));

  Buf m = values_of(DType::i32, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Buf t(DType::i32, {3, 3});
  run("Triu", {&m}, {&t}, {{"diagonal", int64_t{1}}});
  EXPECT_EQ(all(t), (std::vector<double>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  run("Tril", {&m}, {&t}, {{"diagonal", int64_t{-1}}});
  EXPECT_EQ(all(t), (std::vector<double>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
}

TEST(IndexOps, ValidationNamesWhatIsWrong) {
  auto message = [](auto &&f) {
    try {
      f();
    } catch (const openacl::Error &e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const auto f = desc(DType::f32, {2, 3});
  auto k9 = desc(DType::i32, {});
  const int32_t nine = 9;
  k9.value.assign(reinterpret_cast<const uint8_t *>(&nine),
                  reinterpret_cast<const uint8_t *>(&nine) + 4);
  EXPECT_NE(message([&] {
              ops::infer("TopKV2", {f, k9}, {});
            }).find("must be in [0, 3]"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ops::infer("TopKV2", {f, desc(DType::i32, {})}, {});
            }).find("constant scalar"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ops::infer("GatherElements", {f, desc(DType::i64, {2})}, {});
            }).find("rank"),
            std::string::npos);
  EXPECT_NE(message([&] {
              ops::infer("GatherNd", {f, desc(DType::i64, {1, 3})}, {});
            }).find("last dim 3"),
            std::string::npos);
  EXPECT_NE(
      message([&] {
        ops::infer("TensorScatterUpdate", {f, desc(DType::i64, {1, 1}), desc(DType::f32, {2})}, {});
      }).find("need [1,3]"),
      std::string::npos);
  EXPECT_NE(message([&] { ops::infer("Tril", {desc(DType::f32, {4})}, {}); }).find("rank"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(Ops, ResizeSizesFromScalesAsOnnxRuntimeComputesThem) {
  auto scales = desc(DType::f32, {4});
  const float s[4] = {1, 1, 1, 1.8f};
  scales.value.assign(reinterpret_cast<const uint8_t *>(s),
                      reinterpret_cast<const uint8_t *>(s) + sizeof s);
  auto none = desc(DType::undefined, {});
  const auto out = ops::infer("Resize", {desc(DType::f32, {1, 1, 4, 5}), none, scales},
                              {{"mode", std::string("cubic")}});
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 1, 4, 9}));  // 5 * 1.8f is 9 in float arithmetic
}

}  // namespace
