#include "dvpp/video_output.h"

#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "dvpp/color.h"
#include "dvpp/vpc.h"

namespace openacl::dvpp {
namespace {

// A YUV420SP picture in host memory, for the stages between decoder and output.
struct Scratch {
  std::vector<uint8_t> bytes;
  Image image;
  Scratch(uint32_t format, uint32_t width, uint32_t height)
      : bytes(buffer_bytes(format, align_up(width, 16), align_up(height, 2))),
        image{bytes.data(),
              static_cast<uint32_t>(bytes.size()),
              format,
              width,
              height,
              align_up(width, 16),
              align_up(height, 2)} {}
};

Rect whole(const Image &img) { return {0, img.width - 1, 0, img.height - 1}; }

}  // namespace

bool vdec_output_format(uint32_t format) {
  return is_yuv420sp(format) || format == PIXEL_FORMAT_RGB_888 || format == PIXEL_FORMAT_BGR_888;
}

uint32_t vdec_min_stride(uint32_t format, uint32_t width) {
  return packed_bytes(format) != 0 ? width * packed_bytes(format) : width;
}

void take_picture(VideoDecoder &decoder, uint32_t width, uint32_t height, const Image &out,
                  uint32_t csc_matrix, backend::AiCores *cores) {
  const bool scaled = out.width != width || out.height != height;
  const bool rgb = !is_yuv420sp(out.format);
  if (!scaled && !rgb) return decoder.take(out);
  Scratch decoded(PIXEL_FORMAT_YUV_SEMIPLANAR_420, width, height);
  decoder.take(decoded.image);
  if (!rgb)
    return crop_resize_paste(decoded.image, whole(decoded.image), out, whole(out),
                             Interpolation::bilinear, cores);
  if (!scaled) return convert_color(decoded.image, out, csc_matrix);
  Scratch resized(PIXEL_FORMAT_YUV_SEMIPLANAR_420, out.width, out.height);
  crop_resize_paste(decoded.image, whole(decoded.image), resized.image, whole(resized.image),
                    Interpolation::bilinear, cores);
  convert_color(resized.image, out, csc_matrix);
}

}  // namespace openacl::dvpp
