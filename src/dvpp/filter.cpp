#include "dvpp/filter.h"

#include <algorithm>
#include <cstddef>

#include "dvpp/planes.h"
#include "dvpp/rows.h"

namespace openacl::dvpp {
namespace {

void median_rows(const PlaneView &s, const PlaneView &d, int radius, uint32_t begin, uint32_t end) {
  const int c = s.channels, n = (2 * radius + 1) * (2 * radius + 1);
  const int w = static_cast<int>(s.width), h = static_cast<int>(s.height);
  uint8_t window[25];
  for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) {
        int m = 0;
        for (int dy = -radius; dy <= radius; ++dy) {
          const uint8_t *row = s.data + size_t(std::clamp(y + dy, 0, h - 1)) * s.stride;
          for (int dx = -radius; dx <= radius; ++dx)
            window[m++] = row[std::clamp(x + dx, 0, w - 1) * c + k];
        }
        std::nth_element(window, window + n / 2, window + n);
        d.data[size_t(y) * d.stride + size_t(x) * c + k] = window[n / 2];
      }
}

}  // namespace

void median_blur(const Image &in, const Image &out, uint32_t ksize, backend::AiCores *cores) {
  PlaneView ip[2], op[2];
  const int n = planes(in, ip);
  planes(out, op);
  const int radius = static_cast<int>(ksize / 2);
  for (int p = 0; p < n; ++p)
    for_rows(cores, ip[p].height,
             [&](uint32_t begin, uint32_t end) { median_rows(ip[p], op[p], radius, begin, end); });
}

}  // namespace openacl::dvpp
