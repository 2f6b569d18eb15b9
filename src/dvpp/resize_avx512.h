// VPC's horizontal resize taps packed for AVX-512 VBMI: a shrinking resize is bound by picking
// each destination pixel's pair of source pixels out of the source rows, which one byte
// permute over a 128-byte window does for 16 output values at once (pshufb-style kernels need
// a load a few pixels, scalar ones a load a pixel). The arithmetic is vpc.cpp's, integer for
// integer: every output is the same byte as the portable kernels'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace openacl::dvpp {

// Resize weights are in 1 / 2^kWeightBits: a result stays within 1 of exact arithmetic.
constexpr int kWeightBits = 11;

class WideColumns {
 public:
  // Packs the taps of dw destination pixels of `channels` interleaved bytes: pixel d blends the
  // source pixel at byte offset[d] of the region's row (weight 2^kWeightBits - w1[d]) with the
  // next one (w1[d]); both pixels lie within the row's first `span` bytes. `swap` exchanges the
  // two channels on the way (NV12 <-> NV21). empty() when the CPU lacks AVX-512 VBMI or
  // OPENACL_MAX_ISA (ops/isa.h) caps the kernels below avx512, or when span is under the
  // 128-byte window: the portable kernels then resize.
  WideColumns(const uint32_t *offset, const int32_t *w1, uint32_t dw, int channels, bool swap,
              size_t span);
  bool empty() const { return blocks_.empty(); }

  // One destination row (dw * channels bytes) from the region rows r0 and r1, r1 weighted by
  // b / 2^kWeightBits, rounded to nearest. Only when not empty().
  void blend(const uint8_t *r0, const uint8_t *r1, int32_t b, uint8_t *out) const;
  // One region row resized horizontally into h (dw * channels values scaled by 2^kWeightBits);
  // h has room for 16 values past them (whole blocks are stored). Only when not empty().
  void horizontal(const uint8_t *row, int32_t *h) const;

 private:
  // Up to 16 consecutive output values whose source pairs lie in one 128-byte window.
  struct alignas(64) Block {
    uint8_t index[64];   // even bytes: the window's byte of each value's left and right pixel
    int16_t weight[32];  // each value's left and right weight
    uint32_t window;     // the window's first byte in the row
    uint32_t first;      // the first output value (dw * channels counting)
    uint32_t count;      // output values, 1..16
  };
  static bool available();
  std::vector<Block> blocks_;
};

}  // namespace openacl::dvpp
