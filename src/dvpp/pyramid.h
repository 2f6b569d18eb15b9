// VPC's pyramid step (acldvppVpcPyrDownAsync) on the CPU.
#pragma once

#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

// How pyr_down reads past the edges (OpenCV's names): reflect-101 (gfedcb|abcdefgh), reflect
// (fedcba|abcdefgh), replicate (aaaaaa|abcdefgh), constant (iiiiii|abcdefgh, a value given;
// OpenCV's pyrDown lacks it, CANN's V2 pyramid takes it).
enum class PyrBorder { reflect101, reflect, replicate, constant };

// One level down of a YUV400 picture, as OpenCV's pyrDown: the 5x5 Gaussian
// [1 4 6 4 1]^T [1 4 6 4 1] / 256 around source pixel (2x, 2y), `border` at the edges,
// rounded to nearest. out is in.width / 2 x in.height / 2 (V1) or rounded up (CANN's V2
// hi_mpi_vpc_pyrdown); the source is at least 3x3.
void pyr_down(const Image &in, const Image &out, PyrBorder border = PyrBorder::reflect101,
              uint8_t constant = 0);

}  // namespace openacl::dvpp
