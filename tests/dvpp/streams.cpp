#include "dvpp/streams.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

#include <cstring>

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

std::vector<std::vector<uint8_t>> encode_video(bool hevc) {
  av_log_set_level(AV_LOG_ERROR);  // the encoders' statistics
  const AVCodec *codec = avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
  if (codec == nullptr) return {};
  AVCodecContext *c = avcodec_alloc_context3(codec);
  c->width = kW, c->height = kH, c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = {1, 25};
  c->max_b_frames = 0;
  c->gop_size = 4;
  if (hevc) {
    av_opt_set(c->priv_data, "x265-params", "lossless=1:bframes=0:log-level=none", 0);
  } else {
    av_opt_set(c->priv_data, "qp", "0", 0);
    av_opt_set(c->priv_data, "tune", "zerolatency", 0);
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
