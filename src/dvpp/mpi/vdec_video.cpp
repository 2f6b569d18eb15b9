#include "dvpp/mpi/vdec_video.h"

#include <string>

#include "dvpp/memory.h"
#include "dvpp/mpi/guard.h"

namespace openacl::dvpp::mpi {

namespace {

std::string size(uint32_t w, uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

uint32_t video_buffer_size(uint32_t width, uint32_t height, uint32_t format) {
  return static_cast<uint32_t>(buffer_bytes(format, align_up(width, 16), align_up(height, 2)));
}

Ticket queue_video_frame(Lane &lane, const std::shared_ptr<VideoDecoder> &decoder,
                         const hi_vdec_stream &stream, const hi_vdec_pic_info &pic,
                         const std::shared_ptr<VideoPicture> &out) {
  required(stream.addr, "stream->addr");
  if (stream.len == 0) reject(HI_ERR_ILLEGAL_PARAM, "stream->len is 0");
  check_range(stream.addr, stream.len, "stream->addr");
  if (pic.offset_top != 0 || pic.offset_bottom != 0 || pic.offset_left != 0 ||
      pic.offset_right != 0)
    reject(HI_ERR_NOT_SUPPORT, "vdec_pic_info: region decoding (offset_*) is JPEGD's");
  uint32_t format = static_cast<uint32_t>(pic.pixel_format);
  if (format == HI_PIXEL_FORMAT_UNKNOWN) format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  if (!is_yuv420sp(format))
    reject(HI_ERR_NOT_SUPPORT,
           "vdec_pic_info: VDEC on openacl writes HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420 or "
           "YVU_SEMIPLANAR_420, not " +
               format_name(format));
  auto *data = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(pic.vir_addr));
  std::vector<api::Access> ranges{{stream.addr, stream.len, false}};
  if (data != nullptr) {
    check_range(data, pic.buffer_size, "vdec_pic_info->vir_addr");
    ranges.push_back({data, pic.buffer_size, true});
  }
  const uint8_t *in = stream.addr;
  const uint32_t len = stream.len;
  return lane.submit("VDEC", ranges, [=](backend::AiCores &) {
    decoder->send(in, len);
    uint32_t w = 0, h = 0;
    if (!decoder->peek(&w, &h)) fail(Errc::task_failure, "the frame gave no picture");
    Image img{data,
              pic.buffer_size,
              format,
              w,
              h,
              pic.width_stride ? pic.width_stride : align_up(w, 16),
              pic.height_stride ? pic.height_stride : align_up(h, 2)};
    out->image = img;
    if (data == nullptr) return decoder->take_discard();
    if ((pic.width != 0 || pic.height != 0) && (pic.width != w || pic.height != h)) {
      decoder->take_discard();
      fail(Errc::feature_not_supported, "the frame is " + size(w, h) +
                                            " and vdec_pic_info asks for " +
                                            size(pic.width, pic.height) +
                                            ": VDEC's resizing is not implemented on "
                                            "openacl (width and height 0 take the frame's)");
    }
    if (img.width_stride < w || img.height_stride < h || img.height_stride % 2 != 0 ||
        buffer_bytes(format, img.width_stride, img.height_stride) > pic.buffer_size) {
      decoder->take_discard();
      fail(Errc::task_failure, "the " + size(w, h) +
                                   " picture does not fit vdec_pic_info (strides " +
                                   size(img.width_stride, img.height_stride) + ", buffer_size " +
                                   std::to_string(pic.buffer_size) + ")");
    }
    decoder->take(img);
  });
}

Ticket queue_video_flush(Lane &lane, const std::shared_ptr<VideoDecoder> &decoder) {
  return lane.submit("VDEC", {}, [decoder](backend::AiCores &) {
    decoder->flush();
    uint32_t w, h;
    while (decoder->peek(&w, &h)) decoder->take_discard();
  });
}

}  // namespace openacl::dvpp::mpi
