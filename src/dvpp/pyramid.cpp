#include "dvpp/pyramid.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace openacl::dvpp {
namespace {

constexpr int kTaps[5] = {1, 4, 6, 4, 1};

// The source index for i, up to two pixels past either edge (n >= 3).
int64_t edge(int64_t i, int64_t n, PyrBorder border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case PyrBorder::reflect101:
      return i < 0 ? -i : 2 * (n - 1) - i;
    case PyrBorder::reflect:
      return i < 0 ? -i - 1 : 2 * n - 1 - i;
    case PyrBorder::replicate:
    case PyrBorder::constant:  // framed by pyr_down: never past the edge
      break;
  }
  return i < 0 ? 0 : n - 1;
}

// The 5x5 Gaussian around source pixel (2x + shift, 2y + shift) of each output pixel.
void filter(const Image &in, const Image &out, PyrBorder border, int64_t shift) {
  const int64_t w = in.width, h = in.height;
  std::vector<int> cols(size_t{out.width} * 5);
  for (uint32_t x = 0; x < out.width; ++x)
    for (int k = 0; k < 5; ++k)
      cols[x * 5 + k] = static_cast<int>(edge(2 * int64_t{x} + k - 2 + shift, w, border));
  for (uint32_t y = 0; y < out.height; ++y) {
    const uint8_t *src[5];
    for (int k = 0; k < 5; ++k)
      src[k] = in.data + size_t(edge(2 * int64_t{y} + k - 2 + shift, h, border)) * in.width_stride;
    uint8_t *dst = out.data + size_t{y} * out.width_stride;
    for (uint32_t x = 0; x < out.width; ++x) {
      int sum = 0;
      for (int i = 0; i < 5; ++i) {
        int v = 0;
        for (int k = 0; k < 5; ++k) v += kTaps[k] * src[k][cols[x * 5 + i]];
        sum += kTaps[i] * v;
      }
      dst[x] = static_cast<uint8_t>((sum + 128) >> 8);
    }
  }
}

}  // namespace

void pyr_down(const Image &in, const Image &out, PyrBorder border, uint8_t constant) {
  if (border == PyrBorder::constant) {
    // The picture framed by two pixels of the value on every side: the kernel then reads
    // inside the frame only, two pixels further on.
    const uint32_t fw = in.width + 4, fh = in.height + 4;
    std::vector<uint8_t> framed(size_t{fw} * fh, constant);
    for (uint32_t y = 0; y < in.height; ++y)
      std::memcpy(&framed[(y + 2) * size_t{fw} + 2], in.data + size_t{y} * in.width_stride,
                  in.width);
    return filter(
        Image{framed.data(), static_cast<uint32_t>(framed.size()), in.format, fw, fh, fw, fh}, out,
        PyrBorder::replicate, 2);
  }
  filter(in, out, border, 0);
}

}  // namespace openacl::dvpp
