#include "backend/sim/copy_kernel.h"

#include <cstdint>
#include <cstring>

#include "core/cpu_isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace openacl::sim {
namespace {

constexpr size_t kLoopMin = 256;
// Past this the two sides no longer fit in the L1 cache and glibc's copy is the faster one.
constexpr size_t kLoopMax = 16u << 10;

using CopyLoop = void (*)(char *, const char *, size_t);

#if defined(__x86_64__)
// Four vectors a step, then the last four vectors of the range (overlapping the step before):
// n >= kLoopMin, so there are always four. Each step loads all four before it stores.
[[gnu::target("avx512f")]] inline void copy256_avx512(char *d, const char *s) {
  const __m512i a = _mm512_loadu_si512(s), b = _mm512_loadu_si512(s + 64),
                c = _mm512_loadu_si512(s + 128), e = _mm512_loadu_si512(s + 192);
  _mm512_storeu_si512(d, a);
  _mm512_storeu_si512(d + 64, b);
  _mm512_storeu_si512(d + 128, c);
  _mm512_storeu_si512(d + 192, e);
}

[[gnu::target("avx512f")]] void copy_avx512(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i + 256 <= n; i += 256) copy256_avx512(d + i, s + i);
  if (i != n) copy256_avx512(d + n - 256, s + n - 256);
}

[[gnu::target("avx2")]] inline void copy128_avx2(char *d, const char *s) {
  const auto *in = reinterpret_cast<const __m256i *>(s);
  auto *out = reinterpret_cast<__m256i *>(d);
  const __m256i a = _mm256_loadu_si256(in), b = _mm256_loadu_si256(in + 1),
                c = _mm256_loadu_si256(in + 2), e = _mm256_loadu_si256(in + 3);
  _mm256_storeu_si256(out, a);
  _mm256_storeu_si256(out + 1, b);
  _mm256_storeu_si256(out + 2, c);
  _mm256_storeu_si256(out + 3, e);
}

[[gnu::target("avx2")]] void copy_avx2(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i + 128 <= n; i += 128) copy128_avx2(d + i, s + i);
  if (i != n) copy128_avx2(d + n - 128, s + n - 128);
}
#endif

CopyLoop choose() {
#if defined(__x86_64__)
  switch (cpu_isa()) {
    case CpuIsa::avx512:
      return copy_avx512;
    case CpuIsa::avx2:
      return copy_avx2;
    default:
      break;
  }
#endif
  return nullptr;
}

}  // namespace

void copy_bytes(void *dst, const void *src, size_t n) {
  static const CopyLoop loop = choose();
  auto d = static_cast<char *>(dst);
  auto s = static_cast<const char *>(src);
  const auto da = reinterpret_cast<uintptr_t>(d), sa = reinterpret_cast<uintptr_t>(s);
  const bool apart = da + n <= sa || sa + n <= da;
  if (loop != nullptr && n >= kLoopMin && n <= kLoopMax && apart) return loop(d, s, n);
  if (n != 0 && d != s) std::memmove(d, s, n);
}

}  // namespace openacl::sim
