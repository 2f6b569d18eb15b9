// Shared kernel helpers: broadcasting, strided copies, f16/bf16 conversion loops.
#include "ops/kernel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace openacl::ops {

bool broadcast_shapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                      std::vector<int64_t> &out) {
  const size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

std::vector<int64_t> broadcast_strides(const std::vector<int64_t> &in,
                                       const std::vector<int64_t> &out) {
  std::vector<int64_t> s(out.size(), 0);
  const auto cs = contiguous_strides(in);
  const size_t off = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) s[off + i] = in[i] == 1 ? 0 : cs[i];
  return s;
}

void strided_copy(backend::AiCores &cores, std::vector<int64_t> dims, char *dst,
                  std::vector<int64_t> ds, const char *src, std::vector<int64_t> ss, size_t elem) {
  for (int64_t d : dims)
    if (d == 0) return;
  // Drop size-1 dims, then merge neighbours that are contiguous on both sides.
  std::vector<int64_t> md, mds, mss;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (!md.empty() && mds.back() == ds[i] * dims[i] && mss.back() == ss[i] * dims[i]) {
      md.back() *= dims[i];
      mds.back() = ds[i];
      mss.back() = ss[i];
    } else {
      md.push_back(dims[i]);
      mds.push_back(ds[i]);
      mss.push_back(ss[i]);
    }
  }
  if (md.empty()) {
    std::memcpy(dst, src, elem);
    return;
  }
  const size_t r = md.size();
  const int64_t inner = md[r - 1];
  const bool rows_contig = mds[r - 1] == 1 && mss[r - 1] == 1;
  const int64_t rows = product(md, 0, r - 1);
  const size_t grain = std::max<size_t>(1, (64 * 1024) / (static_cast<size_t>(inner) * elem + 1));
  parallel_range(cores, static_cast<size_t>(rows), grain, [&](size_t begin, size_t end) {
    std::vector<int64_t> idx(r - 1, 0);
    // position of row `begin`
    int64_t rem = static_cast<int64_t>(begin);
    for (size_t k = r - 1; k-- > 0;) {
      idx[k] = rem % md[k];
      rem /= md[k];
    }
    for (size_t row = begin; row < end; ++row) {
      int64_t doff = 0, soff = 0;
      for (size_t k = 0; k + 1 < r; ++k) {
        doff += idx[k] * mds[k];
        soff += idx[k] * mss[k];
      }
      char *d = dst + doff * static_cast<int64_t>(elem);
      const char *s = src + soff * static_cast<int64_t>(elem);
      if (rows_contig) {
        std::memcpy(d, s, static_cast<size_t>(inner) * elem);
      } else {
        const int64_t dsi = mds[r - 1] * static_cast<int64_t>(elem),
                      ssi = mss[r - 1] * static_cast<int64_t>(elem);
        switch (elem) {
          case 1:
            for (int64_t i = 0; i < inner; ++i) d[i * dsi] = s[i * ssi];
            break;
          case 2:
            for (int64_t i = 0; i < inner; ++i) std::memcpy(d + i * dsi, s + i * ssi, 2);
            break;
          case 4:
            for (int64_t i = 0; i < inner; ++i) std::memcpy(d + i * dsi, s + i * ssi, 4);
            break;
          case 8:
            for (int64_t i = 0; i < inner; ++i) std::memcpy(d + i * dsi, s + i * ssi, 8);
            break;
          default:
            for (int64_t i = 0; i < inner; ++i) std::memcpy(d + i * dsi, s + i * ssi, elem);
        }
      }
      for (size_t k = r - 1; k-- > 0;) {
        if (++idx[k] < md[k]) break;
        idx[k] = 0;
      }
    }
  });
}

#if defined(__x86_64__)
// F16C converts 8 values per instruction (round to nearest even, like float_to_half).
__attribute__((target("avx,f16c"))) static void half_to_f32_f16c(const uint16_t *s, float *d,
                                                                 size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(d + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i))));
  for (; i < n; ++i) d[i] = half_to_float(s[i]);
}

__attribute__((target("avx,f16c"))) static void f32_to_half_f16c(const float *s, uint16_t *d,
                                                                 size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  for (; i < n; ++i) d[i] = float_to_half(s[i]);
}
#endif

void to_f32(DType t, const void *src, float *dst, size_t n) {
  const auto *s = static_cast<const uint16_t *>(src);
  if (t == DType::f32) {
    std::memcpy(dst, src, n * 4);
  } else if (t == DType::f16) {
#if defined(__x86_64__)
    if (use_avx2()) return half_to_f32_f16c(s, dst, n);
#endif
    for (size_t i = 0; i < n; ++i) dst[i] = half_to_float(s[i]);
  } else if (t == DType::bf16) {
    for (size_t i = 0; i < n; ++i) dst[i] = bf16_to_float(s[i]);
  }
}

void from_f32(DType t, const float *src, void *dst, size_t n) {
  auto *d = static_cast<uint16_t *>(dst);
  if (t == DType::f32) {
    std::memcpy(dst, src, n * 4);
  } else if (t == DType::f16) {
#if defined(__x86_64__)
    if (use_avx2()) return f32_to_half_f16c(src, d, n);
#endif
    for (size_t i = 0; i < n; ++i) d[i] = float_to_half(src[i]);
  } else if (t == DType::bf16) {
    for (size_t i = 0; i < n; ++i) d[i] = float_to_bf16(src[i]);
  }
}

}  // namespace openacl::ops
