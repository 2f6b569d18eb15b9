// Helpers shared by the op kernels: storage types for f16/bf16, dtype dispatch, splitting
// work over the AI cores, broadcasting and strided copies.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "ops/half.h"
#include "ops/isa.h"
#include "ops/registry.h"

// Hot loops are built twice, for the x86-64 baseline and for AVX2+FMA, and simd() picks the
// build per call from isa() (not an ifunc as target_clones would make: the loader chooses
// those by the CPU alone, and OPENACL_MAX_ISA has to be able to cap them). A hot loop is an
// OPENACL_SIMD_KERNEL function called from an OPENACL_SIMD_LAMBDA passed to simd(): both are
// forced inline, so the loop is compiled into each build.
#define OPENACL_SIMD_KERNEL [[gnu::always_inline]] inline
#define OPENACL_SIMD_LAMBDA [&]() __attribute__((always_inline))
#if defined(__x86_64__) && defined(__GNUC__)
#define OPENACL_AVX2_TARGET __attribute__((target("avx2,fma,f16c")))
#define OPENACL_AVX512_TARGET \
  __attribute__((target("avx512f,avx512vl,avx512bw,avx2,fma,f16c,prefer-vector-width=512")))
#else
#define OPENACL_AVX2_TARGET
#define OPENACL_AVX512_TARGET
#endif

namespace openacl::ops {

template <class F>
OPENACL_AVX2_TARGET void simd_avx2(const F &f) {
  f();
}
template <class F>
void simd_baseline(const F &f) {
  f();
}
template <class F>
inline void simd(const F &f) {
  if (use_avx2()) simd_avx2(f);
  else simd_baseline(f);
}
template <class F>
OPENACL_AVX512_TARGET void simd_avx512(const F &f) {
  f();
}
// simd() with a third, AVX-512 build: for the loops of ggml's small elementwise nodes, where 16
// lanes take 15-25% off a 4096-float add that stays in L1 (Zen 5). Each build is compiled code,
// so only the binary ops use it.
template <class F>
inline void simd_wide(const F &f) {
  if (use_avx512()) simd_avx512(f);
  else simd(f);
}

struct half_t {
  uint16_t bits;
  half_t() = default;
  explicit half_t(float f) : bits(float_to_half(f)) {}
  operator float() const { return half_to_float(bits); }
};
struct bf16_t {
  uint16_t bits;
  bf16_t() = default;
  explicit bf16_t(float f) : bits(float_to_bf16(f)) {}
  operator float() const { return bf16_to_float(bits); }
};

// The type arithmetic happens in: float for the 16-bit floats, the type itself otherwise.
template <class T>
struct Compute {
  using type = T;
};
template <>
struct Compute<half_t> {
  using type = float;
};
template <>
struct Compute<bf16_t> {
  using type = float;
};
template <class T>
using compute_t = typename Compute<T>::type;

// e^x in float without a libm call, so that loops over it vectorise: Cephes' range reduction
// and polynomial (about 1 ulp). Results below 2^-126 flush to 0; NaN stays NaN.
inline float fast_exp(float x) {
  const float xc = std::min(std::max(x, -87.33654f), 88.72283f);
  const float k = (xc * 1.44269504f + 12582912.0f) - 12582912.0f;  // round to nearest integer
  const float r = xc - k * 0.693359375f + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  // 2^k in two halves: k spans [-126, 128], each half stays a normal float.
  const auto ki = static_cast<int32_t>(k);
  const int32_t h = ki >> 1;
  const float e = (p * r * r + r + 1.0f) * std::bit_cast<float>((h + 127) << 23) *
                  std::bit_cast<float>((ki - h + 127) << 23);
  const float big = x > 88.72283f ? __builtin_inff() : e;
  const float out = x < -87.33654f ? 0.0f : big;
  return x != x ? x : out;
}

// Eight floats as one value: a ymm register in the AVX2 build of a hot loop, two xmm in the
// baseline one. For loops that GCC does not vectorise by itself (reductions, selects). Passed
// by reference: as a by-value argument or result its ABI would differ between the builds.
using f32x8 = float __attribute__((vector_size(32)));
using i32x8 = int32_t __attribute__((vector_size(32)));

// fast_exp of eight floats in place, the same steps lane by lane (so the same results).
OPENACL_SIMD_KERNEL void fast_exp8(f32x8 &x) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const f32x8 lo = f32x8{} - 87.33654f, hi = f32x8{} + 88.72283f;
  const f32x8 xc = x < lo ? lo : (x > hi ? hi : x);
  const f32x8 big = xc * 1.44269504f + kRound, k = big - kRound;
  const f32x8 r = xc - k * 0.693359375f + k * 2.12194440e-4f;
  f32x8 p = f32x8{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  // k as an integer: big's low mantissa bits, as big is kRound + k.
  const i32x8 ki = __builtin_bit_cast(i32x8, big) - std::bit_cast<int32_t>(kRound);
  const i32x8 h = ki >> 1;
  const f32x8 e = (p * r * r + r + 1.0f) * __builtin_bit_cast(f32x8, (h + 127) << 23) *
                  __builtin_bit_cast(f32x8, (ki - h + 127) << 23);
  const f32x8 inf = f32x8{} + __builtin_inff();
  const f32x8 out = x < lo ? f32x8{} : (x > hi ? inf : e);
  x = x != x ? x : out;
}

// Calls f(T{}) with the C++ type of t; returns false for dtypes without one.
template <class F>
bool visit_dtype(DType t, F &&f) {
  switch (t) {
    case DType::f32:
      f(float{});
      return true;
    case DType::f16:
      f(half_t{});
      return true;
    case DType::bf16:
      f(bf16_t{});
      return true;
    case DType::f64:
      f(double{});
      return true;
    case DType::i8:
      f(int8_t{});
      return true;
    case DType::i16:
      f(int16_t{});
      return true;
    case DType::i32:
      f(int32_t{});
      return true;
    case DType::i64:
      f(int64_t{});
      return true;
    case DType::u8:
      f(uint8_t{});
      return true;
    case DType::u16:
      f(uint16_t{});
      return true;
    case DType::u32:
      f(uint32_t{});
      return true;
    case DType::u64:
      f(uint64_t{});
      return true;
    case DType::boolean:
      f(bool{});
      return true;
    default:
      return false;
  }
}

// Runs f(begin, end) over [0, n) in chunks of at least `grain` items, on the AI cores when
// there is more than one chunk. A template, not a std::function: one chunk runs f directly,
// and a std::function of a lambda with more than two captures allocates (ggml's small ops).
template <class F>
void parallel_range(backend::AiCores &cores, size_t n, size_t grain, const F &f) {
  if (n == 0) return;
  const size_t workers = std::max<size_t>(1, cores.count());
  // One chunk per core: chunk i of every op covers the same span of a tensor, and the pool
  // gives index 0 to the calling worker, so consecutive ops reuse the core's cache.
  size_t chunks = std::min(workers, (n + grain - 1) / std::max<size_t>(grain, 1));
  if (chunks <= 1) {
    f(0, n);
    return;
  }
  const size_t step = (n + chunks - 1) / chunks;
  chunks = (n + step - 1) / step;
  cores.parallel_for(chunks, [&](size_t c) { f(c * step, std::min(n, (c + 1) * step)); });
}

// numpy broadcast of two shapes; nullopt-like failure reported by the caller.
bool broadcast_shapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                      std::vector<int64_t> &out);

// Element strides of `in` seen as broadcast to `out` (0 on broadcast dims); in is
// right-aligned to out.
std::vector<int64_t> broadcast_strides(const std::vector<int64_t> &in,
                                       const std::vector<int64_t> &out);
std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &dims);

// Copies an N-d view: dst[idx] = src[idx] for idx over dims, with element strides for each
// side. Merges dims, copies contiguous rows with memcpy, splits rows over the AI cores.
void strided_copy(backend::AiCores &cores, std::vector<int64_t> dims, char *dst,
                  std::vector<int64_t> dst_strides, const char *src,
                  std::vector<int64_t> src_strides, size_t elem);

// A PreparedOp from a lambda; most ops need nothing more.
template <class F>
class LambdaOp final : public PreparedOp {
 public:
  explicit LambdaOp(F f) : f_(std::move(f)) {}
  void run(const std::vector<Tensor> &in, const std::vector<Tensor> &out,
           backend::AiCores &cores) const override {
    f_(in, out, cores);
  }

 private:
  F f_;
};
template <class F>
std::unique_ptr<PreparedOp> make_op(F f) {
  return std::make_unique<LambdaOp<F>>(std::move(f));
}

inline int64_t product(const std::vector<int64_t> &d, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, d.size()); ++i) p *= d[i];
  return p;
}

// Converts n elements of dtype t to float / from float (for f16/bf16 routes through f32 kernels).
void to_f32(DType t, const void *src, float *dst, size_t n);
void from_f32(DType t, const float *src, void *dst, size_t n);

}  // namespace openacl::ops
