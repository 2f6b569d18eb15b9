#include "dvpp/video_decoder.h"

#include <cstring>
#include <deque>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
}

#include "core/status.h"

namespace openacl::dvpp {

struct VideoDecoder::State {
  AVCodecContext *ctx = nullptr;
  AVPacket *packet = nullptr;
  std::deque<AVFrame *> frames;

  // Moves every picture the decoder has ready into the queue.
  void drain() {
    for (;;) {
      AVFrame *f = av_frame_alloc();
      if (f == nullptr) throw std::bad_alloc();
      int rc = avcodec_receive_frame(ctx, f);
      if (rc != 0) {
        av_frame_free(&f);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
        fail(Errc::task_failure,
             "VDEC: the stream cannot be decoded (libavcodec error " + std::to_string(rc) + ")");
      }
      frames.push_back(f);
    }
  }
};

VideoDecoder::VideoDecoder(bool hevc, bool display_order) : s_(std::make_unique<State>()) {
  const AVCodec *codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  if (codec == nullptr)
    fail(Errc::internal,
         std::string("libavcodec has no ") + (hevc ? "H.265" : "H.264") + " decoder");
  s_->ctx = avcodec_alloc_context3(codec);
  s_->packet = av_packet_alloc();
  if (s_->ctx == nullptr || s_->packet == nullptr) throw std::bad_alloc();
  if (!display_order) s_->ctx->flags |= AV_CODEC_FLAG_LOW_DELAY;
  s_->ctx->thread_count = 1;  // frame threads would hold pictures back
  if (avcodec_open2(s_->ctx, codec, nullptr) != 0)
    fail(Errc::internal, "libavcodec could not open its decoder");
}

VideoDecoder::~VideoDecoder() {
  for (AVFrame *f : s_->frames) av_frame_free(&f);
  av_packet_free(&s_->packet);
  avcodec_free_context(&s_->ctx);
}

void VideoDecoder::send(const uint8_t *data, size_t size, int64_t frame) {
  // libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past the end: decode a padded copy.
  if (av_new_packet(s_->packet, static_cast<int>(size)) != 0) throw std::bad_alloc();
  std::memcpy(s_->packet->data, data, size);
  s_->packet->pts = frame;  // libavcodec hands it to the picture, through the reordering
  int rc = avcodec_send_packet(s_->ctx, s_->packet);
  av_packet_unref(s_->packet);
  if (rc != 0 && rc != AVERROR(EAGAIN))
    fail(Errc::task_failure,
         "VDEC: the stream cannot be decoded (libavcodec error " + std::to_string(rc) + ")");
  s_->drain();
}

void VideoDecoder::flush() {
  if (avcodec_send_packet(s_->ctx, nullptr) == 0) s_->drain();
}

bool VideoDecoder::peek(uint32_t *width, uint32_t *height, int64_t *frame) const {
  if (s_->frames.empty()) return false;
  if (frame != nullptr) *frame = s_->frames.front()->pts;
  *width = static_cast<uint32_t>(s_->frames.front()->width);
  *height = static_cast<uint32_t>(s_->frames.front()->height);
  return true;
}

void VideoDecoder::take_discard() {
  AVFrame *f = s_->frames.front();
  s_->frames.pop_front();
  av_frame_free(&f);
}

void VideoDecoder::take(const Image &out) {
  AVFrame *f = s_->frames.front();
  s_->frames.pop_front();
  const bool vu = v_first(out.format);
  const bool ok = f->format == AV_PIX_FMT_YUV420P || f->format == AV_PIX_FMT_YUVJ420P;
  if (ok) {
    for (uint32_t y = 0; y < out.height; ++y)
      std::memcpy(out.data + size_t{y} * out.width_stride, f->data[0] + size_t{y} * f->linesize[0],
                  out.width);
    uint8_t *uv = out.data + size_t{out.width_stride} * out.height_stride;
    for (uint32_t y = 0; y < (out.height + 1) / 2; ++y) {
      const uint8_t *u = f->data[1] + size_t{y} * f->linesize[1],
                    *v = f->data[2] + size_t{y} * f->linesize[2];
      uint8_t *row = uv + size_t{y} * out.width_stride;
      for (uint32_t x = 0; x < (out.width + 1) / 2; ++x) {
        row[2 * x] = vu ? v[x] : u[x];
        row[2 * x + 1] = vu ? u[x] : v[x];
      }
    }
  }
  const int format = f->format;
  av_frame_free(&f);
  if (!ok)
    fail(Errc::task_failure, "VDEC: the stream is not 8-bit 4:2:0 (libavcodec pixel format " +
                                 std::to_string(format) + ")");
}

}  // namespace openacl::dvpp
