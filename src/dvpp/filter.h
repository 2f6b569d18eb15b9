// VPC's filters (CANN's V2 hi_mpi_vpc_median_blur) on the CPU.
#pragma once

#include <cstdint>

#include "backend/ai_cores.h"
#include "dvpp/image.h"

namespace openacl::dvpp {

// Each sample of out is the median of its ksize x ksize neighbourhood in `in` (ksize 1, 3 or 5;
// 1 copies), channel by channel and plane by plane (dvpp/planes.h: YUV420SP chroma on its
// half-size grid), edges replicated as OpenCV's medianBlur does. in and out have the same
// format (a planes.h one) and size; out's padding is not written. With `cores`, the rows of
// larger pictures are spread over the device's AI cores.
void median_blur(const Image &in, const Image &out, uint32_t ksize,
                 backend::AiCores *cores = nullptr);

}  // namespace openacl::dvpp
