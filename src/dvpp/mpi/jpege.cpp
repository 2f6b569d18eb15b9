// JPEGE of CANN's V2 media API: VENC channels of type HI_PT_JPEG (hi_mpi_venc_*), on the V1
// JPEG encoder (dvpp/jpeg.h). send_frame checks the frame and queues the encode on the
// channel's lane, into a DVPP buffer of the channel's (freed at release_stream) or the
// program's (send_jpege_frame); get_stream takes the encodes in order. Each channel has an
// eventfd (hi_mpi_venc_get_fd) that counts the streams ready to take, for the epoll calls
// (dvpp/mpi/epoll.cpp).
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>

#include "acl/dvpp/hi_dvpp_venc.h"
#include "api/handles.h"
#include "dvpp/api/checks.h"
#include "dvpp/jpeg.h"
#include "dvpp/memory.h"
#include "dvpp/mpi/channels.h"
#include "dvpp/mpi/decode_queue.h"

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
  std::shared_ptr<uint32_t> size;  // written by the task
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

// The YUV420SP picture of a frame, laid out as the V1 JPEGE takes it: chroma right after
// height_stride rows of luma (height_stride[0], or where virt_addr[1] says when it is 0).
dv::Image frame_image(const hi_video_frame_info &f) {
  const hi_video_frame &v = f.v_frame;
  mpi::required(v.virt_addr[0], "frame->v_frame.virt_addr[0]");
  const uint32_t ws = v.width_stride[0];
  if (ws == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "frame->v_frame.width_stride[0] is 0");
  const auto y = reinterpret_cast<uintptr_t>(v.virt_addr[0]),
             uv = reinterpret_cast<uintptr_t>(v.virt_addr[1]);
  uint32_t hs = v.height_stride[0];
  if (hs == 0 && uv > y && (uv - y) % ws == 0) hs = static_cast<uint32_t>((uv - y) / ws);
  if (hs == 0) hs = v.height;
  if (uv != 0 && uv != y + uint64_t{ws} * hs)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                "frame->v_frame.virt_addr[1] must be virt_addr[0] + width_stride * height_stride "
                "(openacl's JPEGE takes the two planes in one buffer)");
  dv::Image img{static_cast<uint8_t *>(v.virt_addr[0]),
                0,
                static_cast<uint32_t>(v.pixel_format),
                v.width,
                v.height,
                ws,
                hs};
  img.size = static_cast<uint32_t>(dv::buffer_bytes(img.format, ws, hs));
  return dv::api::jpege_image(img, "frame->v_frame");
}

void check_qfactor(hi_u32 q) {
  if (q < 1 || q > 100)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, "qfactor " + std::to_string(q) + " is outside 1..100");
}

void send(hi_venc_chn chn, const hi_video_frame_info *frame, const hi_img_stream *into) {
  auto ch = channel(chn);
  if (!ch->started) mpi::reject(HI_ERR_NOT_PERM, "call hi_mpi_venc_start_chn first");
  const dv::Image in = frame_image(*mpi::required(frame, "frame"));
  hi_u32 qfactor;
  {
    std::lock_guard<std::mutex> lock(ch->mutex);
    const hi_venc_attr &a = ch->attr.venc_attr;
    if (in.width != a.pic_width || in.height != a.pic_height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "the frame is " + std::to_string(in.width) + "x" + std::to_string(in.height) +
                      ", the channel's pictures " + std::to_string(a.pic_width) + "x" +
                      std::to_string(a.pic_height));
    qfactor = ch->param.qfactor;
  }
  Encoded e;
  uint32_t capacity = dv::jpege_predict_size(in.width, in.height);
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
  e.size = std::make_shared<uint32_t>(0);
  mpi::Ticket t;
  try {
    t = ch->lane.submit(
        "JPEGE", {{in.data, dv::image_bytes(in), false}, {e.data, capacity, true}},
        [in, qfactor, data = e.data, capacity, size = e.size](openacl::backend::AiCores &) {
          *size = dv::jpeg_encode(in, qfactor, data, capacity);
        },
        [ready = ch->ready] { ready->post(); });  // a failed encode is a result to take too
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
    if (a.type != HI_PT_JPEG)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "attr->venc_attr.type " + std::to_string(a.type) +
                      ": openacl's V2 VENC encodes HI_PT_JPEG only (H.264 / H.265: use aclvenc*)");
    if (a.pic_width < 32 || a.pic_height < 32 || a.pic_width > 8192 || a.pic_height > 8192 ||
        a.pic_width % 2 != 0 || a.pic_height % 2 != 0)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "attr->venc_attr: pictures of " +
                                            std::to_string(a.pic_width) + "x" +
                                            std::to_string(a.pic_height) +
                                            " are outside JPEGE's (even, 32x32 to 8192x8192)");
    auto ch = std::make_shared<Channel>();
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
  return guarded(__func__, [&] { send(chn, frame, mpi::required(jpege_stream, "jpege_stream")); });
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
    hi_venc_pack &p = stream->pack[0];
    std::memset(&p, 0, sizeof p);
    p.addr = e.data;
    p.input_addr = e.input;
    p.len = *e.size;
    p.pts = e.pts;
    p.is_frame_end = HI_TRUE;
    p.data_type.jpeg_type = HI_VENC_JPEG_PACK_PIC;
    p.data_num = 1;
    stream->pack_cnt = 1;
    std::memset(&stream->jpeg_info, 0, sizeof stream->jpeg_info);
    stream->jpeg_info.pic_bytes = *e.size;
    stream->jpeg_info.qfactor = e.qfactor;
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
    status->cur_packs = c.ready > 0 ? 1 : 0;  // a JPEG is one pack
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

}  // extern "C"
