#include "dvpp/filter.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "dvpp/planes.h"
#include "dvpp/rows.h"

namespace openacl::dvpp {
namespace {

uint8_t reduce(Filter f, const Window &win, uint8_t *v, int n) {
  switch (f) {
    case Filter::median:
      std::nth_element(v, v + n / 2, v + n);
      return v[n / 2];
    case Filter::erode:
      return *std::min_element(v, v + n);
    case Filter::dilate:
      return *std::max_element(v, v + n);
    case Filter::correlate: {
      double sum = win.delta;
      for (int i = 0; i < n; ++i) sum += win.weights[i] * v[i];
      return static_cast<uint8_t>(std::clamp(std::nearbyint(sum), 0.0, 255.0));
    }
    case Filter::mean:
      break;
  }
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i];
  return static_cast<uint8_t>((2 * sum + n) / (2 * n));  // n is odd: no ties to break
}

void filter_rows(const PlaneView &s, const PlaneView &d, Filter f, const Window &win,
                 uint32_t begin, uint32_t end) {
  const int c = s.channels, rx = static_cast<int>(win.kw / 2), ry = static_cast<int>(win.kh / 2);
  const int w = static_cast<int>(s.width), h = static_cast<int>(s.height);
  uint8_t values[25];  // windows are 5x5 at most
  for (int y = static_cast<int>(begin); y < static_cast<int>(end); ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) {
        int m = 0;
        for (int dy = -ry; dy <= ry; ++dy) {
          const int yy = y + dy;
          const bool row_out = yy < 0 || yy >= h;
          const uint8_t *row = s.data + size_t(std::clamp(yy, 0, h - 1)) * s.stride;
          for (int dx = -rx; dx <= rx; ++dx) {
            const int xx = x + dx;
            values[m++] = win.constant && (row_out || xx < 0 || xx >= w)
                              ? win.fill[s.component[k]]
                              : row[std::clamp(xx, 0, w - 1) * c + k];
          }
        }
        d.data[size_t(y) * d.stride + size_t(x) * c + k] = reduce(f, win, values, m);
      }
}

void one_pass(const Image &in, const Image &out, Filter f, const Window &win,
              backend::AiCores *cores) {
  PlaneView ip[2], op[2];
  const int n = planes(in, ip);
  planes(out, op);
  for (int p = 0; p < n; ++p)
    for_rows(cores, ip[p].height,
             [&](uint32_t begin, uint32_t end) { filter_rows(ip[p], op[p], f, win, begin, end); });
}

}  // namespace

void filter(const Image &in, const Image &out, Filter f, const Window &w, uint32_t iterations,
            backend::AiCores *cores) {
  // A pass reads samples around the one it writes: it never writes what it reads, so passes
  // go through scratch pictures of in's layout, and a single pass from a picture into itself
  // reads a copy.
  const size_t bytes = image_bytes(in);
  std::vector<uint8_t> scratch[2];
  auto image_of = [&](std::vector<uint8_t> &buffer) {
    buffer.resize(bytes);
    Image s = in;
    s.data = buffer.data();
    return s;
  };
  Image src = in;
  if (iterations == 1 && in.data == out.data) {
    src = image_of(scratch[1]);
    std::memcpy(src.data, in.data, bytes);
  }
  for (uint32_t i = 0; i < iterations; ++i) {
    const Image dst = i + 1 == iterations ? out : image_of(scratch[i % 2]);
    one_pass(src, dst, f, w, cores);
    src = dst;
  }
}

}  // namespace openacl::dvpp
