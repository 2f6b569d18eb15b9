// VPC, the DVPP unit that crops, resizes and pastes pictures, on the CPU.
#pragma once

#include <cstdint>

#include "backend/ai_cores.h"
#include "dvpp/color.h"
#include "dvpp/image.h"

namespace openacl::dvpp {

// A region of a picture, bounds included (as acldvppRoiConfig: right and bottom are the last
// column and row).
struct Rect {
  uint32_t left = 0, right = 0, top = 0, bottom = 0;
  uint32_t width() const { return right - left + 1; }
  uint32_t height() const { return bottom - top + 1; }
};

// CANN's interpolation values 1 and 3 (0 means 1): bilinear as OpenCV's INTER_LINEAR (pixel
// centres at +0.5, source positions clamped to the region); 2 and 4: nearest as OpenCV's
// INTER_NEAREST (source = floor(dst * scale)).
enum class Interpolation { bilinear, nearest };

// Resizes the `crop` region of `in` into the `paste` region of `out`; the rest of `out` is left
// as it was. Both pictures are YUV420SP (NV12 or NV21, converted as needed); luma and the
// interleaved chroma plane (half size, rounded up) are resized separately with the same rule.
// Regions must be inside the pictures; crop and paste areas have even left and top and odd
// right and bottom, a whole picture may have an odd size. With `cores`, the rows of larger
// outputs are spread over the device's AI cores.
void crop_resize_paste(const Image &in, const Rect &crop, const Image &out, const Rect &paste,
                       Interpolation interpolation, backend::AiCores *cores = nullptr);

// Resizes the `crop` region of `in` to `out` less the border, then puts the border around it
// (make_border's rules), as acldvppVpcBatchCropResizeMakeBorderAsync does: the resized size is
// the output's size minus the border.
void crop_resize_border(const Image &in, const Rect &crop, const Image &out, const Border &border,
                        Interpolation interpolation, backend::AiCores *cores = nullptr);

}  // namespace openacl::dvpp
