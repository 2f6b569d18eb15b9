// VDEC of CANN's V2 media API (hi_mpi_vdec_*): JPEG channels (HI_PT_JPEG, CANN's JPEGD) on the
// V1 JPEG decoder (dvpp/jpeg.h), whose stream header is read at hi_mpi_vdec_send_stream, and
// H.264 / H.265 channels on the V1 video decoder (dvpp/mpi/vdec_video.h). send_stream checks the
// output picture and queues the decode on the channel's lane; hi_mpi_vdec_get_frame takes the
// decodes in order. Also hi_mpi_dvpp_get_image_info and the buffer size helpers.
#include <atomic>
#include <cstring>
#include <string>

#include "acl/dvpp/hi_dvpp_vdec.h"
#include "acl/ops/acl_dvpp.h"
#include "api/guard.h"
#include "dvpp/jpeg.h"
#include "dvpp/memory.h"
#include "dvpp/mpi/channels.h"
#include "dvpp/mpi/decode_queue.h"
#include "dvpp/mpi/vdec_video.h"

namespace dv = openacl::dvpp;
namespace mpi = openacl::dvpp::mpi;

namespace {

// What get_frame reports for a decode into out.
hi_video_frame_info frame_of(const dv::Image &out, hi_u64 pts) {
  hi_video_frame_info f{};
  hi_video_frame &v = f.v_frame;
  v.width = out.width;
  v.height = out.height;
  v.field = HI_VIDEO_FIELD_FRAME;
  v.pixel_format = static_cast<hi_pixel_format>(out.format);
  v.video_format = HI_VIDEO_FORMAT_LINEAR;
  v.compress_mode = HI_COMPRESS_MODE_NONE;
  v.dynamic_range = HI_DYNAMIC_RANGE_SDR8;
  v.color_gamut = HI_COLOR_GAMUT_BT601;
  for (int i = 0; i < 2; ++i) {
    v.width_stride[i] = out.width_stride;
    v.height_stride[i] = out.height_stride;
  }
  v.virt_addr[0] = out.data;
  v.phys_addr[0] = reinterpret_cast<uintptr_t>(v.virt_addr[0]);
  uint32_t h = 0, vs = 0;
  if (dv::yuv_sp_subsampling(out.format, &h, &vs)) {  // packed RGB and YUV400 have one plane
    v.width_stride[1] = out.width_stride * 2 / h;     // 4:4:4 / 4:4:0 chroma: two bytes a pixel
    v.virt_addr[1] = out.data + size_t{out.width_stride} * out.height_stride;
    v.phys_addr[1] = reinterpret_cast<uintptr_t>(v.virt_addr[1]);
  }
  v.pts = pts;
  f.mod_id = HI_ID_VDEC;
  return f;
}

struct Decoded {
  hi_video_frame_info frame{};
  hi_vdec_stream stream{};
};

struct Channel {
  mpi::Lane lane;
  std::mutex mutex;
  hi_vdec_chn_attr attr{};
  hi_vdec_chn_param param{};
  std::atomic<bool> receiving{false};
  // H.264 / H.265 channels; replaced by a reset or a new out_order. Its tasks queue each picture
  // in decodes when they give it out.
  std::shared_ptr<mpi::VideoFrames> video;
  mpi::DecodeQueue<Decoded> decodes;

  void open_video() {
    const bool display = param.video_param.out_order == HI_VIDEO_OUT_ORDER_DISPLAY;
    video = std::make_shared<mpi::VideoFrames>(
        attr.type == HI_PT_H265, display, [this](mpi::VideoPicture p) {
          const uint32_t bytes = p.stream.len;
          decodes.push(mpi::finished_ticket(p.code, std::move(p.message)),
                       Decoded{frame_of(p.image, p.stream.pts), p.stream}, bytes);
        });
  }
};

mpi::Channels<Channel> &channels() {
  static mpi::Channels<Channel> c(VDEC_MAX_CHN_NUM);
  return c;
}

template <class F>
hi_s32 guarded(const char *api, F &&body) {
  return mpi::guarded<HI_ID_VDEC>(api, std::forward<F>(body));
}

std::shared_ptr<Channel> channel(hi_vdec_chn chn) {
  mpi::require_sys();
  return channels().find(chn);
}

hi_jpeg_raw_format raw_format(uint32_t css) {
  switch (css) {
    case ACL_JPEG_CSS_444:
      return HI_JPEG_RAW_FORMAT_YUV444;
    case ACL_JPEG_CSS_422:
      return HI_JPEG_RAW_FORMAT_YUV422;
    case ACL_JPEG_CSS_420:
      return HI_JPEG_RAW_FORMAT_YUV420;
    case ACL_JPEG_CSS_440:
      return HI_JPEG_RAW_FORMAT_YUV440;
    case ACL_JPEG_CSS_GRAY:
      return HI_JPEG_RAW_FORMAT_YUV400;
    case ACL_JPEG_CSS_411:
      return HI_JPEG_RAW_FORMAT_YUV411;
    default:
      return HI_JPEG_RAW_FORMAT_MAX;
  }
}

// CANN's JPEGD writes YUV420SP / YVU420SP, or the source's own format (either chroma order).
void require_written(const dv::JpegInfo &info, uint32_t format, const char *what) {
  if (dv::jpegd_writes(info, format)) return;
  const uint32_t native = dv::jpegd_native_format(info.css);
  mpi::reject(HI_ERR_NOT_SUPPORT,
              std::string(what) + ": JPEGD writes this picture as YUV420SP or YVU420SP" +
                  (dv::is_yuv420sp(native) ? "" : " or as its own " + dv::format_name(native)) +
                  ", not " + dv::format_name(format));
}

// The JPEG of a stream description, checked as JPEGD takes it.
dv::JpegInfo jpeg_header(const hi_vdec_stream &s) {
  mpi::required(s.addr, "stream->addr");
  if (s.len == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "stream->len is 0");
  const dv::api::BytesAtCall bytes(s.addr, s.len);
  dv::JpegInfo info = dv::jpeg_info(bytes.data(), s.len);
  dv::require_jpegd_supported(bytes.data(), s.len, info);
  return info;
}

// The size, subsampling and output layout of a JPEG decoded to `format` (UNKNOWN: the source's
// own, as send_stream decodes it) (hi_mpi_dvpp_get_image_info and
// hi_mpi_vdec_get_jpegd_output_info).
void jpegd_output(const hi_vdec_stream *stream, uint32_t format, hi_img_info *img_info) {
  const dv::JpegInfo info = jpeg_header(*mpi::required(stream, "stream"));
  mpi::required(img_info, "img_info");
  if (format == HI_PIXEL_FORMAT_UNKNOWN) format = dv::jpegd_native_format(info.css);
  require_written(info, format, "output_pixel_format");
  const dv::Image layout = dv::jpegd_layout(info, format);
  std::memset(img_info, 0, sizeof *img_info);
  img_info->width = info.width;
  img_info->height = info.height;
  img_info->width_stride = layout.width_stride;
  img_info->height_stride = layout.height_stride;
  img_info->img_buf_size = static_cast<hi_u32>(dv::image_bytes(layout));
  img_info->pixel_format = raw_format(info.css);
}

// The picture a send_stream writes: the decoded size (jpegd_layout's), the caller's strides
// and buffer, which must hold it.
dv::Image output(const hi_vdec_pic_info &pic, const dv::JpegInfo &info, uint32_t format) {
  if (pic.offset_top != 0 || pic.offset_bottom != 0 || pic.offset_left != 0 ||
      pic.offset_right != 0)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                "vdec_pic_info: region decoding (offset_*) is not implemented on openacl");
  require_written(info, format, "vdec_pic_info->pixel_format");
  const dv::Image layout = dv::jpegd_layout(info, format);
  // Strides left 0 are JPEGD's own (CANN's samples leave them so when they name the format).
  dv::Image out{reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(pic.vir_addr)),
                pic.buffer_size,
                format,
                layout.width,
                layout.height,
                pic.width_stride ? pic.width_stride : layout.width_stride,
                pic.height_stride ? pic.height_stride : layout.height_stride};
  if (out.width_stride < out.width || out.height_stride < out.height || out.height_stride % 2 != 0)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, "vdec_pic_info: strides " + std::to_string(out.width_stride) +
                                          "x" + std::to_string(out.height_stride) +
                                          " do not hold the decoded " + std::to_string(out.width) +
                                          "x" + std::to_string(out.height) +
                                          " picture (height stride even)");
  const uint64_t need = dv::buffer_bytes(format, out.width_stride, out.height_stride);
  if (out.size < need)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, "vdec_pic_info: buffer_size " + std::to_string(out.size) +
                                          " is below the " + dv::format_name(format) +
                                          " picture's " + std::to_string(need) + " bytes");
  dv::check_range(out.data, need, "vdec_pic_info->vir_addr");
  return out;
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_vdec_create_chn(hi_vdec_chn chn, const hi_vdec_chn_attr *attr) {
  return guarded(__func__, [&] {
    mpi::require_sys();
    mpi::required(attr, "attr");
    const hi_payload_type type = attr->type;
    if (type != HI_PT_JPEG && type != HI_PT_H264 && type != HI_PT_H265)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "attr->type " + std::to_string(type) +
                      ": openacl's VDEC decodes HI_PT_JPEG, HI_PT_H264 and HI_PT_H265");
    auto ch = std::make_shared<Channel>();
    ch->attr = *attr;
    ch->param.type = type;
    if (type == HI_PT_JPEG) {
      ch->param.pic_param.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
      ch->param.pic_param.alpha = 255;
    } else {
      ch->open_video();
    }
    channels().open(chn, ch);
  });
}

hi_s32 hi_mpi_vdec_destroy_chn(hi_vdec_chn chn) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    ch->lane.close();
    ch->decodes.close();
    channels().erase(chn);
  });
}

hi_s32 hi_mpi_vdec_get_chn_attr(hi_vdec_chn chn, hi_vdec_chn_attr *attr) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    std::lock_guard<std::mutex> lock(ch->mutex);
    *mpi::required(attr, "attr") = ch->attr;
  });
}

hi_s32 hi_mpi_vdec_start_recv_stream(hi_vdec_chn chn) {
  return guarded(__func__, [&] { channel(chn)->receiving = true; });
}

hi_s32 hi_mpi_vdec_stop_recv_stream(hi_vdec_chn chn) {
  return guarded(__func__, [&] { channel(chn)->receiving = false; });
}

hi_s32 hi_mpi_vdec_set_chn_param(hi_vdec_chn chn, const hi_vdec_chn_param *chn_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(chn_param, "chn_param");
    // Of video_param (H.264 / H.265) only out_order is applied: openacl decodes every frame
    // (dec_mode) to linear uncompressed pictures.
    const hi_pixel_format f = chn_param->pic_param.pixel_format;
    const hi_video_out_order order = chn_param->video_param.out_order;
    if (ch->video && order != HI_VIDEO_OUT_ORDER_DISPLAY && order != HI_VIDEO_OUT_ORDER_DEC)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "chn_param->video_param.out_order " + std::to_string(order) +
                      " is not HI_VIDEO_OUT_ORDER_DISPLAY (0) or HI_VIDEO_OUT_ORDER_DEC (1)");
    uint32_t h = 0, v = 0;
    if (!ch->video && !dv::yuv_sp_subsampling(f, &h, &v) && f != HI_PIXEL_FORMAT_YUV_400 &&
        f != HI_PIXEL_FORMAT_UNKNOWN)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "chn_param->pic_param.pixel_format: JPEGD on openacl writes semi-planar YUV "
                  "(420, 422, 444, 440) or YUV400, not " +
                      dv::format_name(f));
    std::lock_guard<std::mutex> lock(ch->mutex);
    if (ch->video && order != ch->param.video_param.out_order) {
      if (ch->receiving || ch->video->sent != 0)
        mpi::reject(HI_ERR_NOT_PERM,
                    "out_order changes before the first frame: call hi_mpi_vdec_stop_recv_stream "
                    "and hi_mpi_vdec_reset_chn first");
      ch->param = *chn_param;
      ch->open_video();
    }
    ch->param = *chn_param;
  });
}

hi_s32 hi_mpi_vdec_get_chn_param(hi_vdec_chn chn, hi_vdec_chn_param *chn_param) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    std::lock_guard<std::mutex> lock(ch->mutex);
    *mpi::required(chn_param, "chn_param") = ch->param;
  });
}

hi_s32 hi_mpi_vdec_send_stream(hi_vdec_chn chn, const hi_vdec_stream *stream,
                               hi_vdec_pic_info *vdec_pic_info, hi_s32 milli_sec) {
  (void)milli_sec;  // the queue has no limit on openacl: the call never blocks
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    if (!ch->receiving) mpi::reject(HI_ERR_NOT_PERM, "call hi_mpi_vdec_start_recv_stream first");
    const hi_vdec_stream s = *mpi::required(stream, "stream");
    const hi_vdec_pic_info pic = *mpi::required(vdec_pic_info, "vdec_pic_info");
    if (ch->video) {
      std::lock_guard<std::mutex> lock(ch->mutex);  // a reset replaces the decoder
      if (s.end_of_stream) return mpi::queue_video_flush(ch->lane, ch->video);
      return mpi::queue_video_frame(ch->lane, ch->video, s, pic);
    }
    const dv::JpegInfo info = jpeg_header(s);
    dv::check_range(s.addr, s.len, "stream->addr");
    // UNKNOWN: the source's own format, whatever the channel's (jpegd_sample's --whole_dir mode
    // sends so on a channel set to YUV420SP, for CANN's JPEGD to decide).
    const uint32_t format = pic.pixel_format == HI_PIXEL_FORMAT_UNKNOWN
                                ? dv::jpegd_native_format(info.css)
                                : static_cast<uint32_t>(pic.pixel_format);
    const dv::Image out = output(pic, info, format);
    mpi::Ticket t =
        ch->lane.submit("JPEGD", {{s.addr, s.len, false}, {out.data, dv::image_bytes(out), true}},
                        [s, out](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                          dv::jpeg_decode(h.at(s.addr), s.len, h.image(out));
                        });
    ch->decodes.push(std::move(t), Decoded{frame_of(out, s.pts), s}, s.len);
  });
}

hi_s32 hi_mpi_vdec_get_frame(hi_vdec_chn chn, hi_video_frame_info *frame_info,
                             hi_vdec_supplement_info *supplement, hi_vdec_stream *stream,
                             hi_s32 milli_sec) {
  const char *api = __func__;
  return guarded(api, [&] {
    auto ch = channel(chn);
    mpi::required(frame_info, "frame_info");
    mpi::required(stream, "stream");
    auto done = ch->decodes.take(ch->lane, milli_sec, "hi_mpi_vdec_send_stream");
    *frame_info = done.item.frame;
    *stream = done.item.stream;
    if (supplement != nullptr) {
      std::memset(supplement, 0, sizeof *supplement);
      supplement->type = ch->attr.type;
    }
    if (done.code != openacl::Errc::ok) {
      // CANN reports a failed decode in the frame, not in the call's result.
      frame_info->v_frame.frame_flag = 1;
      openacl::api::record_error(
          api, done.message.c_str(),
          static_cast<aclError>(mpi::error_code(HI_ID_VDEC, mpi::errno_of(done.code))));
    }
  });
}

hi_s32 hi_mpi_vdec_query_status(hi_vdec_chn chn, hi_vdec_chn_status *status) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(status, "status");
    const auto c = ch->decodes.counts(ch->lane);
    std::memset(status, 0, sizeof *status);
    status->type = ch->attr.type;
    status->left_stream_bytes = c.waiting_bytes;
    status->left_stream_frames = c.waiting;
    status->left_decoded_frames = c.ready;
    status->is_started = ch->receiving ? HI_TRUE : HI_FALSE;
    status->recv_stream_frames = c.sent;
    status->dec_stream_frames = c.sent - c.waiting;
    if (ch->video) {  // decodes holds pictures given out, not frames sent
      std::lock_guard<std::mutex> lock(ch->mutex);
      status->recv_stream_frames = ch->video->sent;
      status->dec_stream_frames = ch->video->decoded;
      status->left_stream_frames = ch->video->sent - ch->video->decoded;
    }
  });
}

hi_u32 hi_vdec_get_pic_buf_size(hi_payload_type type, hi_pic_buf_attr *buf_attr) {
  hi_u32 size = 0;
  (void)guarded(__func__, [&] {
    if (type != HI_PT_JPEG && type != HI_PT_H264 && type != HI_PT_H265)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "type " + std::to_string(type) +
                      ": openacl takes HI_PT_JPEG, HI_PT_H264 and HI_PT_H265 here");
    const hi_pic_buf_attr &a = *mpi::required(buf_attr, "buf_attr");
    if (type != HI_PT_JPEG) {
      size = mpi::video_buffer_size(a.width, a.height, a.pixel_format);
      return;
    }
    uint32_t h = 0, v = 0;
    if (!dv::yuv_sp_subsampling(a.pixel_format, &h, &v) &&
        a.pixel_format != HI_PIXEL_FORMAT_YUV_400)
      mpi::reject(
          HI_ERR_NOT_SUPPORT,
          "buf_attr->pixel_format: JPEGD on openacl writes semi-planar YUV or YUV400, not " +
              dv::format_name(a.pixel_format));
    dv::JpegInfo info;
    info.width = a.width;
    info.height = a.height;
    size = static_cast<hi_u32>(dv::image_bytes(dv::jpegd_layout(info, a.pixel_format)));
  });
  return size;
}

hi_u32 hi_vdec_get_tmv_buf_size(hi_payload_type type, hi_u32 width, hi_u32 height) {
  (void)type, (void)width, (void)height;
  return 0;  // openacl's decoder keeps its motion vectors itself
}

hi_s32 hi_mpi_vdec_reset_chn(hi_vdec_chn chn) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    if (ch->receiving) mpi::reject(HI_ERR_NOT_PERM, "call hi_mpi_vdec_stop_recv_stream first");
    std::lock_guard<std::mutex> lock(ch->mutex);
    // The queued decodes run out (a later send must not meet a half-used decoder), then go.
    ch->lane.wait(ch->lane.submit("VDEC reset", {},
                                  [](openacl::backend::AiCores &, const dv::api::HostRanges &) {}),
                  -1);
    ch->decodes.drain();
    if (ch->video) ch->open_video();
  });
}

hi_s32 hi_mpi_vdec_release_frame(hi_vdec_chn chn, const hi_video_frame_info *frame_info) {
  return guarded(__func__, [&] {
    channel(chn);
    mpi::required(frame_info, "frame_info");
  });
}

hi_s32 hi_mpi_dvpp_get_image_info(hi_payload_type img_type, const hi_vdec_stream *stream,
                                  hi_img_info *img_info) {
  return guarded(__func__, [&] {
    if (img_type != HI_PT_JPEG)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "img_type " + std::to_string(img_type) +
                      ": openacl takes HI_PT_JPEG here (PNG: hi_mpi_png_get_image_info)");
    jpegd_output(stream, HI_PIXEL_FORMAT_UNKNOWN, img_info);
  });
}

hi_s32 hi_mpi_vdec_get_jpegd_output_info(const hi_vdec_stream *stream,
                                         hi_pixel_format output_pixel_format,
                                         hi_img_info *img_info) {
  return guarded(__func__, [&] { jpegd_output(stream, output_pixel_format, img_info); });
}

}  // extern "C"
