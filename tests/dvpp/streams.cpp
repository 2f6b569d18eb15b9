#include "dvpp/streams.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

#include <cstring>
#include <string>

namespace dvt {

namespace {
constexpr int kW = kVideoW, kH = kVideoH, kFrames = kVideoFrames;
}  // namespace

std::vector<uint8_t> frame_i420(int i) {
  std::vector<uint8_t> f(kW * kH * 3 / 2);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) f[y * kW + x] = uint8_t(16 + (x * 2 + y + i * 5) % 200);
  for (int k = 0; k < 2; ++k)
    for (int y = 0; y < kH / 2; ++y)
      for (int x = 0; x < kW / 2; ++x)
        f[kW * kH + k * kW * kH / 4 + y * kW / 2 + x] = uint8_t(100 + k * 40 + (x + i) % 30);
  return f;
}

std::vector<std::vector<uint8_t>> encode_video(bool hevc, int b_frames, std::vector<int64_t> *pts) {
  av_log_set_level(AV_LOG_ERROR);  // the encoders' statistics
  const AVCodec *codec = avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
  if (codec == nullptr) return {};
  AVCodecContext *c = avcodec_alloc_context3(codec);
  c->width = kW, c->height = kH, c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = {1, 25};
  c->max_b_frames = b_frames;
  c->gop_size = b_frames ? kFrames : 4;
  if (hevc) {
    const std::string params =
        "lossless=1:bframes=" + std::to_string(b_frames) + ":b-adapt=0:log-level=none";
    av_opt_set(c->priv_data, "x265-params", params.c_str(), 0);
  } else {
    // libx264's lossless mode (qp 0) makes no B-frames: a reordered stream is lossy.
    av_opt_set(c->priv_data, "qp", b_frames ? "10" : "0", 0);
    if (b_frames == 0) av_opt_set(c->priv_data, "tune", "zerolatency", 0);
    else av_opt_set(c->priv_data, "x264-params", "b-adapt=0", 0);
  }
  std::vector<std::vector<uint8_t>> packets;
  if (avcodec_open2(c, codec, nullptr) != 0) return {};
  AVFrame *f = av_frame_alloc();
  f->width = kW, f->height = kH, f->format = AV_PIX_FMT_YUV420P;
  av_frame_get_buffer(f, 0);
  AVPacket *p = av_packet_alloc();
  auto collect = [&] {
    while (avcodec_receive_packet(c, p) == 0) {
      packets.emplace_back(p->data, p->data + p->size);
      if (pts != nullptr) pts->push_back(p->pts);
      av_packet_unref(p);
    }
  };
  for (int i = 0; i < kFrames; ++i) {
    av_frame_make_writable(f);
    std::vector<uint8_t> src = frame_i420(i);
    for (int y = 0; y < kH; ++y) std::memcpy(f->data[0] + y * f->linesize[0], &src[y * kW], kW);
    for (int k = 0; k < 2; ++k)
      for (int y = 0; y < kH / 2; ++y)
        std::memcpy(f->data[1 + k] + y * f->linesize[1 + k],
                    &src[kW * kH + k * kW * kH / 4 + y * kW / 2], kW / 2);
    f->pts = i;
    avcodec_send_frame(c, f);
    collect();
  }
  avcodec_send_frame(c, nullptr);
  collect();
  av_packet_free(&p);
  av_frame_free(&f);
  avcodec_free_context(&c);
  return packets;
}

std::vector<DecodedPicture> reference_decode(bool hevc,
                                             const std::vector<std::vector<uint8_t>> &packets) {
  const AVCodec *codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  AVCodecContext *c = avcodec_alloc_context3(codec);
  c->thread_count = 1;
  std::vector<DecodedPicture> out;
  if (avcodec_open2(c, codec, nullptr) != 0) return out;
  AVPacket *p = av_packet_alloc();
  AVFrame *f = av_frame_alloc();
  auto collect = [&] {
    while (avcodec_receive_frame(c, f) == 0) {
      DecodedPicture &d = out.emplace_back();
      d.pts = f->pts;
      d.nv12.resize(kW * kH * 3 / 2);
      for (int y = 0; y < kH; ++y)
        std::memcpy(&d.nv12[y * kW], f->data[0] + y * f->linesize[0], kW);
      for (int y = 0; y < kH / 2; ++y)
        for (int x = 0; x < kW / 2; ++x) {
          d.nv12[kW * kH + y * kW + 2 * x] = f->data[1][y * f->linesize[1] + x];
          d.nv12[kW * kH + y * kW + 2 * x + 1] = f->data[2][y * f->linesize[2] + x];
        }
      av_frame_unref(f);
    }
  };
  for (size_t i = 0; i < packets.size(); ++i) {
    av_new_packet(p, static_cast<int>(packets[i].size()));
    std::memcpy(p->data, packets[i].data(), packets[i].size());
    p->pts = static_cast<int64_t>(i);
    avcodec_send_packet(c, p);
    av_packet_unref(p);
    collect();
  }
  avcodec_send_packet(c, nullptr);
  collect();
  av_frame_free(&f);
  av_packet_free(&p);
  avcodec_free_context(&c);
  return out;
}

std::vector<uint8_t> frame_nv12(int i) {
  std::vector<uint8_t> src = frame_i420(i), nv(kW * kH * 3 / 2);
  std::memcpy(nv.data(), src.data(), kW * kH);
  for (int y = 0; y < kH / 2; ++y)
    for (int x = 0; x < kW / 2; ++x) {
      nv[kW * kH + y * kW + 2 * x] = src[kW * kH + y * kW / 2 + x];
      nv[kW * kH + y * kW + 2 * x + 1] = src[kW * kH * 5 / 4 + y * kW / 2 + x];
    }
  return nv;
}

}  // namespace dvt
