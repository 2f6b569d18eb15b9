#include "dvpp/resize_simd.h"

#include <algorithm>
#include <cstring>

#include "ops/isa.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define OPENACL_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define OPENACL_AVX2_TARGET __attribute__((target("avx2")))
#endif

namespace openacl::dvpp {

PackedColumns::PackedColumns(const uint32_t *offset, const int32_t *w1, uint32_t dw, int channels,
                             bool swap, size_t span) {
#if defined(OPENACL_AVX512_TARGET)
  static const bool avx512 = ops::use_avx512() && __builtin_cpu_supports("avx512vbmi");
  const bool wide = avx512, narrow = !avx512 && ops::use_avx2();
#else
  const bool wide = false, narrow = false;
#endif
  const size_t window = wide ? 128 : 16;  // what one vpermt2b / one lane's vpshufb picks from
  if (!(wide || narrow) || span < window) return;
  const uint32_t lanes = wide ? 1 : 2, per_lane = wide ? 16 : 4;     // dwords
  const uint32_t c = static_cast<uint32_t>(channels), pair = 2 * c;  // bytes of two pixels
  wide_ = wide;
  values_ = dw * c;
  for (uint32_t x = 0; x < dw;) {
    Block b{};
    std::memset(b.index, 0x80, sizeof b.index);
    b.first = x * c;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      const uint32_t s = static_cast<uint32_t>(std::min<size_t>(offset[x], span - window));
      b.window[lane] = s;
      uint32_t n = 0;  // pixels in the lane
      while (x + n < dw && (n + 1) * c <= per_lane && offset[x + n] + pair <= s + window) {
        const uint32_t at = offset[x + n] - s;
        for (uint32_t k = 0; k < c; ++k) {
          const uint32_t slot = lane * per_lane + n * c + k, from = swap ? k ^ 1 : k;
          b.index[4 * slot] = static_cast<uint8_t>(at + from);
          b.index[4 * slot + 2] = static_cast<uint8_t>(at + c + from);
          b.weight[2 * slot] = static_cast<int16_t>((1 << kWeightBits) - w1[x + n]);
          b.weight[2 * slot + 1] = static_cast<int16_t>(w1[x + n]);
        }
        ++n;
      }
      b.count[lane] = n * c;
      x += n;
      if (x == dw) break;  // a lane left empty reads the row's first bytes and gives nothing
    }
    blocks_.push_back(b);
  }
}

#if defined(OPENACL_AVX512_TARGET)
namespace {

constexpr __mmask16 kAll = 0xffff;

// A block's values from one row: its pairs picked into the even bytes (the odd ones zeroed,
// so each pair reads as two 16-bit words), then left * w0 + right * w1 per value.
OPENACL_AVX512_TARGET inline __m512i pick512(const uint8_t *row, const __m512i index,
                                             const __m512i weight, uint32_t window) {
  const __m512i lo = _mm512_loadu_si512(row + window);
  const __m512i hi = _mm512_loadu_si512(row + window + 64);
  const __m512i pairs = _mm512_maskz_permutex2var_epi8(0x5555555555555555ull, lo, index, hi);
  return _mm512_madd_epi16(pairs, weight);
}

// The same from the two lanes' windows, each picked within its 16 bytes.
OPENACL_AVX2_TARGET inline __m256i pick256(const uint8_t *row, const __m256i index,
                                           const __m256i weight, const uint32_t *window) {
  const __m256i bytes = _mm256_loadu2_m128i(reinterpret_cast<const __m128i *>(row + window[1]),
                                            reinterpret_cast<const __m128i *>(row + window[0]));
  return _mm256_madd_epi16(_mm256_shuffle_epi8(bytes, index), weight);
}

}  // namespace

void PackedColumns::blend(const uint8_t *r0, const uint8_t *r1, int32_t b, uint8_t *out) const {
  if (wide_) return blend_avx512(r0, r1, b, out);
  blend_avx2(r0, r1, b, out);
}

void PackedColumns::horizontal(const uint8_t *row, int32_t *h) const {
  if (wide_) return horizontal_avx512(row, h);
  horizontal_avx2(row, h);
}

// h0 * (one - b) + h1 * b is computed as h0 * one + (h1 - h0) * b: the same integer, one
// product. (The AVX-512 shifts are the zero-masking forms: GCC 12 warns of its own undefined
// operand in the plain ones.)
OPENACL_AVX512_TARGET void PackedColumns::blend_avx512(const uint8_t *r0, const uint8_t *r1,
                                                       int32_t b, uint8_t *out) const {
  const __m512i wb = _mm512_set1_epi32(b);
  const __m512i half = _mm512_set1_epi32(1 << (2 * kWeightBits - 1));
  for (const Block &k : blocks_) {
    const __m512i index = _mm512_load_si512(k.index);
    const __m512i weight = _mm512_load_si512(k.weight);
    const __m512i h0 = pick512(r0, index, weight, k.window[0]);
    const __m512i h1 = pick512(r1, index, weight, k.window[0]);
    __m512i v = _mm512_add_epi32(_mm512_maskz_slli_epi32(kAll, h0, kWeightBits),
                                 _mm512_mullo_epi32(_mm512_sub_epi32(h1, h0), wb));
    v = _mm512_maskz_srli_epi32(kAll, _mm512_add_epi32(v, half), 2 * kWeightBits);
    _mm512_mask_cvtepi32_storeu_epi8(out + k.first, static_cast<__mmask16>((1u << k.count[0]) - 1),
                                     v);
  }
}

OPENACL_AVX2_TARGET void PackedColumns::blend_avx2(const uint8_t *r0, const uint8_t *r1, int32_t b,
                                                   uint8_t *out) const {
  const __m256i wb = _mm256_set1_epi32(b);
  const __m256i half = _mm256_set1_epi32(1 << (2 * kWeightBits - 1));
  // Each dword's low byte to the front of its lane.
  const __m256i low_bytes =
      _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  for (const Block &k : blocks_) {
    const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i *>(k.index));
    const __m256i weight = _mm256_load_si256(reinterpret_cast<const __m256i *>(k.weight));
    const __m256i h0 = pick256(r0, index, weight, k.window);
    const __m256i h1 = pick256(r1, index, weight, k.window);
    __m256i v = _mm256_add_epi32(_mm256_slli_epi32(h0, kWeightBits),
                                 _mm256_mullo_epi32(_mm256_sub_epi32(h1, h0), wb));
    v = _mm256_shuffle_epi8(_mm256_srli_epi32(_mm256_add_epi32(v, half), 2 * kWeightBits),
                            low_bytes);
    const uint32_t lo = static_cast<uint32_t>(_mm256_cvtsi256_si32(v));
    const uint32_t hi = static_cast<uint32_t>(_mm256_extract_epi32(v, 4));
    // Four bytes a lane, the second lane's over the first one's spare bytes, the next block's
    // over these; the row's last block writes what it has.
    uint8_t *at = out + k.first;
    if (k.first + k.count[0] + 4 <= values_) {
      std::memcpy(at, &lo, 4);
      std::memcpy(at + k.count[0], &hi, 4);
    } else {
      std::memcpy(at, &lo, k.count[0]);
      std::memcpy(at + k.count[0], &hi, k.count[1]);
    }
  }
}

OPENACL_AVX512_TARGET void PackedColumns::horizontal_avx512(const uint8_t *row, int32_t *h) const {
  for (const Block &k : blocks_)
    _mm512_storeu_si512(h + k.first, pick512(row, _mm512_load_si512(k.index),
                                             _mm512_load_si512(k.weight), k.window[0]));
}

OPENACL_AVX2_TARGET void PackedColumns::horizontal_avx2(const uint8_t *row, int32_t *h) const {
  for (const Block &k : blocks_) {
    const __m256i v =
        pick256(row, _mm256_load_si256(reinterpret_cast<const __m256i *>(k.index)),
                _mm256_load_si256(reinterpret_cast<const __m256i *>(k.weight)), k.window);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(h + k.first), _mm256_castsi256_si128(v));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(h + k.first + k.count[0]),
                     _mm256_extracti128_si256(v, 1));
  }
}
#else
void PackedColumns::blend(const uint8_t *, const uint8_t *, int32_t, uint8_t *) const {}
void PackedColumns::horizontal(const uint8_t *, int32_t *) const {}
#endif

}  // namespace openacl::dvpp
