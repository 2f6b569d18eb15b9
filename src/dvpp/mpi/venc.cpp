// VENC of CANN's V2 media API (hi_mpi_venc_*): JPEGE channels (HI_PT_JPEG) on the V1 JPEG
// encoder (dvpp/jpeg.h), H.264 / H.265 channels on the V1 video encoder (dvpp/mpi/venc_video.h).
// send_frame checks the frame and queues the encode on the channel's lane, into a DVPP buffer
// of the channel's (freed at release_stream) or, for a JPEG, the program's (send_jpege_frame);
// get_stream takes the encodes in order. Each channel has an eventfd (hi_mpi_venc_get_fd) that
// counts the streams ready to take, for the epoll calls (dvpp/mpi/epoll.cpp).
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <string>

#include "acl/dvpp/hi_dvpp_venc.h"
#include "api/handles.h"
#include "dvpp/api/checks.h"
#include "dvpp/jpeg.h"
#include "dvpp/memory.h"
#include "dvpp/mpi/channels.h"
#include "dvpp/mpi/decode_queue.h"
#include "dvpp/mpi/venc_video.h"

namespace dv = openacl::dvpp;
namespace mpi = openacl::dvpp::mpi;

namespace {

constexpr int kMaxChannels = 256;
constexpr hi_u32 kDefaultQfactor = 90;

struct Encoded {
  uint8_t *data = nullptr;
  bool owned = false;  // a buffer of the channel's, freed at release_stream
  hi_u64 pts = 0;
  hi_u64 input = 0;  // the frame's buffer
  hi_u32 qfactor = 0;
  std::shared_ptr<mpi::EncodeResult> result;  // written by the task
};

// The eventfd of a channel: readable while a stream is ready (semaphore mode: one read takes one).
struct Ready {
  Ready() : fd(eventfd(0, EFD_NONBLOCK | EFD_SEMAPHORE | EFD_CLOEXEC)) {
    if (fd < 0) mpi::reject(HI_ERR_NO_MEM, std::string("eventfd failed: ") + std::strerror(errno));
  }
  ~Ready() { close(fd); }
  Ready(const Ready &) = delete;
  Ready &operator=(const Ready &) = delete;
  void post() const {
    const uint64_t one = 1;
    (void)!write(fd, &one, sizeof one);
  }
  void take() const {
    uint64_t one;
    (void)!read(fd, &one, sizeof one);
  }
  int fd;
};

struct Channel {
  mpi::Lane lane;
  std::shared_ptr<Ready> ready = std::make_shared<Ready>();
  std::mutex mutex;
  hi_venc_chn_attr attr{};
  hi_venc_jpeg_param param{};
  // H.264 / H.265 channels: the encoder (used by the lane's tasks only), an IDR asked for by
  // hi_mpi_venc_request_idr, and the rate-control parameters, kept, not applied (docs/dvpp.md).
  std::shared_ptr<dv::VideoEncoder> encoder;
  bool hevc = false;
  bool idr_requested = false;
  hi_venc_rc_param rc_param{};
  std::atomic<bool> started{false};
  hi_u32 seq = 0;
  std::map<uint8_t *, bool> given;  // streams handed out by get_stream: owned or not
  mpi::DecodeQueue<Encoded> encodes;
};

mpi::Channels<Channel> &channels() {
  static mpi::Channels<Channel> c(kMaxChannels);
  return c;
}

template <class F>
hi_s32 guarded(const char *api, F &&body) {
  return mpi::guarded<HI_ID_VENC>(api, std::forward<F>(body));
}

std::shared_ptr<Channel> channel(hi_venc_chn chn) {
  mpi::require_sys();
  return channels().find(chn);
}

// A video channel refuses the JPEG-only calls.
void require_jpeg(const Channel &ch, const char *call) {
  if (ch.encoder)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                std::string(call) + " is for JPEG channels; this one encodes video");
}

void check_qfactor(hi_u32 q) {
  if (q < 1 || q > 100)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, "qfactor " + std::to_string(q) + " is outside 1..100");
}

void send(hi_venc_chn chn, const hi_video_frame_info *frame, const hi_img_stream *into) {
  auto ch = channel(chn);
  if (!ch->started) mpi::reject(HI_ERR_NOT_PERM, "call hi_mpi_venc_start_chn first");
  const dv::Image picture = mpi::frame_picture(*mpi::required(frame, "frame"));
  const dv::Image in = ch->encoder ? dv::api::vpc_image(picture, "frame->v_frame")
                                   : dv::api::jpege_image(picture, "frame->v_frame");
  hi_u32 qfactor;
  bool idr = false;
  {
    std::lock_guard<std::mutex> lock(ch->mutex);
    const hi_venc_attr &a = ch->attr.venc_attr;
    if (in.width != a.pic_width || in.height != a.pic_height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "the frame is " + std::to_string(in.width) + "x" + std::to_string(in.height) +
                      ", the channel's pictures " + std::to_string(a.pic_width) + "x" +
                      std::to_string(a.pic_height));
    qfactor = ch->param.qfactor;
    std::swap(idr, ch->idr_requested);
  }
  Encoded e;
  uint32_t capacity = ch->encoder ? mpi::video_stream_capacity(in.width, in.height)
                                  : dv::jpege_predict_size(in.width, in.height);
  if (into != nullptr) {
    e.data = mpi::required(into->addr, "jpege_stream->addr");
    capacity = into->len;
    dv::check_range(e.data, capacity, "jpege_stream->addr");
  } else {
    e.data = static_cast<uint8_t *>(dv::allocate(openacl::api::current_device(), capacity));
    e.owned = true;
  }
  e.pts = frame->v_frame.pts;
  // What CANN reports in the pack's input_addr: the frame's buffer (the program may free it
  // once the stream is taken).
  const hi_video_frame &v = frame->v_frame;
  e.input =
      reinterpret_cast<uintptr_t>(v.header_virt_addr[0] ? v.header_virt_addr[0] : v.virt_addr[0]);
  e.qfactor = qfactor;
  e.result = std::make_shared<mpi::EncodeResult>();
  dv::api::Work work;
  if (ch->encoder) {
    work = [in, idr, data = e.data, capacity, result = e.result, encoder = ch->encoder,
            hevc = ch->hevc](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
      mpi::encode_video_frame(*encoder, hevc, h.image(in), idr, h.at(data), capacity, *result);
    };
  } else {
    work = [in, qfactor, data = e.data, capacity, result = e.result](openacl::backend::AiCores &,
                                                                     const dv::api::HostRanges &h) {
      result->size = dv::jpeg_encode(h.image(in), qfactor, h.at(data), capacity);
      hi_venc_data_type pic{};
      pic.jpeg_type = HI_VENC_JPEG_PACK_PIC;
      result->packs = {{0, result->size, pic}};
    };
  }
  mpi::Ticket t;
  try {
    t = ch->lane.submit(ch->encoder ? (ch->hevc ? "VENC H.265" : "VENC H.264") : "JPEGE",
                        {{in.data, dv::image_bytes(in), false}, {e.data, capacity, true}},
                        std::move(work),
                        [ready = ch->ready] { ready->post(); });  // a failed encode is a result too
  } catch (...) {
    if (e.owned) dv::release(e.data);
    throw;
  }
  ch->encodes.push(std::move(t), e, dv::image_bytes(in));
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_venc_create_chn(hi_venc_chn chn, const hi_venc_chn_attr *attr) {
  return guarded(__func__, [&] {
    mpi::require_sys();
    const hi_venc_attr &a = mpi::required(attr, "attr")->venc_attr;
    // Every check before the channel exists: its lane is a stream of the context.
    std::shared_ptr<dv::VideoEncoder> encoder;
    if (a.type == HI_PT_H264 || a.type == HI_PT_H265) {
      encoder = mpi::make_video_encoder(*attr);
    } else if (a.type != HI_PT_JPEG) {
      mpi::reject(HI_ERR_NOT_SUPPORT, "attr->venc_attr.type " + std::to_string(a.type) +
                                          ": openacl's V2 VENC encodes HI_PT_JPEG, HI_PT_H264 "
                                          "and HI_PT_H265");
    } else if (a.pic_width < 32 || a.pic_height < 32 || a.pic_width > 8192 || a.pic_height > 8192 ||
               a.pic_width % 2 != 0 || a.pic_height % 2 != 0) {
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "attr->venc_attr: pictures of " +
                                            std::to_string(a.pic_width) + "x" +
                                            std::to_string(a.pic_height) +
                                            " are outside JPEGE's (even, 32x32 to 8192x8192)");
    }
    auto ch = std::make_shared<Channel>();
    ch->encoder = std::move(encoder);
    ch->hevc = a.type == HI_PT_H265;
    ch->rc_param.first_frame_start_qp = -1;  // CANN's "not set"
    ch->attr = *attr;
    ch->param.qfactor = kDefaultQfactor;
    channels().open(chn, ch);
  });
}

hi_s32 hi_mpi_venc_destroy_chn(hi_venc_chn chn) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    ch->lane.close();
    channels().erase(chn);
    // Streams not taken, or taken and not released: the channel's own buffers go with it.
    for (const Encoded &e : ch->encodes.close())
      if (e.owned) dv::release(e.data);
    std::lock_guard<std::mutex> lock(ch->mutex);
    for (auto &[data, owned] : ch->given)
      if (owned) dv::release(data);
  });
}

hi_s32 hi_mpi_venc_start_chn(hi_venc_chn chn, const hi_venc_start_param *recv_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(recv_param, "recv_param");
    ch->started = true;
  });
}

hi_s32 hi_mpi_venc_stop_chn(hi_venc_chn chn) {
  return guarded(__func__, [&] { channel(chn)->started = false; });
}

hi_s32 hi_mpi_venc_send_frame(hi_venc_chn chn, const hi_video_frame_info *frame, hi_s32 milli_sec) {
  (void)milli_sec;  // the queue has no limit on openacl: the call never blocks
  return guarded(__func__, [&] { send(chn, frame, nullptr); });
}

hi_s32 hi_mpi_venc_send_jpege_frame(hi_venc_chn chn, const hi_video_frame_info *frame,
                                    const hi_img_stream *jpege_stream, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    require_jpeg(*channel(chn), __func__);
    send(chn, frame, mpi::required(jpege_stream, "jpege_stream"));
  });
}

hi_s32 hi_mpi_venc_get_jpege_predicted_size(const hi_video_frame_info *frame,
                                            const hi_venc_jpeg_param *jpeg_param, hi_u32 *size) {
  return guarded(__func__, [&] {
    const hi_video_frame &v = mpi::required(frame, "frame")->v_frame;
    check_qfactor(mpi::required(jpeg_param, "jpeg_param")->qfactor);
    if (v.width < 32 || v.height < 32 || v.width > 8192 || v.height > 8192)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "frame: " + std::to_string(v.width) + "x" +
                                            std::to_string(v.height) +
                                            " is outside JPEGE's 32x32 to 8192x8192");
    *mpi::required(size, "size") = dv::jpege_predict_size(v.width, v.height);
  });
}

hi_s32 hi_mpi_venc_get_stream(hi_venc_chn chn, hi_venc_stream *stream, hi_s32 milli_sec) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(stream, "stream");
    mpi::required(stream->pack, "stream->pack");
    if (stream->pack_cnt == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "stream->pack_cnt is 0");
    auto done = ch->encodes.take(ch->lane, milli_sec, "hi_mpi_venc_send_frame");
    ch->ready->take();
    const Encoded &e = done.item;
    if (done.code != openacl::Errc::ok) {
      if (e.owned) dv::release(e.data);
      openacl::fail(done.code, done.message);
    }
    mpi::fill_packs(*e.result, e.data, *stream);
    for (hi_u32 i = 0; i < stream->pack_cnt; ++i) {
      stream->pack[i].input_addr = e.input;
      stream->pack[i].pts = e.pts;
    }
    if (ch->encoder) {
      mpi::fill_video_info(*e.result, ch->hevc, *stream);
    } else {
      std::memset(&stream->jpeg_info, 0, sizeof stream->jpeg_info);
      stream->jpeg_info.pic_bytes = e.result->size;
      stream->jpeg_info.qfactor = e.qfactor;
    }
    std::lock_guard<std::mutex> lock(ch->mutex);
    stream->seq = ch->seq++;
    ch->given[e.data] = e.owned;
  });
}

hi_s32 hi_mpi_venc_release_stream(hi_venc_chn chn, hi_venc_stream *stream) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(stream, "stream");
    mpi::required(stream->pack, "stream->pack");
    std::lock_guard<std::mutex> lock(ch->mutex);
    auto it = ch->given.find(stream->pack[0].addr);
    if (it == ch->given.end())
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "stream->pack[0] is not a stream of this channel's not yet released");
    if (it->second) dv::release(it->first);
    ch->given.erase(it);
  });
}

hi_s32 hi_mpi_venc_query_status(hi_venc_chn chn, hi_venc_chn_status *status) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(status, "status");
    const auto c = ch->encodes.counts(ch->lane);
    std::memset(status, 0, sizeof *status);
    status->left_pics = c.waiting;
    status->left_enc_pics = c.waiting;
    status->left_stream_frames = c.ready;
    // The packs of the stream get_stream gives next (a failed encode's error is one).
    if (auto next = ch->encodes.front_ready(ch->lane))
      status->cur_packs = static_cast<hi_u32>(std::max<size_t>(next->result->packs.size(), 1));
    status->stream_info.pic_cnt = c.sent;
  });
}

hi_s32 hi_mpi_venc_get_fd(hi_venc_chn chn) {
  hi_s32 fd = -1;
  const hi_s32 rc = guarded(__func__, [&] { fd = channel(chn)->ready->fd; });
  return rc == HI_SUCCESS ? fd : rc;
}

hi_s32 hi_mpi_venc_set_jpeg_param(hi_venc_chn chn, const hi_venc_jpeg_param *jpeg_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    require_jpeg(*ch, __func__);
    check_qfactor(mpi::required(jpeg_param, "jpeg_param")->qfactor);
    std::lock_guard<std::mutex> lock(ch->mutex);
    ch->param = *jpeg_param;
  });
}

hi_s32 hi_mpi_venc_get_jpeg_param(hi_venc_chn chn, hi_venc_jpeg_param *jpeg_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    std::lock_guard<std::mutex> lock(ch->mutex);
    *mpi::required(jpeg_param, "jpeg_param") = ch->param;
  });
}

hi_s32 hi_mpi_venc_request_idr(hi_venc_chn chn, hi_bool instant) {
  (void)instant;  // the next frame sent is always the next encoded
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    if (!ch->encoder) mpi::reject(HI_ERR_NOT_SUPPORT, "a JPEG channel has no IDR pictures");
    std::lock_guard<std::mutex> lock(ch->mutex);
    ch->idr_requested = true;
  });
}

// The scene tunes the hardware's rate control; openacl's encoders have one setting for all.
hi_s32 hi_mpi_venc_set_scene_mode(hi_venc_chn chn, const hi_venc_scene_mode scene_mode) {
  return guarded(__func__, [&] {
    channel(chn);
    if (scene_mode < HI_VENC_SCENE_0 || scene_mode >= HI_VENC_SCENE_BUTT)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "scene_mode " + std::to_string(scene_mode) + " is not a hi_venc_scene_mode");
  });
}

hi_s32 hi_mpi_venc_set_rc_param(hi_venc_chn chn, const hi_venc_rc_param *rc_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(rc_param, "rc_param");
    std::lock_guard<std::mutex> lock(ch->mutex);
    ch->rc_param = *rc_param;
  });
}

hi_s32 hi_mpi_venc_get_rc_param(hi_venc_chn chn, hi_venc_rc_param *rc_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    std::lock_guard<std::mutex> lock(ch->mutex);
    *mpi::required(rc_param, "rc_param") = ch->rc_param;
  });
}

// Priorities order channels on the hardware; openacl's lanes all run at once.
hi_s32 hi_mpi_venc_set_chn_param(hi_venc_chn chn, const hi_venc_chn_param *chn_param) {
  return guarded(__func__, [&] {
    channel(chn);
    if (mpi::required(chn_param, "chn_param")->priority > 1)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "chn_param->priority " + std::to_string(chn_param->priority) + " is not 0 or 1");
    if (chn_param->crop_info.enable)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "chn_param->crop_info: cropping before the encode is not "
                  "implemented on openacl");
  });
}

}  // extern "C"
