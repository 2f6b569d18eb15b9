// JPEGD and JPEGE on the CPU with libjpeg-turbo, with the output layout of CANN's JPEG units.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

struct JpegInfo {
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  uint32_t css = 0;  // acldvppJpegFormat
};

// Reads the header. Throws Errc::invalid_argument when the data is not a JPEG stream.
JpegInfo jpeg_info(const void *data, size_t size);
// Throws Errc::unsupported_jpeg (ACL_ERROR_UNSUPPORTED_JPEG, as CANN) for what the JPEGD unit
// does not decode (progressive or arithmetic coding, pictures outside 32x32 .. 8192x8192,
// 4:1:1 sampling), naming the reason.
void require_jpegd_supported(const void *data, size_t size, const JpegInfo &info);
// The picture JPEGD writes: width and height rounded down to even, width stride aligned to 128
// and height stride to 16 (buffer: buffer_bytes of the format, e.g. width_stride * height_stride
// * 3 / 2 for YUV420SP).
Image jpegd_layout(const JpegInfo &info, uint32_t format);
// The source's own format, YUV order (CANN's JPEGD output for PIXEL_FORMAT_UNKNOWN): YUV400,
// YUV420SP, YUV422SP, YUV444SP or YUV440SP.
uint32_t jpegd_native_format(uint32_t css);
// Whether JPEGD writes this format for this picture: YUV420SP / YVU420SP for any, else only the
// source's own format (either chroma order), as CANN's JPEGD.
bool jpegd_writes(const JpegInfo &info, uint32_t format);

// Decodes into out (laid out by jpegd_layout, a format jpegd_writes). YUV420SP: luma as
// libjpeg-turbo decodes it, chroma as the rounded mean of each 2x2 block of libjpeg-turbo's
// chroma without interpolation (for 4:2:0 sources: the stored chroma samples exactly; grey
// sources: 128). The source's own format: its stored samples, chroma interleaved. Throws
// Errc::task_failure when the stream is corrupt.
void jpeg_decode(const void *data, size_t size, const Image &out);

// JPEGE: the encoded size bound openacl promises for a YUV420SP or packed YUV422 picture.
uint32_t jpege_predict_size(uint32_t width, uint32_t height);
// Encodes a YUV420SP picture (as a 4:2:0 JPEG) or a packed YUV422 one (YUYV, UYVY, YVYU, VYUY:
// as a 4:2:2 JPEG) at quality `level` (CANN: 1..100, 0 behaves as 100) into
// [dst, dst + capacity); returns the encoded size. Throws Errc::task_failure when it does
// not fit.
uint32_t jpeg_encode(const Image &in, uint32_t level, uint8_t *dst, uint32_t capacity);

}  // namespace openacl::dvpp
