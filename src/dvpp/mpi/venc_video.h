// H.264 / H.265 channels of CANN's V2 VENC (hi_mpi_venc_* with HI_PT_H264 / HI_PT_H265), on
// the V1 video encoder (dvpp/video_encoder.h): the channel attributes as encoder settings, and
// each frame's access unit cut into packs, one per NAL unit, typed as CANN types them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/dvpp/hi_dvpp_venc.h"
#include "dvpp/image.h"
#include "dvpp/video_encoder.h"

namespace openacl::dvpp::mpi {

// Bytes [offset, offset + len) of an encoded frame's buffer.
struct StreamPack {
  uint32_t offset = 0, len = 0;
  hi_venc_data_type type{};
};

// What an encode task wrote into its buffer (JPEG: one pack).
struct EncodeResult {
  uint32_t size = 0;
  std::vector<StreamPack> packs;
  bool idr = false;
  int qp = -1;  // of a video frame, as the encoder reports it
};

// The YUV420SP picture of a frame as the encoders take it: chroma right after height_stride
// rows of luma (height_stride[0], or where virt_addr[1] says when it is 0, as samples leave it).
Image frame_picture(const hi_video_frame_info &frame);

// The encoder for an H.264 / H.265 channel's attributes, which it checks first: pictures even,
// 128x128 to 4096x4096; H.264 profiles 0..2 (baseline, main, high), H.265 profile 0 (main);
// rate control CBR, VBR / AVBR / QVBR / CVBR as a capped variable rate, or FIXQP (QPMAP is
// HI_ERR_NOT_SUPPORT); GOP modes without B-frames.
std::shared_ptr<VideoEncoder> make_video_encoder(const hi_venc_chn_attr &attr);

// A buffer that holds any frame's stream at this size (the V1 VENC's rule).
uint32_t video_stream_capacity(uint32_t width, uint32_t height);

// Encodes one picture into data (fails when the stream does not fit) and records its packs.
void encode_video_frame(VideoEncoder &encoder, bool hevc, const Image &in, bool force_idr,
                        uint8_t *data, uint32_t capacity, EncodeResult &out);

// Lays the encoded frame's packs out in stream.pack (a video frame: one NAL unit a pack while
// pack_cnt lasts, the last pack given holding the rest, listed in its pack_info) and sets
// pack_cnt.
void fill_packs(const EncodeResult &result, uint8_t *data, hi_venc_stream &stream);
// The h264_info / h265_info of a video frame: its bytes, whether it is an IDR picture and its
// QP (start_qp and mean_qp: the encoders report one QP a picture).
void fill_video_info(const EncodeResult &result, bool hevc, hi_venc_stream &stream);

}  // namespace openacl::dvpp::mpi
