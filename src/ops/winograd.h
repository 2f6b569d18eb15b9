// 3x3 convolutions with stride 1 of channels-last f32 tensors by Winograd's F(2x2, 3x3): each 4x4
// input tile gives a 2x2 output tile with 16 multiply-adds per input and output channel instead
// of 36. oneDNN 2.7 has Winograd kernels only for AVX-512; below it its direct kernel, at the FMA
// peak, took 10.4 ms for each of PP-OCR det's two 96 -> 24 convolutions at 160x160 (38% of det
// on one core under the AVX2 cap).
#pragma once

#include <cstdint>
#include <memory>

#include "ops/op.h"

namespace openacl::ops {

struct Winograd3x3 {
  int64_t n, c, h, w, oc;  // x [n, h, w, c] channels-last, filter [oc, c, 3, 3] by strides
  int64_t pt, pl, oh, ow;  // top and left padding; y [n, oh, ow, oc] channels-last
  int64_t so, si, sh, sw;  // the filter's element strides of O, I, H, W
  bool bias;               // input 2 is a bias of oc floats
};

// True where this op beats oneDNN's direct kernel: AVX2 (not AVX-512, where oneDNN's direct
// kernel has twice the FMA width), input channels a multiple of 8, at least 32 of them, and at
// least 40x40 outputs (96 -> 24 channels, one core: 40x40 0.42 against 0.64 ms, 20x20 0.18
// against 0.16 ms).
bool winograd_pays(const Winograd3x3 &s);

// The convolution; bands of output rows go to the AI cores.
std::unique_ptr<PreparedOp> winograd_conv(const Winograd3x3 &s);

}  // namespace openacl::ops
