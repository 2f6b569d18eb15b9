// Test video streams for the DVPP suite: a lossless H.264 (libx264) or H.265 (libx265) stream
// of moving gradients made with FFmpeg's encoders, one packet per frame, no frame reordering.
#pragma once

#include <cstdint>
#include <vector>

namespace dvt {

constexpr int kVideoW = 96, kVideoH = 64, kVideoFrames = 8;

// Frame i as I420 planes.
std::vector<uint8_t> frame_i420(int i);
// Frame i as NV12, strides the frame's size (what a decoder writes for it).
std::vector<uint8_t> frame_nv12(int i);
// The stream's packets; empty when libavcodec lacks the encoder.
std::vector<std::vector<uint8_t>> encode_video(bool hevc);

}  // namespace dvt
