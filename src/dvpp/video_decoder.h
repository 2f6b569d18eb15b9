// VDEC on the CPU: one channel's H.264 / H.265 decoder (FFmpeg's libavcodec).
//
// Thread safety: none; a channel's decoder is used only by the tasks of the channel's own
// stream, which run one at a time, in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "dvpp/image.h"

namespace openacl::dvpp {

class VideoDecoder {
 public:
  // hevc: H.265 (acldvppStreamFormat H265_MAIN_LEVEL), else H.264. display_order: pictures come
  // out in display order, held back as long as the stream's reordering needs (CANN's default);
  // else each as soon as it is decoded (V1 OutMode 1, V2 HI_VIDEO_OUT_ORDER_DEC; libavcodec's
  // low-delay mode). Throws Errc::internal when libavcodec lacks the decoder.
  VideoDecoder(bool hevc, bool display_order);
  ~VideoDecoder();
  VideoDecoder(const VideoDecoder &) = delete;
  VideoDecoder &operator=(const VideoDecoder &) = delete;

  // Decodes one frame's worth of the elementary stream (Annex B NAL units), as one packet
  // numbered `frame`; decoded pictures queue up in output order, each with the number of the
  // frame it was decoded from. Throws Errc::task_failure when the data cannot be decoded.
  void send(const uint8_t *data, size_t size, int64_t frame);
  // End of stream: the pictures the decoder still holds join the queue.
  void flush();
  // Size and frame number of the oldest queued picture; false when none is queued.
  bool peek(uint32_t *width, uint32_t *height, int64_t *frame = nullptr) const;
  // Writes the oldest queued picture into out (YUV420SP, out's format and strides) and drops
  // it from the queue.
  void take(const Image &out);
  // Drops the oldest queued picture (a skipped frame, or one whose output did not fit).
  void take_discard();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace openacl::dvpp
