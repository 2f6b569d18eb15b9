// H.264 / H.265 frames of V2 VDEC channels (hi_mpi_vdec_*), on the V1 video decoder
// (dvpp/video_decoder.h): each hi_mpi_vdec_send_stream is one frame, decoded by a task of the
// channel's lane. Pictures come out in the channel's out_order (display order by default), each
// written into the output picture its own frame's send named and handed out with that frame's
// stream description (its pts), as CANN does with reordered (B-frame) streams.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "acl/dvpp/hi_dvpp_vdec.h"
#include "core/status.h"
#include "dvpp/frame_slots.h"
#include "dvpp/image.h"
#include "dvpp/mpi/lane.h"
#include "dvpp/video_decoder.h"

namespace openacl::dvpp::mpi {

// A picture given out (or a frame that gave none: code not ok, the reason in message).
struct VideoPicture {
  hi_vdec_stream stream{};  // its frame's, as sent
  Image image;              // data NULL when the send named no buffer (the picture was dropped)
  Errc code = Errc::ok;
  std::string message;
};

// A channel's decoder and the frames waiting for their pictures. `out` is called by the
// channel's tasks, one picture at a time, in output order.
struct VideoFrames {
  VideoFrames(bool hevc, bool display_order, std::function<void(VideoPicture)> out)
      : decoder(hevc, display_order), out(std::move(out)) {}
  struct Slot {
    hi_vdec_stream stream;
    hi_vdec_pic_info pic;
    uint32_t format;
  };
  VideoDecoder decoder;
  FrameSlots<Slot> slots;
  std::function<void(VideoPicture)> out;
  std::atomic<uint32_t> sent{0}, decoded{0};  // frames sent; frames whose task has run
};

// Checks the output description at the call (NV12 / NV21, RGB888 / BGR888 or UNKNOWN; width and
// height 0 or within VDEC's range; DVPP memory when vir_addr is set; no region decoding) and
// queues the frame's decode. A width or height that is not the frame's scales the picture, an
// RGB format converts it (video_output.h); strides left 0 are the V1 VDEC's (16 and 2; for RGB
// the width aligned to 16, times 3).
void queue_video_frame(Lane &lane, const std::shared_ptr<VideoFrames> &frames,
                       const hi_vdec_stream &stream, const hi_vdec_pic_info &pic);
// End of stream: the pictures the decoder holds for reordering go out; frames that gave no
// picture go out failed.
void queue_video_flush(Lane &lane, const std::shared_ptr<VideoFrames> &frames);
// The buffer a picture of this size and format takes (V1 VDEC's strides), 0 when the format
// is not YUV420SP.
uint32_t video_buffer_size(uint32_t width, uint32_t height, uint32_t format);

}  // namespace openacl::dvpp::mpi
