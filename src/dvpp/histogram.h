// VPC's color remapping (equalize hist) and histograms (calc hist) on the CPU. Both see a
// picture as three components by name (dvpp/planes.h): Y, U, V for YUV400 (Y only) and YUV420SP
// (NV12 or NV21, whatever the memory order), R, G, B for RGB888 and BGR888.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

constexpr uint32_t kComponents = 3;  // CANN's default dims of a LUT map and a histogram

struct Lut {
  std::array<std::array<uint8_t, 256>, kComponents> maps;
};

struct Histogram {
  std::array<std::array<uint32_t, 256>, kComponents> bins{};
  std::atomic<uint32_t> ret_code{0};
};

// out = lut[component](in) for every visible sample; in and out have the same format and size.
void remap(const Image &in, const Image &out, const Lut &lut);
// Adds the picture's visible samples to the bins of their component (CANN accumulates until
// acldvppClearHist). YUV420SP chroma counts each sample once, covering 2x2 pixels.
void add_histogram(const Image &in, Histogram &hist);

}  // namespace openacl::dvpp
