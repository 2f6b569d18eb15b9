// VPC's pyramid step (acldvppVpcPyrDownAsync) on the CPU.
#pragma once

#include "dvpp/image.h"

namespace openacl::dvpp {

// One level down of a YUV400 picture, as OpenCV's pyrDown: the 5x5 Gaussian
// [1 4 6 4 1]^T [1 4 6 4 1] / 256 around source pixel (2x, 2y), reflect-101 at the edges,
// rounded to nearest. out is in.width / 2 x in.height / 2.
void pyr_down(const Image &in, const Image &out);

}  // namespace openacl::dvpp
