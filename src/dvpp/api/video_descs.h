// The objects behind the VDEC handles: stream descriptions (one frame of an elementary
// stream), VDEC channel descriptions (which also hold a created channel's decoder and stream)
// and frame configs. Tagged like the picture objects (dvpp/api/descs.h).
#pragma once

#include <cstdint>
#include <memory>

#include "dvpp/api/descs.h"
#include "dvpp/video_decoder.h"

namespace openacl::dvpp::api {

enum class VideoTag : uint32_t {
  stream = 0x44565654,   // DVVT
  vdec = 0x44565644,     // DVVD
  frame = 0x44565646,    // DVVF
};

}  // namespace openacl::dvpp::api

struct acldvppStreamDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::stream);
  acldvppStreamDesc() : Tagged(kTag) {}
  void *data = nullptr;
  uint32_t size = 0;
  uint32_t format = H264_MAIN_LEVEL;
  uint64_t timestamp = 0;
  uint32_t ret_code = 0;
  uint8_t eos = 0;
};

struct aclvdecFrameConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::frame);
  aclvdecFrameConfig() : Tagged(kTag) {}
};

struct aclvdecChannelDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = static_cast<openacl::dvpp::api::Tag>(openacl::dvpp::api::VideoTag::vdec);
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
  aclrtStream stream = nullptr;
};
