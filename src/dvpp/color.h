// VPC color conversion and borders on the CPU.
#pragma once

#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

// Converts between YUV420SP (NV12, NV21) and packed RGB (RGB888, BGR888 and the 32-bit ARGB,
// ABGR, RGBA, BGRA) of the same size, with the channel's acldvppCscMatrix (BT.601 / BT.709 /
// BT.2020, wide = full range, narrow = video range). RGB to YUV420SP takes the rounded mean of
// the four chroma values of each 2x2 block and ignores alpha; alpha written from YUV is 255.
// NV12 <-> NV21 swap U and V; packed RGB to packed RGB moves each channel to its place.
// Pictures must have the same width and height.
void convert_color(const Image &in, const Image &out, uint32_t csc_matrix);
// Whether convert_color handles this pair.
bool convertible(uint32_t from, uint32_t to);

struct Border {
  uint32_t top = 0, bottom = 0, left = 0, right = 0;
  uint32_t type = 0;            // acldvppBorderType
  double value[3] = {0, 0, 0};  // constant border, in the picture's channel order (Y, U, V)
};

// Copies the YUV420SP `in` into `out` with the border around it (OpenCV's copyMakeBorder
// rules; the chroma plane takes half the border). out is in.width + left + right wide.
void make_border(const Image &in, const Image &out, const Border &border);

}  // namespace openacl::dvpp
