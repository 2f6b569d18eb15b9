// Work is split over (batch, key/value head, block of query rows): a block takes the rows of
// every query head that shares the key/value head, so each key and value row is converted once
// per block and used by all of its query rows while it is in L1.
#include "nn/attention_kernel.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "nn/objects.h"
#include "ops/kernel.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace openacl::nn {

namespace {

constexpr int64_t kBlockRows = 16;

#if defined(__x86_64__)
// The float16 key / value rows of a cache, converted 8 at a time inside the loops (F16C): a
// row is never stored as floats, and no call is made per row. d is a multiple of 8.
#define OPENACL_F16_TARGET __attribute__((target("avx2,fma,f16c")))

OPENACL_F16_TARGET inline __m256 load8_f16(const uint16_t *p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}

// scores[r * ld + j] = scale * q_r . k_j for n query rows and `rows` key rows `stride` apart.
OPENACL_F16_TARGET void scores_f16(const uint16_t *k, int64_t stride, int64_t rows, const float *q,
                                   int64_t n, int64_t d, float scale, float *scores, int64_t ld) {
  for (int64_t j = 0; j < rows; ++j) {
    const uint16_t *kr = k + j * stride;
    for (int64_t r = 0; r < n; ++r) {
      const float *qr = q + r * d;
      __m256 acc = _mm256_setzero_ps();
      for (int64_t c = 0; c < d; c += 8)
        acc = _mm256_fmadd_ps(_mm256_loadu_ps(qr + c), load8_f16(kr + c), acc);
      __m128 h = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
      h = _mm_hadd_ps(h, h);
      h = _mm_hadd_ps(h, h);
      scores[r * ld + j] = _mm_cvtss_f32(h) * scale;
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
    // Per worker thread, grown once: no allocation per call.
    thread_local std::vector<float> scratch;
    // row holds a key or value row, or a row of pse.
    scratch.resize(static_cast<size_t>(n * (2 * d + skv + 1) + std::max(d, skv)));
    float *qs = scratch.data(), *acc = qs + n * d, *sums = acc + n * d, *scores = sums + n,
          *row = scores + n * skv;
    auto at = [](const StridedTensor &t, int64_t i0, int64_t i1, int64_t i2) {
      const auto &st = t.value->strides;
      return i0 * st[0] + i1 * st[1] + i2 * st[2];
    };
    auto head = [&](int64_t r) { return kh * group + (first + r) / s_.q_len; };
    auto pos = [&](int64_t r) { return (first + r) % s_.q_len; };
    for (int64_t r = 0; r < n; ++r)
      load(q, at(q, b, head(r), pos(r)), d, q.value->strides[3], qs + r * d);
      // Scores, one key row at a time.
#if defined(__x86_64__)
    if (f16_rows(k, d)) {
      scores_f16(reinterpret_cast<const uint16_t *>(k.data) + at(k, b, kh, 0), k.value->strides[2],
                 skv, qs, n, d, s_.scale, scores, skv);
    } else
#endif
      for (int64_t j = 0; j < skv; ++j) {
        load(k, at(k, b, kh, j), d, k.value->strides[3], row);
        ops::simd(OPENACL_SIMD_LAMBDA {
          for (int64_t r = 0; r < n; ++r) scores[r * skv + j] = dot(qs + r * d, row, d) * s_.scale;
        });
      }
    for (int64_t r = 0; r < n; ++r) {
      float *sr = scores + r * skv;
      if (pse) {
        load(*pse, at(*pse, b, head(r), pos(r)), skv, pse->value->strides[3], row);
        for (int64_t j = 0; j < skv; ++j) sr[j] += row[j];
      }
      if (mask) {
        const uint8_t *m = mask->data + at(*mask, b, head(r), pos(r));
        const int64_t ms = mask->value->strides[3];
        for (int64_t j = 0; j < skv; ++j)
          if (m[j * ms] != 0) sr[j] = -std::numeric_limits<float>::infinity();
      }
      ops::simd(OPENACL_SIMD_LAMBDA { sums[r] = exp_row(sr, skv); });
    }
    // The weighted sum of value rows, normalized at the end.
    std::fill(acc, acc + n * d, 0.0f);
#if defined(__x86_64__)
    if (f16_rows(v, d)) {
      weigh_f16(reinterpret_cast<const uint16_t *>(v.data) + at(v, b, kh, 0), v.value->strides[2],
                skv, scores, skv, n, d, acc);
    } else
#endif
      for (int64_t j = 0; j < skv; ++j) {
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
