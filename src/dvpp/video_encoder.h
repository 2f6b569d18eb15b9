// VENC on the CPU: one channel's H.264 / H.265 encoder (FFmpeg's libavcodec with libx264 /
// libx265), one access unit out for each picture in: no B-frames, no lookahead
// ("zerolatency"), as CANN's VENC returns each frame's stream in its callback.
//
// Thread safety: none; a channel's encoder is used only by the tasks of the channel's own
// stream, which run one at a time, in order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dvpp/image.h"

namespace openacl::dvpp {

struct EncoderSettings {
  bool hevc = false;  // H.265 (H265_MAIN_LEVEL), else H.264
  uint32_t width = 0, height = 0;
  uint32_t key_frame_interval = 16;  // GOP length
  uint32_t frame_rate = 30;          // frames a second (CANN's srcRate)
  uint32_t max_bit_rate = 0;         // kbit/s; 0: the encoder's constant-quality default
  bool constant_rate = false;        // CANN's rcMode 2 (CBR): the bit rate is also the minimum
  const char *profile = nullptr;  // libx264's / libx265's profile name; NULL: the encoder's choice
  // Fixed QP (CANN's FIXQP rate control) when fixed_qp: P pictures at p_qp, I pictures at i_qp;
  // max_bit_rate is not used then.
  bool fixed_qp = false;
  uint32_t i_qp = 0, p_qp = 0;
};

class VideoEncoder {
 public:
  // Throws Errc::internal when libavcodec lacks the encoder or cannot open it.
  explicit VideoEncoder(const EncoderSettings &settings);
  ~VideoEncoder();
  VideoEncoder(const VideoEncoder &) = delete;
  VideoEncoder &operator=(const VideoEncoder &) = delete;

  // Encodes one YUV420SP picture (NV12 or NV21, the settings' size) and appends the Annex B
  // bytes it gave to out. force_idr starts a new GOP with an IDR picture.
  void encode(const Image &in, bool force_idr, std::vector<uint8_t> &out);
  // End of stream: appends what the encoder still held.
  void flush(std::vector<uint8_t> &out);
  // The QP of the last picture the encoder gave (libavcodec's encoder statistics), -1 before.
  int last_qp() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace openacl::dvpp
