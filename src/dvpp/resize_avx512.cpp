#include "dvpp/resize_avx512.h"

#include <algorithm>

#include "ops/isa.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define OPENACL_WIDE_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#endif

namespace openacl::dvpp {
namespace {

constexpr size_t kWindow = 128;   // two registers: what one vpermt2b picks bytes from
constexpr uint32_t kValues = 16;  // dwords of a register: output values a block makes

}  // namespace

bool WideColumns::available() {
#if defined(OPENACL_WIDE_TARGET)
  static const bool yes = ops::use_avx512() && __builtin_cpu_supports("avx512vbmi");
  return yes;
#else
  return false;
#endif
}

WideColumns::WideColumns(const uint32_t *offset, const int32_t *w1, uint32_t dw, int channels,
                         bool swap, size_t span) {
  if (span < kWindow || !available()) return;
  const uint32_t c = static_cast<uint32_t>(channels);
  const uint32_t pair = 2 * c;  // bytes of a pixel and the next
  for (uint32_t x = 0; x < dw;) {
    Block b{};
    b.window = static_cast<uint32_t>(std::min<size_t>(offset[x], span - kWindow));
    b.first = x * c;
    uint32_t n = 0;  // pixels in the block
    while (x + n < dw && (n + 1) * c <= kValues && offset[x + n] + pair <= b.window + kWindow) {
      const uint32_t at = offset[x + n] - b.window;
      for (uint32_t k = 0; k < c; ++k) {
        const uint32_t lane = n * c + k, from = swap ? k ^ 1 : k;
        b.index[4 * lane] = static_cast<uint8_t>(at + from);
        b.index[4 * lane + 2] = static_cast<uint8_t>(at + c + from);
        b.weight[2 * lane] = static_cast<int16_t>((1 << kWeightBits) - w1[x + n]);
        b.weight[2 * lane + 1] = static_cast<int16_t>(w1[x + n]);
      }
      ++n;
    }
    b.count = n * c;
    blocks_.push_back(b);
    x += n;
  }
}

#if defined(OPENACL_WIDE_TARGET)
namespace {

// A block's values from one row: its pairs picked into the even bytes (the odd ones zeroed,
// so each pair reads as two 16-bit words), then left * w0 + right * w1 per value.
OPENACL_WIDE_TARGET inline __m512i pick(const uint8_t *row, const __m512i index,
                                        const __m512i weight, uint32_t window) {
  const __m512i lo = _mm512_loadu_si512(row + window);
  const __m512i hi = _mm512_loadu_si512(row + window + 64);
  const __m512i pairs = _mm512_maskz_permutex2var_epi8(0x5555555555555555ull, lo, index, hi);
  return _mm512_madd_epi16(pairs, weight);
}

constexpr __mmask16 kAll = 0xffff;

}  // namespace

OPENACL_WIDE_TARGET void WideColumns::blend(const uint8_t *r0, const uint8_t *r1, int32_t b,
                                            uint8_t *out) const {
  const __m512i wb = _mm512_set1_epi32(b);
  const __m512i half = _mm512_set1_epi32(1 << (2 * kWeightBits - 1));
  for (const Block &k : blocks_) {
    const __m512i index = _mm512_load_si512(k.index);
    const __m512i weight = _mm512_load_si512(k.weight);
    const __m512i h0 = pick(r0, index, weight, k.window);
    const __m512i h1 = pick(r1, index, weight, k.window);
    // h0 * (one - b) + h1 * b as h0 * one + (h1 - h0) * b: the same integer, one product. (The
    // shifts are the zero-masking forms: GCC 12 warns of its own undefined operand in the
    // plain ones.)
    __m512i v = _mm512_add_epi32(_mm512_maskz_slli_epi32(kAll, h0, kWeightBits),
                                 _mm512_mullo_epi32(_mm512_sub_epi32(h1, h0), wb));
    v = _mm512_maskz_srli_epi32(kAll, _mm512_add_epi32(v, half), 2 * kWeightBits);
    _mm512_mask_cvtepi32_storeu_epi8(out + k.first, static_cast<__mmask16>((1u << k.count) - 1), v);
  }
}

OPENACL_WIDE_TARGET void WideColumns::horizontal(const uint8_t *row, int32_t *h) const {
  for (const Block &k : blocks_)
    _mm512_storeu_si512(
        h + k.first, pick(row, _mm512_load_si512(k.index), _mm512_load_si512(k.weight), k.window));
}
#else
void WideColumns::blend(const uint8_t *, const uint8_t *, int32_t, uint8_t *) const {}
void WideColumns::horizontal(const uint8_t *, int32_t *) const {}
#endif

}  // namespace openacl::dvpp
