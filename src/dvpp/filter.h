// VPC's filters (CANN's V2 hi_mpi_vpc_median_blur, erode, dilate, blur and filter2d) on the
// CPU.
#pragma once

#include <array>
#include <cstdint>

#include "backend/ai_cores.h"
#include "dvpp/image.h"

namespace openacl::dvpp {

// What each output sample is made of: the kw x kh window of source samples centred on it (odd
// sizes), in its own channel and plane (dvpp/planes.h: YUV420SP chroma on its half-size grid).
// Outside the picture the window reads the nearest edge sample (replicate) or, with `constant`,
// fill[component] (planes.h's components: Y, U, V or R, G, B).
struct Window {
  uint32_t kw = 3, kh = 3;
  bool constant = false;
  std::array<uint8_t, 3> fill{};
  // Filter::correlate's: a weight a window sample (rows of kw), and what is added to the sum.
  std::array<double, 25> weights{};
  double delta = 0;
};

enum class Filter {
  median,  // the median of the window (OpenCV's medianBlur: square windows, replicated edges)
  erode,   // the smallest sample (OpenCV's erode with a rectangle)
  dilate,  // the largest (OpenCV's dilate with a rectangle)
  mean,    // the mean, rounded to nearest (OpenCV's blur)
  // sum(weight * sample) + delta in doubles, rounded to nearest (ties to even) and saturated to
  // 0..255 (OpenCV's filter2D: a correlation, the kernel not flipped)
  correlate,
};

// `iterations` passes of the filter from `in` into `out` (each pass reads the previous one's
// result, as OpenCV's iterations of erode and dilate). in and out have the same format (a
// planes.h one) and size and may be the same buffer; out's padding is not written. With
// `cores`, the rows of larger pictures are spread over the device's AI cores.
void filter(const Image &in, const Image &out, Filter f, const Window &w, uint32_t iterations = 1,
            backend::AiCores *cores = nullptr);

}  // namespace openacl::dvpp
