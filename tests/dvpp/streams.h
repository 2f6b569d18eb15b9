// Test video streams for the DVPP suite: a lossless H.264 (libx264) or H.265 (libx265) stream
// of moving gradients made with FFmpeg's encoders, one packet per frame, with or without frame
// reordering (B-frames).
#pragma once

#include <cstdint>
#include <vector>

namespace dvt {

constexpr int kVideoW = 96, kVideoH = 64, kVideoFrames = 8;

// Frame i as I420 planes.
std::vector<uint8_t> frame_i420(int i);
// Frame i as NV12, strides the frame's size (what a decoder writes for it).
std::vector<uint8_t> frame_nv12(int i);
// The stream's packets, in decoding order; empty when libavcodec lacks the encoder. b_frames:
// the most B-frames in a row (0: pictures in decoding order are in display order). pts, when
// given, gets each packet's picture's display index (frame_i420's i).
std::vector<std::vector<uint8_t>> encode_video(bool hevc, int b_frames = 0,
                                               std::vector<int64_t> *pts = nullptr);

// libavcodec's own decode of `packets` (display order, as a player shows them): each picture as
// NV12 (strides the frame's size) with the index of the packet it was decoded from.
struct DecodedPicture {
  int64_t pts;  // the packet's index in `packets`
  std::vector<uint8_t> nv12;
};
std::vector<DecodedPicture> reference_decode(bool hevc,
                                             const std::vector<std::vector<uint8_t>> &packets);

}  // namespace dvt
