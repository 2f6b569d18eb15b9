#include "dvpp/video_encoder.h"

#include <cmath>
#include <cstring>
#include <new>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/opt.h>
}

#include "core/status.h"

namespace openacl::dvpp {

struct VideoEncoder::State {
  AVCodecContext *ctx = nullptr;
  AVFrame *frame = nullptr;
  AVPacket *packet = nullptr;
  int64_t pts = 0;
  int qp = -1;

  void collect(std::vector<uint8_t> &out) {
    for (;;) {
      int rc = avcodec_receive_packet(ctx, packet);
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
      if (rc != 0)
        fail(Errc::task_failure,
             "VENC: the encoder failed (libavcodec error " + std::to_string(rc) + ")");
      out.insert(out.end(), packet->data, packet->data + packet->size);
      // The encoders report the picture's QP as a lambda (QP * FF_QP2LAMBDA).
      size_t n = 0;
      if (const uint8_t *stats = av_packet_get_side_data(packet, AV_PKT_DATA_QUALITY_STATS, &n);
          stats != nullptr && n >= 4)
        qp = (int(AV_RL32(stats)) + FF_QP2LAMBDA / 2) / FF_QP2LAMBDA;
      av_packet_unref(packet);
    }
  }
};

VideoEncoder::VideoEncoder(const EncoderSettings &settings) : s_(std::make_unique<State>()) {
  const char *name = settings.hevc ? "libx265" : "libx264";
  const AVCodec *codec = avcodec_find_encoder_by_name(name);
  if (codec == nullptr) fail(Errc::internal, std::string("libavcodec has no ") + name + " encoder");
  AVCodecContext *c = s_->ctx = avcodec_alloc_context3(codec);
  s_->frame = av_frame_alloc();
  s_->packet = av_packet_alloc();
  if (c == nullptr || s_->frame == nullptr || s_->packet == nullptr) throw std::bad_alloc();
  c->width = static_cast<int>(settings.width);
  c->height = static_cast<int>(settings.height);
  c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = {1, static_cast<int>(settings.frame_rate)};
  c->framerate = {static_cast<int>(settings.frame_rate), 1};
  c->gop_size = static_cast<int>(settings.key_frame_interval);
  c->max_b_frames = 0;
  c->thread_count = 1;  // frame threads would hold pictures back
  if (settings.max_bit_rate != 0 && !settings.fixed_qp) {
    const int64_t bps = int64_t{settings.max_bit_rate} * 1000;
    c->bit_rate = bps;
    c->rc_max_rate = bps;
    c->rc_buffer_size = static_cast<int>(bps);
    if (settings.constant_rate) c->rc_min_rate = bps;
  }
  av_opt_set(c->priv_data, "tune", "zerolatency", 0);
  av_opt_set_int(c->priv_data, "forced-idr", 1, 0);
  if (settings.profile != nullptr) av_opt_set(c->priv_data, "profile", settings.profile, 0);
  // Quiet encoders (their statistics would go to the program's stderr); closed GOPs, so that a
  // forced I-frame is an IDR picture.
  std::string params = settings.hevc ? "log-level=none:open-gop=0" : "log=-1";
  // Constant QP: the encoders give I pictures qp - 6 * log2(ipratio).
  if (settings.fixed_qp)
    params += ":qp=" + std::to_string(settings.p_qp) + ":ipratio=" +
              std::to_string(std::exp2((double(settings.p_qp) - settings.i_qp) / 6.0));
  av_opt_set(c->priv_data, settings.hevc ? "x265-params" : "x264-params", params.c_str(), 0);
  if (avcodec_open2(c, codec, nullptr) != 0)
    fail(Errc::internal, std::string("libavcodec could not open its ") + name + " encoder for " +
                             std::to_string(settings.width) + "x" +
                             std::to_string(settings.height));
  s_->frame->width = c->width;
  s_->frame->height = c->height;
  s_->frame->format = AV_PIX_FMT_YUV420P;
  if (av_frame_get_buffer(s_->frame, 0) != 0) throw std::bad_alloc();
}

VideoEncoder::~VideoEncoder() {
  av_packet_free(&s_->packet);
  av_frame_free(&s_->frame);
  avcodec_free_context(&s_->ctx);
}

void VideoEncoder::encode(const Image &in, bool force_idr, std::vector<uint8_t> &out) {
  AVFrame *f = s_->frame;
  if (av_frame_make_writable(f) != 0) throw std::bad_alloc();
  for (uint32_t y = 0; y < in.height; ++y)
    std::memcpy(f->data[0] + size_t(y) * f->linesize[0], in.data + size_t{y} * in.width_stride,
                in.width);
  // The interleaved chroma plane into the U and V planes (NV21 stores V first).
  const uint8_t *uv = in.data + size_t{in.width_stride} * in.height_stride;
  const int u = v_first(in.format) ? 1 : 0;
  for (uint32_t y = 0; y < in.height / 2; ++y) {
    const uint8_t *row = uv + size_t{y} * in.width_stride;
    uint8_t *pu = f->data[1] + size_t(y) * f->linesize[1],
            *pv = f->data[2] + size_t(y) * f->linesize[2];
    for (uint32_t x = 0; x < in.width / 2; ++x) pu[x] = row[2 * x + u], pv[x] = row[2 * x + 1 - u];
  }
  f->pts = s_->pts++;
  f->pict_type = force_idr ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
  if (avcodec_send_frame(s_->ctx, f) != 0)
    fail(Errc::task_failure, "VENC: the encoder refused the picture");
  s_->collect(out);
}

int VideoEncoder::last_qp() const { return s_->qp; }

void VideoEncoder::flush(std::vector<uint8_t> &out) {
  if (avcodec_send_frame(s_->ctx, nullptr) != 0) return;  // already flushed
  s_->collect(out);
}

}  // namespace openacl::dvpp
