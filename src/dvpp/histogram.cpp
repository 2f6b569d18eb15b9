#include "dvpp/histogram.h"

#include "dvpp/planes.h"

namespace openacl::dvpp {

void remap(const Image &in, const Image &out, const Lut &lut) {
  PlaneView ip[2], op[2];
  const int n = planes(in, ip);
  planes(out, op);
  for (int p = 0; p < n; ++p) {
    const int c = ip[p].channels;
    for (uint32_t y = 0; y < ip[p].height; ++y) {
      const uint8_t *s = ip[p].data + y * ip[p].stride;
      uint8_t *d = op[p].data + y * op[p].stride;
      for (uint32_t x = 0; x < ip[p].width; ++x)
        for (int k = 0; k < c; ++k) d[x * c + k] = lut.maps[ip[p].component[k]][s[x * c + k]];
    }
  }
}

void add_histogram(const Image &in, Histogram &hist) {
  PlaneView ip[2];
  const int n = planes(in, ip);
  for (int p = 0; p < n; ++p) {
    const int c = ip[p].channels;
    for (uint32_t y = 0; y < ip[p].height; ++y) {
      const uint8_t *s = ip[p].data + y * ip[p].stride;
      for (uint32_t x = 0; x < ip[p].width; ++x)
        for (int k = 0; k < c; ++k) ++hist.bins[ip[p].component[k]][s[x * c + k]];
    }
  }
  hist.ret_code.store(0, std::memory_order_relaxed);
}

}  // namespace openacl::dvpp
