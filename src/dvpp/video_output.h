// VDEC's output stage: CANN's VDEC writes a decoded picture at another size than the stream's
// (its scaler) and as packed RGB888 / BGR888 when the program asks. openacl scales with VPC's
// bilinear rule (vpc.h) and converts with VPC's color conversion (color.h).
#pragma once

#include <cstdint>

#include "backend/ai_cores.h"
#include "dvpp/image.h"
#include "dvpp/video_decoder.h"

namespace openacl::dvpp {

// Output sizes VDEC scales to, as CANN's VDEC documents them.
constexpr uint32_t kVdecMinWidth = 10, kVdecMinHeight = 6, kVdecMaxSide = 4096;

// Formats VDEC writes: YUV420SP (NV12, NV21), RGB888, BGR888.
bool vdec_output_format(uint32_t format);
// Bytes a row of out must hold at least: the width, times 3 for packed RGB.
uint32_t vdec_min_stride(uint32_t format, uint32_t width);

// Takes the oldest picture of `decoder` (width x height, as peek gave it) into out: scaled to
// out.width x out.height when they differ, converted to out.format with csc_matrix
// (acldvppCscMatrix) when it is RGB. out's size, format and strides are the caller's to check.
void take_picture(VideoDecoder &decoder, uint32_t width, uint32_t height, const Image &out,
                  uint32_t csc_matrix, backend::AiCores *cores);

}  // namespace openacl::dvpp
