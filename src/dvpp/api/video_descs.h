// The objects behind the VDEC and VENC handles: stream descriptions (one frame of an
// elementary stream), channel descriptions (which also hold a created channel's codec and
// stream) and frame configs. Tagged like the picture objects (dvpp/api/descs.h).
#pragma once

#include <cstdint>
#include <memory>

#include "dvpp/api/descs.h"
#include "dvpp/video_decoder.h"
#include "dvpp/video_encoder.h"

namespace openacl::dvpp::api {

enum class VideoTag : uint32_t {
  stream = 0x44565654,      // DVVT
  vdec = 0x44565644,        // DVVD
  frame = 0x44565646,       // DVVF
  venc = 0x44565645,        // DVVE
  venc_frame = 0x44565647,  // DVVG
};

}  // namespace openacl::dvpp::api

struct acldvppStreamDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag =
      static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::stream);
  acldvppStreamDesc() : Tagged(kTag) {}
  void *data = nullptr;
  uint32_t size = 0;
  uint32_t format = H264_MAIN_LEVEL;
  uint64_t timestamp = 0;
  uint32_t ret_code = 0;
  uint8_t eos = 0;
};

struct aclvdecFrameConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag =
      static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::frame);
  aclvdecFrameConfig() : Tagged(kTag) {}
};

namespace openacl::dvpp::api {
struct VdecOutputs;  // a channel's frames waiting for their pictures and callbacks (vdec.cpp)
}  // namespace openacl::dvpp::api

struct aclvdecChannelDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag =
      static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::vdec);
  aclvdecChannelDesc() : Tagged(kTag) {}
  uint32_t channel_id = 0;
  uint64_t thread_id = 0;
  aclvdecCallback callback = nullptr;
  uint32_t en_type = H265_MAIN_LEVEL;
  uint32_t out_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t out_width = 0, out_height = 0, ref_frame_num = 0, bit_depth = 0, out_mode = 0;
  uint32_t csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
  // A created channel (aclvdecCreateChannel): its decoder, used by the tasks of its stream,
  // whose callbacks run on the thread_id thread.
  std::shared_ptr<openacl::dvpp::VideoDecoder> decoder;
  std::shared_ptr<openacl::dvpp::api::VdecOutputs> outputs;
  aclrtStream stream = nullptr;
};

struct aclvencFrameConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag =
      static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::venc_frame);
  aclvencFrameConfig() : Tagged(kTag) {}
  uint8_t force_i_frame = 0, eos = 0;
};

struct aclvencChannelDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag =
      static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::venc);
  aclvencChannelDesc() : Tagged(kTag) {}
  uint64_t thread_id = 0;
  aclvencCallback callback = nullptr;
  uint32_t en_type = H265_MAIN_LEVEL;
  uint32_t pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t pic_width = 0, pic_height = 0, key_frame_interval = 16;
  void *buf_addr = nullptr;
  uint32_t buf_size = 0, rc_mode = 0, src_rate = 0, max_bit_rate = 0, max_ip_prop = 0;
  // A created channel (aclvencCreateChannel): its id, encoder and stream (whose callbacks run
  // on the thread_id thread), the buffer its tasks write each frame's stream into (its own
  // acldvppMalloc buffer when the program gave none) and the description handed to callbacks.
  uint32_t channel_id = 0;
  std::shared_ptr<openacl::dvpp::VideoEncoder> encoder;
  aclrtStream stream = nullptr;
  void *own_buffer = nullptr;
  void *out_data = nullptr;
  uint32_t out_capacity = 0;
  std::unique_ptr<acldvppStreamDesc> output;
  bool ended = false;  // the end of stream was sent
};
