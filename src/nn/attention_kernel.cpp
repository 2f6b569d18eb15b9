// Work is split over (batch, key/value head, block of query rows): a block takes the rows of
// every query head that shares the key/value head, so each key and value row is converted once
// per block and used by all of its query rows while it is in L1.
#include "nn/attention_kernel.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "nn/attention_avx512.h"
#include "nn/objects.h"
#include "nn/rows.h"
#include "ops/kernel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace openacl::nn {

namespace {

constexpr int64_t kBlockRows = 16;
static_assert(kBlockRows <= kAvx512QueryRows);

#if defined(__x86_64__)
// The float16 key / value rows of a cache, converted 8 at a time inside the loops (F16C): a
// row is never stored as floats, and no call is made per row. d is a multiple of 8.
#define OPENACL_F16_TARGET __attribute__((target("avx2,fma,f16c")))

OPENACL_F16_TARGET inline __m256 load8_f16(const uint16_t *p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}

// Four horizontal sums at once: {sum(a), sum(b), sum(c), sum(d)}.
OPENACL_F16_TARGET inline __m128 hsum4(__m256 a, __m256 b, __m256 c, __m256 d) {
  const __m256 s = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
  return _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
}

// scores[r * ld + j] += scale * q_r . k_j for n query rows and `rows` key rows `stride` apart.
// Four query rows share each converted piece of a key row, and their sums are reduced together.
OPENACL_F16_TARGET void scores_f16(const uint16_t *k, int64_t stride, int64_t rows, const float *q,
                                   int64_t n, int64_t d, float scale, float *scores, int64_t ld) {
  for (int64_t j = 0; j < rows; ++j) {
    const uint16_t *kr = k + j * stride;
    int64_t r = 0;
    for (; r + 4 <= n; r += 4) {
      const float *q0 = q + r * d;
      __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
      for (int64_t c = 0; c < d; c += 8) {
        const __m256 kv = load8_f16(kr + c);
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(q0 + c), kv, a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(q0 + d + c), kv, a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(q0 + 2 * d + c), kv, a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(q0 + 3 * d + c), kv, a3);
      }
      alignas(16) float sums[4];
      _mm_store_ps(sums, _mm_mul_ps(hsum4(a0, a1, a2, a3), _mm_set1_ps(scale)));
      for (int i = 0; i < 4; ++i) scores[(r + i) * ld + j] += sums[i];
    }
    for (; r < n; ++r) {
      const float *qr = q + r * d;
      __m256 acc = _mm256_setzero_ps();
      for (int64_t c = 0; c < d; c += 8)
        acc = _mm256_fmadd_ps(_mm256_loadu_ps(qr + c), load8_f16(kr + c), acc);
      const __m256 z = _mm256_setzero_ps();
      scores[r * ld + j] += _mm_cvtss_f32(hsum4(acc, z, z, z)) * scale;
    }
  }
}

// acc_r += weights[r * ld + j] * v_j over the value rows.
OPENACL_F16_TARGET void weigh_f16(const uint16_t *v, int64_t stride, int64_t rows,
                                  const float *weights, int64_t ld, int64_t n, int64_t d,
                                  float *acc) {
  for (int64_t j = 0; j < rows; ++j) {
    const uint16_t *vr = v + j * stride;
    for (int64_t r = 0; r < n; ++r) {
      const __m256 w = _mm256_set1_ps(weights[r * ld + j]);
      float *ar = acc + r * d;
      for (int64_t c = 0; c < d; c += 8)
        _mm256_storeu_ps(ar + c, _mm256_fmadd_ps(w, load8_f16(vr + c), _mm256_loadu_ps(ar + c)));
    }
  }
}

// Whether key / value rows take the F16C loops above.
bool f16_rows(const StridedTensor &t, int64_t d) {
  return t.value->desc.dtype == ops::DType::f16 && t.value->strides[3] == 1 && d % 8 == 0 &&
         ops::use_avx2();
}
#endif

OPENACL_SIMD_KERNEL float dot(const float *a, const float *b, int64_t n) {
  constexpr int L = 8;
  float s[L] = {};
  int64_t k = 0;
  for (; k + L <= n; k += L)
    for (int j = 0; j < L; ++j) s[j] += a[k + j] * b[k + j];
  float sum = 0;
  for (int j = 0; j < L; ++j) sum += s[j];
  for (; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

OPENACL_SIMD_KERNEL void axpy(float a, const float *x, float *y, int64_t n) {
  for (int64_t k = 0; k < n; ++k) y[k] += a * x[k];
}

// exp(v - max) in place; returns the sum. A row with every score -inf gives NaN, as a softmax
// of it does.
OPENACL_SIMD_KERNEL float exp_row(float *v, int64_t n) {
  float mx = -std::numeric_limits<float>::infinity();
  for (int64_t k = 0; k < n; ++k) mx = std::max(mx, v[k]);
  float sum = 0;
  for (int64_t k = 0; k < n; ++k) {
    v[k] = ops::fast_exp(v[k] - mx);
    sum += v[k];
  }
  return sum;
}

// n elements of a view from element `at` on, `stride` apart, as floats.
void load(const StridedTensor &t, int64_t at, int64_t n, int64_t stride, float *dst) {
  const ops::DType dt = t.value->desc.dtype;
  const auto es = static_cast<int64_t>(element_size(dt));
  const uint8_t *p = t.data + at * es;
  if (stride == 1) return ops::to_f32(dt, p, dst, static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) ops::to_f32(dt, p + k * stride * es, dst + k, 1);
}

void store(const StridedTensor &t, int64_t at, int64_t n, int64_t stride, const float *src) {
  const ops::DType dt = t.value->desc.dtype;
  const auto es = static_cast<int64_t>(element_size(dt));
  uint8_t *p = t.data + at * es;
  if (stride == 1) return ops::from_f32(dt, src, p, static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) ops::from_f32(dt, src + k, p + k * stride * es, 1);
}

class Attention final : public StridedKernel {
 public:
  explicit Attention(const AttentionShape &s) : s_(s) {}

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    const int64_t rows = (s_.heads / s_.kv_heads) * s_.q_len;  // query rows per kv head
    const int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
    const auto tasks = static_cast<size_t>(s_.batch * s_.kv_heads * blocks);
    if (tasks == 0 || s_.head_dim == 0) return;
    ops::parallel_range(cores, tasks, 1, [&](size_t lo, size_t hi) {
      for (size_t t = lo; t < hi; ++t) {
        const auto task = static_cast<int64_t>(t);
        const int64_t block = task % blocks, bk = task / blocks;
        const int64_t first = block * kBlockRows;
        block_rows(in, out[0], bk / s_.kv_heads, bk % s_.kv_heads, first,
                   std::min(rows, first + kBlockRows) - first);
      }
    });
  }

 private:
  // Query rows [first, first + n) of kv head kh of batch b: row r is query head
  // kh * group + r / S, position r % S.
  void block_rows(const std::vector<StridedTensor> &in, const StridedTensor &o, int64_t b,
                  int64_t kh, int64_t first, int64_t n) const {
    const int64_t d = s_.head_dim, skv = s_.kv_len, group = s_.heads / s_.kv_heads;
    const StridedTensor &q = in[0], &k = in[1], &v = in[2];
    const StridedTensor *pse = s_.pse ? &in[3] : nullptr;
    const StridedTensor *mask = s_.mask ? &in[s_.pse ? 4 : 3] : nullptr;
    // row holds a key or value row; the AVX-512 block takes all key and value rows in f32
    // (kf, vf) and its own scratch after them. It computes all 16 rows of its vectors whatever
    // n is: token generation's one row a head ran 1.5x slower there (llama-bench tg, 134 M
    // llama, median 28 against 19 us a call).
    const bool wide = n >= 4 && attention_avx512(d);
    const auto base = static_cast<size_t>(n * (2 * d + skv + 1) + d);
    float *qs = kernel_scratch(base + (wide ? 2 * skv * d + attention_avx512_scratch(skv, d) : 0)),
          *acc = qs + n * d, *sums = acc + n * d, *scores = sums + n, *row = scores + n * skv;
    auto at = [](const StridedTensor &t, int64_t i0, int64_t i1, int64_t i2) {
      const auto &st = t.value->strides;
      return i0 * st[0] + i1 * st[1] + i2 * st[2];
    };
    auto head = [&](int64_t r) { return kh * group + (first + r) / s_.q_len; };
    auto pos = [&](int64_t r) { return (first + r) % s_.q_len; };
    for (int64_t r = 0; r < n; ++r)
      load(q, at(q, b, head(r), pos(r)), d, q.value->strides[3], qs + r * d);
    // pse and mask first: keys that every row of the block masks (-inf) before the first and
    // after the last one any row sees are skipped below. ggml's causal mask hides about half of
    // the keys of a prompt, and its key/value cache is padded to 256 positions with -inf.
    constexpr float kMasked = -std::numeric_limits<float>::infinity();
    constexpr int64_t kRun = 16;
    float masked_run[kRun];
    std::fill(masked_run, masked_run + kRun, kMasked);
    int64_t lo = skv, hi = 0;
    for (int64_t r = 0; r < n; ++r) {
      float *sr = scores + r * skv;
      if (pse) load(*pse, at(*pse, b, head(r), pos(r)), skv, pse->value->strides[3], sr);
      else std::fill(sr, sr + skv, 0.0f);
      if (mask) {
        const uint8_t *m = mask->data + at(*mask, b, head(r), pos(r));
        const int64_t ms = mask->value->strides[3];
        for (int64_t j = 0; j < skv; ++j)
          if (m[j * ms] != 0) sr[j] = kMasked;
      }
      // Each row only past the keys the rows before already see, and 16 masked keys at a
      // time (a causal mask ends most rows in a hundred or more): key by key, this search took
      // a third of the attention of a 128-token prompt.
      int64_t j0 = 0, j1 = skv;
      const int64_t stop0 = std::min(j1, lo);
      while (j0 + kRun <= stop0 && std::memcmp(sr + j0, masked_run, sizeof masked_run) == 0)
        j0 += kRun;
      while (j0 < stop0 && sr[j0] == kMasked) ++j0;
      const int64_t stop1 = std::max(j0, hi);
      while (j1 - kRun >= stop1 && std::memcmp(sr + j1 - kRun, masked_run, sizeof masked_run) == 0)
        j1 -= kRun;
      while (j1 > stop1 && sr[j1 - 1] == kMasked) --j1;
      if (j0 < j1) lo = std::min(lo, j0), hi = std::max(hi, j1);
    }
    // Every key masked for every row: the whole softmax, whose NaN a card gives too.
    if (lo >= hi) lo = 0, hi = skv;
    const int64_t seen = hi - lo;
#if defined(__x86_64__)
    if (wide) {
      float *kf = qs + base, *vf = kf + seen * d;
      for (int64_t j = lo; j < hi; ++j) {
        load(k, at(k, b, kh, j), d, k.value->strides[3], kf + (j - lo) * d);
        load(v, at(v, b, kh, j), d, v.value->strides[3], vf + (j - lo) * d);
      }
      attention_block_avx512(qs, n, scores + lo, skv, kf, vf, seen, d, s_.scale, acc,
                             vf + seen * d);
      for (int64_t r = 0; r < n; ++r)
        store(o, at(o, b, head(r), pos(r)), d, o.value->strides[3], acc + r * d);
      return;
    }
#endif
    // Scores, one key row at a time, added to pse.
#if defined(__x86_64__)
    if (f16_rows(k, d)) {
      scores_f16(reinterpret_cast<const uint16_t *>(k.data) + at(k, b, kh, lo), k.value->strides[2],
                 seen, qs, n, d, s_.scale, scores + lo, skv);
    } else
#endif
      for (int64_t j = lo; j < hi; ++j) {
        load(k, at(k, b, kh, j), d, k.value->strides[3], row);
        ops::simd(OPENACL_SIMD_LAMBDA {
          for (int64_t r = 0; r < n; ++r) scores[r * skv + j] += dot(qs + r * d, row, d) * s_.scale;
        });
      }
    for (int64_t r = 0; r < n; ++r)
      ops::simd(OPENACL_SIMD_LAMBDA { sums[r] = exp_row(scores + r * skv + lo, seen); });
    // The weighted sum of value rows, normalized at the end.
    std::fill(acc, acc + n * d, 0.0f);
#if defined(__x86_64__)
    if (f16_rows(v, d)) {
      weigh_f16(reinterpret_cast<const uint16_t *>(v.data) + at(v, b, kh, lo), v.value->strides[2],
                seen, scores + lo, skv, n, d, acc);
    } else
#endif
      for (int64_t j = lo; j < hi; ++j) {
        load(v, at(v, b, kh, j), d, v.value->strides[3], row);
        ops::simd(OPENACL_SIMD_LAMBDA {
          for (int64_t r = 0; r < n; ++r) axpy(scores[r * skv + j], row, acc + r * d, d);
        });
      }
    for (int64_t r = 0; r < n; ++r) {
      // No key at all: a softmax over nothing weighs nothing, the result is 0.
      const float inv = skv == 0 ? 0.0f : 1.0f / sums[r];
      for (int64_t c = 0; c < d; ++c) acc[r * d + c] *= inv;
      store(o, at(o, b, head(r), pos(r)), d, o.value->strides[3], acc + r * d);
    }
  }

  AttentionShape s_;
};

}  // namespace

std::shared_ptr<const StridedKernel> attention_kernel(const AttentionShape &shape) {
  return std::make_shared<Attention>(shape);
}

}  // namespace openacl::nn
