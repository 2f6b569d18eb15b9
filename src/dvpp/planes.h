// The sample planes of a picture, for the units that treat every plane alike (LUT remap,
// histograms, filters): YUV400 is one plane of Y; YUV420SP (NV12 or NV21) a plane of Y and one
// of interleaved chroma at half the size, rounded up; RGB888 and BGR888 one plane of three
// interleaved channels. Each channel is also named as a component: Y, U, V (whatever the memory
// order) or R, G, B.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

struct PlaneView {
  uint8_t *data;
  size_t stride;
  uint32_t width, height;  // in pixels of the plane
  int channels;
  std::array<uint32_t, 3> component;  // of each channel: 0 = Y or R, 1 = U or G, 2 = V or B
};

// Whether planes() takes this format.
bool plane_format(uint32_t format);
// Fills out with the picture's planes and returns how many (1 or 2); only for plane_format().
int planes(const Image &img, PlaneView out[2]);

}  // namespace openacl::dvpp
