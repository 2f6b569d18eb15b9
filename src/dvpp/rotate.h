// VPC's rotation by quarter turns (CANN's V2 hi_mpi_vpc_rotate) on the CPU.
#pragma once

#include "dvpp/image.h"

namespace openacl::dvpp {

// Rotates a packed picture (YUV400: 1 byte a pixel, RGB888 / BGR888: 3) clockwise by
// quarter_turns (1, 2 or 3) into out, of the same format: in.height x in.width for 1 and 3
// turns, in's size for 2. Out's padding is not written.
void rotate(const Image &in, const Image &out, int quarter_turns);

}  // namespace openacl::dvpp
