// VPC's horizontal resize taps packed for byte shuffles. A shrinking resize is bound by picking
// each destination pixel's pair of source pixels out of the source rows: scalar code needs a
// load a pixel, a shuffle picks the pairs of several pixels from one window of the row at once
// (AVX-512 VBMI: 16 output values from a 128-byte window with one vpermt2b; AVX2: 4 values from
// each 16-byte half of a register with one vpshufb), and vpmaddwd weighs both pixels of 8 or 16
// pairs in one instruction. The arithmetic is vpc.cpp's, integer for integer: every output is
// the byte the portable kernels give.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace openacl::dvpp {

// Resize weights are in 1 / 2^kWeightBits: a result stays within 1 of exact arithmetic.
constexpr int kWeightBits = 11;

class PackedColumns {
 public:
  // Packs the taps of dw destination pixels of `channels` interleaved bytes: pixel d blends the
  // source pixel at byte offset[d] of the region's row (weight 2^kWeightBits - w1[d]) with the
  // next one (w1[d]); both pixels lie within the row's first `span` bytes. `swap` exchanges the
  // two channels on the way (NV12 <-> NV21). For the best kernels the CPU has within
  // OPENACL_MAX_ISA (ops/isa.h); empty() below AVX2, or when span is under the kernel's window
  // (128 bytes for AVX-512, 16 for AVX2): the portable kernels then resize.
  PackedColumns(const uint32_t *offset, const int32_t *w1, uint32_t dw, int channels, bool swap,
                size_t span);
  bool empty() const { return blocks_.empty(); }

  // One destination row (dw * channels bytes) from the region rows r0 and r1, r1 weighted by
  // b / 2^kWeightBits, rounded to nearest. Only when not empty().
  void blend(const uint8_t *r0, const uint8_t *r1, int32_t b, uint8_t *out) const;
  // One region row resized horizontally into h (dw * channels values scaled by 2^kWeightBits);
  // h has room for 16 values past them (whole blocks are stored). Only when not empty().
  void horizontal(const uint8_t *row, int32_t *h) const;

 private:
  // The output values of one register: `lanes` windows (AVX-512: one of 128 bytes; AVX2: one
  // per 16-byte half), each giving up to 16 / lanes consecutive values whose source pairs lie
  // in it.
  struct alignas(64) Block {
    uint8_t index[64];   // per value, its left and right pixel's byte in the lane's window
                         // (even bytes; odd ones 0x80, a zero)
    int16_t weight[32];  // per value, its left and right weight
    uint32_t window[2];  // each lane's window: its first byte in the row
    uint32_t first;      // the block's first output value (dw * channels counting)
    uint32_t count[2];   // values of each lane
  };
  void blend_avx512(const uint8_t *r0, const uint8_t *r1, int32_t b, uint8_t *out) const;
  void blend_avx2(const uint8_t *r0, const uint8_t *r1, int32_t b, uint8_t *out) const;
  void horizontal_avx512(const uint8_t *row, int32_t *h) const;
  void horizontal_avx2(const uint8_t *row, int32_t *h) const;

  bool wide_ = false;    // AVX-512 VBMI's blocks, else AVX2's
  uint32_t values_ = 0;  // dw * channels
  std::vector<Block> blocks_;
};

}  // namespace openacl::dvpp
