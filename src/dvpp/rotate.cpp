#include "dvpp/rotate.h"

#include "acl/ops/acl_dvpp.h"

#include <cstring>

namespace openacl::dvpp {

void rotate(const Image &in, const Image &out, int quarter_turns) {
  const size_t bpp = in.format == PIXEL_FORMAT_YUV_400 ? 1 : packed_bytes(in.format);
  const uint32_t w = in.width, h = in.height;
  for (uint32_t y = 0; y < out.height; ++y) {
    uint8_t *row = out.data + size_t{y} * out.width_stride;
    for (uint32_t x = 0; x < out.width; ++x) {
      // The source pixel that lands on (x, y).
      uint32_t sx, sy;
      if (quarter_turns == 1) sx = y, sy = h - 1 - x;
      else if (quarter_turns == 2) sx = w - 1 - x, sy = h - 1 - y;
      else sx = w - 1 - y, sy = x;
      std::memcpy(row + x * bpp, in.data + size_t{sy} * in.width_stride + sx * bpp, bpp);
    }
  }
}

}  // namespace openacl::dvpp
