// VENC against FFmpeg's decoders: NV12 / NV21 frames encoded through aclvencSendFrame to H.264
// and H.265 decode (libavcodec, in the test) to pictures within a PSNR bound of the input;
// each frame's stream arrives in its own callback on the program's thread, in order, a forced
// I-frame is an IDR picture, and the end of stream has its callback; misuse gets errors.
// The V2 calls (hi_mpi_venc_*) on the same settings give the V1 bytes, one NAL unit a pack.
#include <gtest/gtest.h>
#include <poll.h>
#include <pthread.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
}

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/dvpp/hi_dvpp.h"
#include "dvpp/images.h"
#include "support/staging_device.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

constexpr uint32_t kW = 160, kH = 128, kFrames = 8, kForced = 5;

// Frame i in YUV420SP (V first for NV21): a moving gradient with a square, smooth enough for a
// lossy encoder to keep it well.
std::vector<uint8_t> frame_nv(uint32_t i, bool nv21) {
  std::vector<uint8_t> f(kW * kH * 3 / 2);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      bool square = x >= 20 + 4 * i && x < 60 + 4 * i && y >= 30 && y < 70;
      f[y * kW + x] = uint8_t(square ? 220 : 30 + (x + y + 3 * i) / 2);
    }
  for (uint32_t y = 0; y < kH / 2; ++y)
    for (uint32_t x = 0; x < kW / 2; ++x) {
      uint8_t u = uint8_t(90 + x / 4), v = uint8_t(150 - y / 4 + i);
      f[kW * kH + y * kW + 2 * x] = nv21 ? v : u;
      f[kW * kH + y * kW + 2 * x + 1] = nv21 ? u : v;
    }
  return f;
}

struct Received {
  std::mutex mu;
  std::vector<std::vector<uint8_t>> streams;
  std::vector<uint32_t> ret_codes;
  std::vector<intptr_t> user_data;
  std::vector<bool> inputs, eos;
  std::atomic<bool> wrong_thread{false};
  uint64_t thread = 0;
};
Received *g_received = nullptr;

void on_stream(acldvppPicDesc *input, acldvppStreamDesc *output, void *user_data) {
  Received &r = *g_received;
  if (static_cast<uint64_t>(pthread_self()) != r.thread) r.wrong_thread = true;
  std::vector<uint8_t> bytes(acldvppGetStreamDescSize(output));
  if (!bytes.empty())
    aclrtMemcpy(bytes.data(), bytes.size(), acldvppGetStreamDescData(output), bytes.size(),
                ACL_MEMCPY_DEVICE_TO_HOST);
  std::lock_guard lock(r.mu);
  r.streams.push_back(std::move(bytes));
  r.ret_codes.push_back(acldvppGetStreamDescRetCode(output));
  r.user_data.push_back(reinterpret_cast<intptr_t>(user_data));
  r.inputs.push_back(input != nullptr);
  r.eos.push_back(acldvppGetStreamDescEos(output) != 0);
}

// Whether an Annex B access unit holds an IDR picture.
bool has_idr(const std::vector<uint8_t> &au, bool hevc) {
  for (size_t i = 0; i + 3 < au.size(); ++i) {
    if (au[i] != 0 || au[i + 1] != 0 || au[i + 2] != 1) continue;
    const uint8_t h = au[i + 3];
    if (hevc ? ((h >> 1) & 0x3F) == 19 || ((h >> 1) & 0x3F) == 20 : (h & 0x1F) == 5) return true;
  }
  return false;
}

// Decodes the access units with libavcodec; the pictures as I420.
std::vector<std::vector<uint8_t>> decode(const std::vector<std::vector<uint8_t>> &aus, bool hevc) {
  const AVCodec *codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  AVCodecContext *c = avcodec_alloc_context3(codec);
  c->flags |= AV_CODEC_FLAG_LOW_DELAY;
  std::vector<std::vector<uint8_t>> pictures;
  if (avcodec_open2(c, codec, nullptr) != 0) return pictures;
  AVPacket *p = av_packet_alloc();
  AVFrame *f = av_frame_alloc();
  auto collect = [&] {
    while (avcodec_receive_frame(c, f) == 0) {
      std::vector<uint8_t> pic(kW * kH * 3 / 2);
      for (uint32_t y = 0; y < kH; ++y)
        std::memcpy(&pic[y * kW], f->data[0] + y * f->linesize[0], kW);
      for (int k = 0; k < 2; ++k)
        for (uint32_t y = 0; y < kH / 2; ++y)
          std::memcpy(&pic[kW * kH + k * kW * kH / 4 + y * kW / 2],
                      f->data[1 + k] + y * f->linesize[1 + k], kW / 2);
      pictures.push_back(std::move(pic));
    }
  };
  for (const auto &au : aus) {
    if (au.empty()) continue;
    av_new_packet(p, int(au.size()));
    std::memcpy(p->data, au.data(), au.size());
    avcodec_send_packet(c, p);
    av_packet_unref(p);
    collect();
  }
  avcodec_send_packet(c, nullptr);
  collect();
  av_frame_free(&f);
  av_packet_free(&p);
  avcodec_free_context(&c);
  return pictures;
}

// PSNR of the decoded I420 picture against the YUV420SP input.
double psnr(const std::vector<uint8_t> &i420, const std::vector<uint8_t> &nv, bool nv21) {
  double se = 0;
  for (uint32_t i = 0; i < kW * kH; ++i) se += std::pow(double(i420[i]) - nv[i], 2);
  for (uint32_t y = 0; y < kH / 2; ++y)
    for (uint32_t x = 0; x < kW / 2; ++x)
      for (int k = 0; k < 2; ++k) {
        double want = nv[kW * kH + y * kW + 2 * x + (nv21 ? 1 - k : k)];
        se += std::pow(double(i420[kW * kH + k * kW * kH / 4 + y * kW / 2 + x]) - want, 2);
      }
  double mse = se / (kW * kH * 3 / 2);
  return mse == 0 ? 99 : 10 * std::log10(255.0 * 255.0 / mse);
}

struct Reporter {
  std::atomic<bool> run{true};
  std::atomic<uint64_t> tid{0};
  std::thread thread;
  Reporter() {
    aclrtContext ctx = nullptr;
    aclrtGetCurrentContext(&ctx);
    thread = std::thread([this, ctx] {
      aclrtSetCurrentContext(ctx);
      tid = static_cast<uint64_t>(pthread_self());
      while (run) aclrtProcessReport(100);
    });
    while (tid == 0) std::this_thread::yield();
  }
  ~Reporter() {
    run = false;
    thread.join();
  }
};

struct Case {
  bool hevc, nv21;
};

class Venc : public DvppTest, public ::testing::WithParamInterface<Case> {
 protected:
  void SetUp() override {
    DvppTest::SetUp();
    if (avcodec_find_encoder_by_name(GetParam().hevc ? "libx265" : "libx264") == nullptr)
      GTEST_SKIP() << "libavcodec has no " << (GetParam().hevc ? "libx265" : "libx264")
                   << " encoder";
  }
  // Encodes the kFrames frames through aclvenc*, frame kForced forced to an I-frame, GOP 100;
  // max_bit_rate 0: the encoder's default rate control, else CBR (rcMode 2) at that rate.
  // bare: the frames' descriptions give only data and size, as Huawei's venc_image sample's,
  // and reserve is not NULL, as in its venc sample.
  void encode_v1(Received &received, uint32_t max_bit_rate, bool bare = false);
  // One stream per frame, each decoding close to its frame, then the end of stream's.
  void encodes_frames_that_decode_close(bool bare = false) {
    const Case c = GetParam();
    Received received;
    ASSERT_NO_FATAL_FAILURE(encode_v1(received, 0, bare));

    // One callback per frame, then the end of stream's.
    ASSERT_EQ(received.streams.size(), size_t{kFrames + 1});
    EXPECT_FALSE(received.wrong_thread);
    for (uint32_t i = 0; i < kFrames; ++i) {
      EXPECT_EQ(received.user_data[i], 100 + i);
      EXPECT_EQ(received.ret_codes[i], 0u) << "frame " << i;
      EXPECT_TRUE(received.inputs[i]);
      EXPECT_FALSE(received.eos[i]);
      EXPECT_FALSE(received.streams[i].empty()) << "frame " << i;
      EXPECT_EQ(has_idr(received.streams[i], c.hevc), i == 0 || i == kForced) << "frame " << i;
    }
    EXPECT_TRUE(received.eos[kFrames]);
    EXPECT_FALSE(received.inputs[kFrames]);

    std::vector<std::vector<uint8_t>> pictures = decode(received.streams, c.hevc);
    ASSERT_EQ(pictures.size(), size_t{kFrames});
    for (uint32_t i = 0; i < kFrames; ++i)
      EXPECT_GE(psnr(pictures[i], frame_nv(i, c.nv21), c.nv21), 35.0) << "frame " << i;
  }
};

void Venc::encode_v1(Received &received, uint32_t max_bit_rate, bool bare) {
  const Case c = GetParam();
  g_received = &received;
  Reporter reporter;
  received.thread = reporter.tid;
  const acldvppPixelFormat format =
      c.nv21 ? PIXEL_FORMAT_YVU_SEMIPLANAR_420 : PIXEL_FORMAT_YUV_SEMIPLANAR_420;

  aclvencChannelDesc *venc = aclvencCreateChannelDesc();
  ASSERT_EQ(aclvencSetChannelDescThreadId(venc, reporter.tid), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescCallback(venc, on_stream), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescEnType(venc, c.hevc ? H265_MAIN_LEVEL : H264_MAIN_LEVEL),
            ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicFormat(venc, format), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicWidth(venc, kW), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicHeight(venc, kH), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescKeyFrameInterval(venc, 100), ACL_SUCCESS);  // IDR only when forced
  if (max_bit_rate != 0) {
    ASSERT_EQ(aclvencSetChannelDescRcMode(venc, 2), ACL_SUCCESS);
    ASSERT_EQ(aclvencSetChannelDescMaxBitRate(venc, max_bit_rate), ACL_SUCCESS);
  }
  ASSERT_EQ(aclvencCreateChannel(venc), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(aclvencSetChannelDescPicWidth(venc, 64), ACL_ERROR_INVALID_PARAM);

  aclvencFrameConfig *config = aclvencCreateFrameConfig();
  acldvppStreamDesc *reserved = acldvppCreateStreamDesc();
  const uint32_t size = kW * kH * 3 / 2;
  for (uint32_t i = 0; i < kFrames; ++i) {
    ASSERT_EQ(aclvencSetFrameConfigForceIFrame(config, i == kForced ? 1 : 0), ACL_SUCCESS);
    void *data = dvpp_buffer(size, frame_nv(i, c.nv21));
    // A new description's format is 0 (PIXEL_FORMAT_YUV_400), its sizes 0.
    acldvppPicDesc *in = bare ? pic(data, size, PIXEL_FORMAT_YUV_400, 0, 0, 0, 0)
                              : pic(data, size, format, kW, kH, kW, kH);
    // reserve is not used: Huawei's venc sample passes a stream description there.
    ASSERT_EQ(aclvencSendFrame(venc, in, bare ? reserved : nullptr, config,
                               reinterpret_cast<void *>(intptr_t{100 + i})),
              ACL_SUCCESS)
        << recent_msg();
  }
  ASSERT_EQ(aclvencSetFrameConfigEos(config, 1), ACL_SUCCESS);
  ASSERT_EQ(aclvencSendFrame(venc, nullptr, nullptr, config, nullptr), ACL_SUCCESS) << recent_msg();
  {  // The end of stream's send returns after every callback (venc_image closes its file then).
    std::lock_guard lock(received.mu);
    EXPECT_EQ(received.streams.size(), size_t{kFrames + 1});
  }
  EXPECT_EQ(aclvencSendFrame(venc, nullptr, nullptr, config, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("has ended"), std::string::npos) << recent_msg();
  ASSERT_EQ(aclvencDestroyChannel(venc), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(aclvencDestroyFrameConfig(config), ACL_SUCCESS);
  EXPECT_EQ(acldvppDestroyStreamDesc(reserved), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);
  g_received = nullptr;
}

TEST_P(Venc, EncodesFramesThatDecodeCloseToTheInput) { encodes_frames_that_decode_close(); }

// CANN takes a frame description without a size as the channel's picture, and ignores reserve.
TEST_P(Venc, TakesADescriptionWithoutASizeAsTheChannelsPicture) {
  encodes_frames_that_decode_close(true);
}

// A frame in DVPP memory as the official venc_sample describes it: chroma right after the
// luma rows, height_stride left 0.
hi_video_frame_info v2_frame(void *data, bool nv21, uint64_t pts) {
  hi_video_frame_info f{};
  f.mod_id = HI_ID_VENC;
  f.v_frame.width = kW;
  f.v_frame.height = kH;
  f.v_frame.pixel_format =
      nv21 ? HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420 : HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  f.v_frame.width_stride[0] = f.v_frame.width_stride[1] = kW;
  f.v_frame.virt_addr[0] = data;
  f.v_frame.virt_addr[1] = static_cast<uint8_t *>(data) + kW * kH;
  f.v_frame.pts = pts;
  return f;
}

TEST_P(Venc, V2ChannelsGiveTheV1StreamOneNalUnitAPack) {
  const Case c = GetParam();
  const uint32_t kbps = 2000;
  Received v1;
  ASSERT_NO_FATAL_FAILURE(encode_v1(v1, kbps));
  ASSERT_EQ(v1.streams.size(), size_t{kFrames + 1});

  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << recent_msg();
  hi_venc_chn_attr attr{};
  attr.venc_attr.type = c.hevc ? HI_PT_H265 : HI_PT_H264;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = kW;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = kH;
  attr.venc_attr.buf_size = 1 << 20;
  attr.venc_attr.is_by_frame = HI_TRUE;
  attr.venc_attr.profile = c.hevc ? 0 : 2;  // main / high: what the V1 encoder makes
  attr.rc_attr.rc_mode = c.hevc ? HI_VENC_RC_MODE_H265_CBR : HI_VENC_RC_MODE_H264_CBR;
  attr.rc_attr.h264_cbr = {100, 1, 30, 30, kbps};  // gop, stats_time, frame rates, bit rate
  attr.gop_attr.gop_mode = HI_VENC_GOP_MODE_NORMAL_P;
  const hi_venc_chn chn = 3;
  ASSERT_EQ(hi_mpi_venc_create_chn(chn, &attr), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(hi_mpi_venc_set_scene_mode(chn, HI_VENC_SCENE_0), HI_SUCCESS);
  hi_venc_rc_param rc{};
  ASSERT_EQ(hi_mpi_venc_get_rc_param(chn, &rc), HI_SUCCESS);
  EXPECT_EQ(rc.first_frame_start_qp, -1);
  rc.first_frame_start_qp = 30;
  ASSERT_EQ(hi_mpi_venc_set_rc_param(chn, &rc), HI_SUCCESS);
  ASSERT_EQ(hi_mpi_venc_get_rc_param(chn, &rc), HI_SUCCESS);
  EXPECT_EQ(rc.first_frame_start_qp, 30);
  hi_venc_jpeg_param jpeg{};
  jpeg.qfactor = 50;
  EXPECT_EQ(hi_mpi_venc_set_jpeg_param(chn, &jpeg), static_cast<hi_s32>(HI_ERR_VENC_NOT_SUPPORT));
  hi_venc_start_param start{};
  start.recv_pic_num = -1;
  ASSERT_EQ(hi_mpi_venc_start_chn(chn, &start), HI_SUCCESS) << recent_msg();
  const int fd = hi_mpi_venc_get_fd(chn);
  ASSERT_GE(fd, 0) << recent_msg();

  std::vector<std::vector<uint8_t>> aus;
  const uint32_t size = kW * kH * 3 / 2;
  for (uint32_t i = 0; i < kFrames; ++i) {
    if (i == kForced) {
      ASSERT_EQ(hi_mpi_venc_request_idr(chn, HI_TRUE), HI_SUCCESS);
    }
    void *in = dvpp_buffer(size, frame_nv(i, c.nv21));
    const hi_video_frame_info frame = v2_frame(in, c.nv21, 500 + i);
    ASSERT_EQ(hi_mpi_venc_send_frame(chn, &frame, 0), HI_SUCCESS) << recent_msg();
    // The channel's descriptor turns readable when the stream is ready; its packs then known.
    pollfd p{fd, POLLIN, 0};
    ASSERT_EQ(poll(&p, 1, -1), 1);
    hi_venc_chn_status status{};
    ASSERT_EQ(hi_mpi_venc_query_status(chn, &status), HI_SUCCESS);
    EXPECT_EQ(status.left_stream_frames, 1u);
    const bool idr = i == 0 || i == kForced;
    if (idr) {
      EXPECT_GE(status.cur_packs, 3u) << "parameter sets and the slice, frame " << i;
    }
    // Frame 0 in a single pack: it holds them all, listed in its pack_info.
    const uint32_t given = i == 0 ? 1 : status.cur_packs;
    std::vector<hi_venc_pack> packs(given);
    hi_venc_stream stream{};
    stream.pack = packs.data();
    stream.pack_cnt = given;
    ASSERT_EQ(hi_mpi_venc_get_stream(chn, &stream, 0), HI_SUCCESS) << recent_msg();
    ASSERT_EQ(stream.pack_cnt, given);
    EXPECT_EQ(stream.seq, i);
    std::vector<uint8_t> au;
    for (const hi_venc_pack &k : packs) {
      au.insert(au.end(), k.addr + k.offset, k.addr + k.len);
      EXPECT_EQ(k.pts, 500u + i);
      EXPECT_EQ(k.input_addr, reinterpret_cast<hi_u64>(in));
    }
    EXPECT_EQ(packs.back().is_frame_end, HI_TRUE);
    const hi_venc_h264_stream_info &h264 = stream.h264_info;
    const hi_venc_h265_stream_info &h265 = stream.h265_info;
    EXPECT_EQ(c.hevc ? h265.pic_bytes : h264.pic_bytes, au.size());
    EXPECT_EQ(c.hevc ? h265.ref_type : h264.ref_type,
              idr ? HI_VENC_BASE_IDR_SLICE : HI_VENC_BASE_P_SLICE_REF_BY_BASE);
    if (i == 0) {
      EXPECT_EQ(packs[0].data_num, status.cur_packs);
      const hi_venc_data_type t = packs[0].pack_info[0].pack_type;
      EXPECT_EQ(c.hevc ? +t.h265_type : +t.h264_type,
                c.hevc ? +HI_VENC_H265_NALU_VPS : +HI_VENC_H264_NALU_SPS);
    } else {
      // The slice is the last NAL unit of a frame.
      const hi_venc_data_type t = packs.back().data_type;
      EXPECT_EQ(c.hevc ? +t.h265_type : +t.h264_type,
                idr ? (c.hevc ? +HI_VENC_H265_NALU_IDR_SLICE : +HI_VENC_H264_NALU_IDR_SLICE)
                    : (c.hevc ? +HI_VENC_H265_NALU_P_SLICE : +HI_VENC_H264_NALU_P_SLICE))
          << "frame " << i;
    }
    EXPECT_EQ(au, v1.streams[i]) << "frame " << i;
    EXPECT_EQ(hi_mpi_venc_release_stream(chn, &stream), HI_SUCCESS) << recent_msg();
    aus.push_back(std::move(au));
  }
  const std::vector<std::vector<uint8_t>> pictures = decode(aus, c.hevc);
  ASSERT_EQ(pictures.size(), size_t{kFrames});
  for (uint32_t i = 0; i < kFrames; ++i)
    EXPECT_GE(psnr(pictures[i], frame_nv(i, c.nv21), c.nv21), 35.0) << "frame " << i;
  EXPECT_EQ(hi_mpi_venc_stop_chn(chn), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_destroy_chn(chn), HI_SUCCESS) << recent_msg();

  // What openacl's encoders do not do is refused at create_chn, with the reason.
  hi_venc_chn_attr bad = attr;
  bad.rc_attr.rc_mode = c.hevc ? HI_VENC_RC_MODE_H265_QPMAP : HI_VENC_RC_MODE_H264_QPMAP;
  EXPECT_EQ(hi_mpi_venc_create_chn(chn, &bad), static_cast<hi_s32>(HI_ERR_VENC_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("QP-map"), std::string::npos) << recent_msg();
  bad = attr;
  bad.gop_attr.gop_mode = HI_VENC_GOP_MODE_BIPRED_B;
  EXPECT_EQ(hi_mpi_venc_create_chn(chn, &bad), static_cast<hi_s32>(HI_ERR_VENC_NOT_SUPPORT));
  bad = attr;
  bad.rc_attr.rc_mode = c.hevc ? HI_VENC_RC_MODE_H264_CBR : HI_VENC_RC_MODE_H265_CBR;
  EXPECT_EQ(hi_mpi_venc_create_chn(chn, &bad), static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM));
  bad = attr;
  bad.venc_attr.pic_width = 100;
  EXPECT_EQ(hi_mpi_venc_create_chn(chn, &bad), static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("128x128 to 4096x4096"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

// The access units of the kFrames frames encoded on a V2 channel of these attributes, and the
// QP each stream's info reports.
std::vector<std::vector<uint8_t>> encode_v2(const hi_venc_chn_attr &attr, bool nv21,
                                            std::vector<hi_u32> &qps) {
  std::vector<std::vector<uint8_t>> aus;
  std::vector<void *> buffers;
  const hi_venc_chn chn = 9;
  if (hi_mpi_venc_create_chn(chn, &attr) != HI_SUCCESS) {
    ADD_FAILURE() << recent_msg();
    return aus;
  }
  hi_venc_start_param start{};
  start.recv_pic_num = -1;
  EXPECT_EQ(hi_mpi_venc_start_chn(chn, &start), HI_SUCCESS);
  const uint32_t size = kW * kH * 3 / 2;
  for (uint32_t i = 0; i < kFrames; ++i) {
    void *in = nullptr;
    EXPECT_EQ(acldvppMalloc(&in, size), ACL_SUCCESS);
    buffers.push_back(in);
    const std::vector<uint8_t> f = frame_nv(i, nv21);
    EXPECT_EQ(aclrtMemcpy(in, size, f.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const hi_video_frame_info frame = v2_frame(in, nv21, i);
    EXPECT_EQ(hi_mpi_venc_send_frame(chn, &frame, -1), HI_SUCCESS) << recent_msg();
  }
  for (uint32_t i = 0; i < kFrames; ++i) {
    hi_venc_pack packs[HI_VENC_MAX_PACK_INFO_NUM]{};
    hi_venc_stream stream{};
    stream.pack = packs;
    stream.pack_cnt = HI_VENC_MAX_PACK_INFO_NUM;
    if (hi_mpi_venc_get_stream(chn, &stream, -1) != HI_SUCCESS) {
      ADD_FAILURE() << recent_msg();
      break;
    }
    std::vector<uint8_t> au;
    for (hi_u32 k = 0; k < stream.pack_cnt; ++k) {  // device memory: copied out
      const size_t n = packs[k].len - packs[k].offset, at = au.size();
      au.resize(at + n);
      EXPECT_EQ(aclrtMemcpy(au.data() + at, n, packs[k].addr + packs[k].offset, n,
                            ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
    }
    aus.push_back(std::move(au));
    qps.push_back(attr.venc_attr.type == HI_PT_H265 ? stream.h265_info.mean_qp
                                                    : stream.h264_info.mean_qp);
    EXPECT_EQ(hi_mpi_venc_release_stream(chn, &stream), HI_SUCCESS);
  }
  EXPECT_EQ(hi_mpi_venc_destroy_chn(chn), HI_SUCCESS) << recent_msg();
  for (void *b : buffers) acldvppFree(b);
  return aus;
}

// A channel of fixed QPs: i_qp for I pictures, qp for P and B.
hi_venc_chn_attr fixed_qp(bool hevc, hi_u32 i_qp, hi_u32 qp) {
  hi_venc_chn_attr attr{};
  attr.venc_attr.type = hevc ? HI_PT_H265 : HI_PT_H264;
  attr.venc_attr.pic_width = kW;
  attr.venc_attr.pic_height = kH;
  attr.rc_attr.rc_mode = hevc ? HI_VENC_RC_MODE_H265_FIXQP : HI_VENC_RC_MODE_H264_FIXQP;
  attr.rc_attr.h264_fixqp = {100, 30, 30, i_qp, qp, qp};  // gop, frame rates, I, P and B QPs
  return attr;
}

TEST_P(Venc, V2FixedQpGivesIPicturesTheirOwnQp) {
  const Case c = GetParam();
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << recent_msg();
  hi_venc_chn_attr attr = fixed_qp(c.hevc, 40, 40);
  std::vector<hi_u32> coarse_qp, fine_qp;
  const auto coarse = encode_v2(attr, c.nv21, coarse_qp);
  attr.rc_attr.h264_fixqp.i_qp = 20;  // a finer IDR picture, the same P pictures' QP
  const auto fine_i = encode_v2(attr, c.nv21, fine_qp);
  ASSERT_EQ(coarse.size(), size_t{kFrames});
  ASSERT_EQ(fine_i.size(), size_t{kFrames});
  // The stream info reports the QPs the channel asked for.
  std::vector<hi_u32> want(kFrames, 40);
  EXPECT_EQ(coarse_qp, want);
  want[0] = 20;
  EXPECT_EQ(fine_qp, want);
  EXPECT_GT(fine_i[0].size(), coarse[0].size());
  const auto a = decode(coarse, c.hevc), b = decode(fine_i, c.hevc);
  ASSERT_EQ(a.size(), size_t{kFrames});
  ASSERT_EQ(b.size(), size_t{kFrames});
  const double qp40 = psnr(a[0], frame_nv(0, c.nv21), c.nv21),
               qp20 = psnr(b[0], frame_nv(0, c.nv21), c.nv21);
  EXPECT_GT(qp20, qp40 + 3) << "QP 20 against 40: " << qp20 << " " << qp40;
  EXPECT_GT(qp40, 25.0);
  attr.rc_attr.h264_fixqp.p_qp = 52;
  EXPECT_EQ(hi_mpi_venc_create_chn(0, &attr), static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Codecs, Venc, ::testing::Values(Case{false, false}, Case{true, true}),
                         [](const auto &info) {
                           return info.param.hevc ? "H265_NV21" : "H264_NV12";
                         });

// On a backend whose device memory the host cannot address (support/staging_device.h): the
// frames are read and the stream written through host views the backend stages.
class VencOnStagingDevice : public Venc {
 protected:
  aclError init() override { return openacl::api::init_with(nullptr, staging::parts()); }
};

TEST_P(VencOnStagingDevice, EncodesFramesThatDecodeCloseToTheInput) {
  encodes_frames_that_decode_close();
}

// The V2 channels too: each frame read and each stream written through staged views.
TEST_P(VencOnStagingDevice, V2StreamsDecodeCloseToTheInput) {
  const Case c = GetParam();
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << recent_msg();
  const hi_venc_chn_attr attr = fixed_qp(c.hevc, 30, 30);
  std::vector<hi_u32> qps;
  const int views = staging::counts().views;
  const auto aus = encode_v2(attr, c.nv21, qps);
  ASSERT_EQ(aus.size(), size_t{kFrames});
  EXPECT_GE(staging::counts().views - views, static_cast<int>(2 * kFrames));
  EXPECT_EQ(qps, std::vector<hi_u32>(kFrames, 30));
  const auto pictures = decode(aus, c.hevc);
  ASSERT_EQ(pictures.size(), size_t{kFrames});
  for (uint32_t i = 0; i < kFrames; ++i)
    EXPECT_GE(psnr(pictures[i], frame_nv(i, c.nv21), c.nv21), 30.0) << "frame " << i;
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(H264, VencOnStagingDevice, ::testing::Values(Case{false, false}));

TEST_F(DvppTest, VencDescriptionsAndMisuse) {
  aclvencChannelDesc *venc = aclvencCreateChannelDesc();
  EXPECT_EQ(aclvencCreateChannel(venc), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("channelDesc has no callback"), std::string::npos) << recent_msg();
  uint32_t rate = 25, got = 0;
  size_t ret_size = 0;
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_SRC_RATE_UINT32, sizeof rate, &rate),
            ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescSrcRate(venc), 25u);
  EXPECT_EQ(aclvencGetChannelDescParam(venc, ACL_VENC_SRC_RATE_UINT32, sizeof got, &ret_size, &got),
            ACL_SUCCESS);
  EXPECT_EQ(got, 25u);
  EXPECT_EQ(ret_size, sizeof got);
  uint32_t rgb = PIXEL_FORMAT_RGB_888;
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_PIXEL_FORMAT_UINT32, sizeof rgb, &rgb),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_THREAD_ID_UINT64, 4, &rate),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetChannelDescMaxBitRate(venc, 3000), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescMaxBitRate(venc), 3000u);
  EXPECT_EQ(aclvencSetChannelDescRcMode(venc, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencGetChannelDescEnType(venc), H265_MAIN_LEVEL);
  EXPECT_EQ(aclvencGetChannelDescPicFormat(venc), PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(aclvencSetChannelDescCallback(venc, on_stream), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescThreadId(venc, 12345), ACL_SUCCESS);
  EXPECT_EQ(aclvencCreateChannel(venc), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("128x128 to 1920x1920"), std::string::npos) << recent_msg();
  EXPECT_EQ(aclvencSendFrame(venc, nullptr, nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("call aclvencCreateChannel first"), std::string::npos)
      << recent_msg();
  EXPECT_EQ(aclvencDestroyChannel(venc), ACL_ERROR_INVALID_PARAM);
  aclvencFrameConfig *config = aclvencCreateFrameConfig();
  EXPECT_EQ(aclvencSetFrameConfigEos(config, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetFrameConfigForceIFrame(config, 1), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetFrameConfigForceIFrame(config), 1);
  EXPECT_EQ(aclvencGetFrameConfigEos(config), 0);
  EXPECT_EQ(aclvencDestroyChannelDesc(reinterpret_cast<aclvencChannelDesc *>(config)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencDestroyFrameConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);
}

}  // namespace
