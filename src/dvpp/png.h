// PNGD on the CPU with libpng, with the output layout of CANN's PNG unit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

struct PngInfo {
  uint32_t width = 0, height = 0;
  int32_t components = 0;  // 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA (a tRNS chunk counts as alpha)
};

// Reads the header. Throws Errc::invalid_argument when the data is not a PNG stream.
PngInfo png_info(const void *data, size_t size);
// The picture PNGD writes for `format` (RGB888, RGBA8888, or PIXEL_FORMAT_UNKNOWN: RGBA8888 when
// the source has alpha, else RGB888): width stride align_up(width, 128) * bytes per pixel,
// height stride aligned to 16. Throws Errc::feature_not_supported for other formats and for
// pictures outside 32x32 .. 4096x4096.
Image pngd_layout(const PngInfo &info, uint32_t format);
// Decodes into out (laid out by pngd_layout): 16-bit samples keep their high byte, palettes and
// grey expand to RGB, alpha is dropped for RGB888 (not blended). Throws Errc::task_failure when
// the stream is corrupt.
void png_decode(const void *data, size_t size, const Image &out);

}  // namespace openacl::dvpp
