// H.264 / H.265 frames of V2 VDEC channels (hi_mpi_vdec_*), on the V1 video decoder
// (dvpp/video_decoder.h): each hi_mpi_vdec_send_stream is one frame, decoded by a task of the
// channel's lane into the output picture the send names.
#pragma once

#include <memory>

#include "acl/dvpp/hi_dvpp_vdec.h"
#include "dvpp/image.h"
#include "dvpp/mpi/lane.h"
#include "dvpp/video_decoder.h"

namespace openacl::dvpp::mpi {

// What a frame's task wrote: the picture (when the send named a buffer), its size and layout.
struct VideoPicture {
  Image image;  // data NULL when the send named no buffer (the picture was dropped)
};

// Checks the output description at the call (NV12 / NV21, RGB888 / BGR888 or UNKNOWN; width and
// height 0 or within VDEC's range; DVPP memory when vir_addr is set; no region decoding) and
// queues the frame's decode. A width or height that is not the frame's scales the picture, an
// RGB format converts it (video_output.h); strides left 0 are the V1 VDEC's (16 and 2; for RGB
// the width aligned to 16, times 3).
Ticket queue_video_frame(Lane &lane, const std::shared_ptr<VideoDecoder> &decoder,
                         const hi_vdec_stream &stream, const hi_vdec_pic_info &pic,
                         const std::shared_ptr<VideoPicture> &out);
// End of stream: the pictures the decoder still holds are dropped (no send named a buffer
// for them).
Ticket queue_video_flush(Lane &lane, const std::shared_ptr<VideoDecoder> &decoder);
// The buffer a picture of this size and format takes (V1 VDEC's strides), 0 when the format
// is not YUV420SP.
uint32_t video_buffer_size(uint32_t width, uint32_t height, uint32_t format);

}  // namespace openacl::dvpp::mpi
