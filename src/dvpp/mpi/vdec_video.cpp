#include "dvpp/mpi/vdec_video.h"

#include <optional>
#include <string>
#include <tuple>

#include "dvpp/memory.h"
#include "dvpp/mpi/guard.h"
#include "dvpp/video_output.h"

namespace openacl::dvpp::mpi {

namespace {

std::string size(uint32_t w, uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

// The color matrix of RGB output: V2 VDEC channels have no CSC setting; openacl takes V2 VPC's
// default (hi_mpi_sys_set_chn_csc_matrix's), BT.601 full range.
constexpr uint32_t kVdecCscMatrix = HI_CSC_MATRIX_BT601_WIDE;

}  // namespace

uint32_t video_buffer_size(uint32_t width, uint32_t height, uint32_t format) {
  return static_cast<uint32_t>(buffer_bytes(format, align_up(width, 16), align_up(height, 2)));
}

namespace {

// Writes the decoder's oldest picture (w x h) into its frame's output as the send described it;
// the picture's Image (data NULL: dropped). Throws Errc::task_failure when it does not fit.
// Which frame's picture comes out is known only here (reordering), so the picture is written
// through a view of its own, rather than the task's ranges, and is in its output before the
// picture is handed out.
Image write(VideoDecoder &decoder, const VideoFrames::Slot &slot, uint32_t w, uint32_t h,
            backend::AiCores &cores, const api::HostRanges &views) {
  const hi_vdec_pic_info &pic = slot.pic;
  // Width and height 0 take the frame's; others are VDEC's scaler's (video_output.h).
  const uint32_t ow = pic.width ? pic.width : w, oh = pic.height ? pic.height : h;
  const uint32_t rgb = packed_bytes(slot.format);
  Image img{reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(pic.vir_addr)),
            pic.buffer_size,
            slot.format,
            ow,
            oh,
            pic.width_stride ? pic.width_stride : align_up(ow, 16) * (rgb ? rgb : 1),
            pic.height_stride ? pic.height_stride : align_up(oh, 2)};
  if (img.data == nullptr) {
    decoder.take_discard();
    return img;
  }
  if (img.width_stride < vdec_min_stride(slot.format, ow) || img.height_stride < oh ||
      img.height_stride % 2 != 0 ||
      buffer_bytes(slot.format, img.width_stride, img.height_stride) > pic.buffer_size) {
    decoder.take_discard();
    fail(Errc::task_failure, "the " + size(ow, oh) + " " + format_name(slot.format) +
                                 " picture does not fit vdec_pic_info (strides " +
                                 size(img.width_stride, img.height_stride) + ", buffer_size " +
                                 std::to_string(pic.buffer_size) + ")");
  }
  const backend::HostView view(views.device(), img.data, img.size,
                               backend::DeviceBackend::Access::write);
  Image host = img;
  host.data = static_cast<uint8_t *>(view.data());
  take_picture(decoder, w, h, host, kVdecCscMatrix, &cores);
  return img;
}

void fail_slot(VideoFrames &frames, const VideoFrames::Slot &slot, const Error &e) {
  frames.out({slot.stream, {}, e.code(), e.what()});
}

// Hands out every picture the decoder has ready, each into its own frame's output.
void output(VideoFrames &frames, backend::AiCores &cores, const api::HostRanges &views) {
  uint32_t w = 0, h = 0;
  int64_t frame = 0;
  while (frames.decoder.peek(&w, &h, &frame)) {
    std::optional<VideoFrames::Slot> slot = frames.slots.take(frame);
    if (!slot) {
      frames.decoder.take_discard();
      continue;
    }
    try {
      frames.out({slot->stream, write(frames.decoder, *slot, w, h, cores, views)});
    } catch (const Error &e) {
      fail_slot(frames, *slot, e);
    }
  }
}

}  // namespace

void queue_video_frame(Lane &lane, const std::shared_ptr<VideoFrames> &frames,
                       const hi_vdec_stream &stream, const hi_vdec_pic_info &pic) {
  required(stream.addr, "stream->addr");
  if (stream.len == 0) reject(HI_ERR_ILLEGAL_PARAM, "stream->len is 0");
  check_range(stream.addr, stream.len, "stream->addr");
  if (pic.offset_top != 0 || pic.offset_bottom != 0 || pic.offset_left != 0 ||
      pic.offset_right != 0)
    reject(HI_ERR_NOT_SUPPORT, "vdec_pic_info: region decoding (offset_*) is JPEGD's");
  uint32_t format = static_cast<uint32_t>(pic.pixel_format);
  if (format == HI_PIXEL_FORMAT_UNKNOWN) format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  if (!vdec_output_format(format))
    reject(HI_ERR_NOT_SUPPORT,
           "vdec_pic_info: VDEC on openacl writes HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, "
           "YVU_SEMIPLANAR_420, RGB_888 or BGR_888, not " +
               format_name(format));
  for (auto [side, value, least] : {std::tuple{"width", pic.width, kVdecMinWidth},
                                    std::tuple{"height", pic.height, kVdecMinHeight}})
    if (value != 0 && (value < least || value > kVdecMaxSide))
      reject(HI_ERR_ILLEGAL_PARAM, std::string("vdec_pic_info->") + side + " " +
                                       std::to_string(value) + " is outside [" +
                                       std::to_string(least) + ", 4096] (0: the frame's)");
  auto *data = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(pic.vir_addr));
  if (data != nullptr) check_range(data, pic.buffer_size, "vdec_pic_info->vir_addr");
  const int64_t frame = frames->slots.add({stream, pic, format});
  ++frames->sent;
  try {
    // The task declares the stream it reads; the picture it writes may be an earlier frame's.
    lane.submit("VDEC", {{stream.addr, stream.len, false}},
                [frames, frame, in = stream.addr, len = stream.len](backend::AiCores &cores,
                                                                    const api::HostRanges &views) {
                  try {
                    frames->decoder.send(views.at(in), len, frame);
                  } catch (const Error &e) {
                    if (auto slot = frames->slots.take(frame)) fail_slot(*frames, *slot, e);
                  }
                  ++frames->decoded;
                  output(*frames, cores, views);
                });
  } catch (...) {
    frames->slots.take(frame);  // a send that failed gives no frame
    --frames->sent;
    throw;
  }
}

void queue_video_flush(Lane &lane, const std::shared_ptr<VideoFrames> &frames) {
  lane.submit("VDEC", {}, [frames](backend::AiCores &cores, const api::HostRanges &views) {
    frames->decoder.flush();
    output(*frames, cores, views);
    for (const VideoFrames::Slot &slot : frames->slots.take_all())
      fail_slot(*frames, slot,
                Error(Errc::task_failure, "the frame gave no picture (end of stream)"));
  });
}

}  // namespace openacl::dvpp::mpi
