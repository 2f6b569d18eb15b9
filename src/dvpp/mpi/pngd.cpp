// PNGD of CANN's V2 media API (hi_mpi_pngd_*, hi_mpi_png_get_image_info) on the V1 PNG
// decoder (dvpp/png.h): send_stream reads the header, checks the output picture and queues
// the decode on the channel's lane; get_image_data takes the decodes in order.
#include <cstring>
#include <string>

#include "acl/dvpp/hi_dvpp_pngd.h"
#include "dvpp/memory.h"
#include "dvpp/mpi/channels.h"
#include "dvpp/mpi/decode_queue.h"
#include "dvpp/png.h"

namespace dv = openacl::dvpp;
namespace mpi = openacl::dvpp::mpi;

namespace {

struct Decoded {
  hi_pic_info picture{};
  hi_img_stream stream{};
};

struct Channel {
  mpi::Lane lane;
  mpi::DecodeQueue<Decoded> decodes;
};

mpi::Channels<Channel> &channels() {
  static mpi::Channels<Channel> c(PNGD_MAX_CHN_NUM);
  return c;
}

template <class F>
hi_s32 guarded(const char *api, F &&body) {
  return mpi::guarded<HI_ID_PNGD>(api, std::forward<F>(body));
}

std::shared_ptr<Channel> channel(hi_pngd_chn chn) {
  mpi::require_sys();
  return channels().find(chn);
}

dv::PngInfo png_header(const hi_img_stream &s) {
  mpi::required(s.addr, "stream->addr");
  if (s.len == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "stream->len is 0");
  const dv::api::BytesAtCall bytes(s.addr, s.len);
  return dv::png_info(bytes.data(), s.len);
}

hi_png_color_format color_format(int32_t components) {
  switch (components) {
    case 1:
      return HI_PNG_COLOR_FORMAT_GRAY;
    case 2:
      return HI_PNG_COLOR_FORMAT_AGRAY;
    case 4:
      return HI_PNG_COLOR_FORMAT_ARGB;
    default:
      return HI_PNG_COLOR_FORMAT_RGB;
  }
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_pngd_create_chn(hi_pngd_chn chn, const hi_pngd_chn_attr *attr) {
  return guarded(__func__, [&] {
    mpi::require_sys();
    mpi::required(attr, "attr");
    auto ch = std::make_shared<Channel>();
    channels().open(chn, ch);
  });
}

hi_s32 hi_mpi_pngd_destroy_chn(hi_pngd_chn chn) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    ch->lane.close();
    ch->decodes.close();
    channels().erase(chn);
  });
}

hi_s32 hi_mpi_pngd_send_stream(hi_pngd_chn chn, const hi_img_stream *stream,
                               hi_pic_info *png_pic_info, hi_s32 milli_sec) {
  (void)milli_sec;  // the queue has no limit on openacl: the call never blocks
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    const hi_img_stream s = *mpi::required(stream, "stream");
    const hi_pic_info pic = *mpi::required(png_pic_info, "png_pic_info");
    const dv::PngInfo info = png_header(s);
    dv::check_range(s.addr, s.len, "stream->addr");
    const dv::Image layout = dv::pngd_layout(info, pic.picture_format);
    const dv::Image out{static_cast<uint8_t *>(pic.picture_address),
                        pic.picture_buffer_size,
                        layout.format,
                        layout.width,
                        layout.height,
                        pic.picture_width_stride,
                        pic.picture_height_stride};
    const uint32_t row = out.width * dv::packed_bytes(out.format);
    if (out.width_stride < row || out.height_stride < out.height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "png_pic_info: strides " + std::to_string(out.width_stride) + "x" +
                      std::to_string(out.height_stride) + " do not hold the decoded " +
                      std::to_string(out.width) + "x" + std::to_string(out.height) + " " +
                      dv::format_name(out.format) + " picture (" + std::to_string(row) +
                      " bytes a row)");
    const uint64_t need = dv::buffer_bytes(out.format, out.width_stride, out.height_stride);
    if (out.size < need)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "png_pic_info: picture_buffer_size " + std::to_string(out.size) +
                      " is below width_stride * height_stride = " + std::to_string(need));
    dv::check_range(out.data, need, "png_pic_info->picture_address");
    mpi::Ticket t =
        ch->lane.submit("PNGD", {{s.addr, s.len, false}, {out.data, dv::image_bytes(out), true}},
                        [s, out](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                          dv::png_decode(h.at(s.addr), s.len, h.image(out));
                        });
    hi_pic_info done = pic;
    done.picture_width = out.width;
    done.picture_height = out.height;
    done.picture_format = static_cast<hi_pixel_format>(out.format);
    ch->decodes.push(std::move(t), Decoded{done, s}, s.len);
  });
}

hi_s32 hi_mpi_pngd_get_image_data(hi_pngd_chn chn, hi_pic_info *png_pic_info, hi_img_stream *stream,
                                  hi_s32 milli_sec) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::required(png_pic_info, "png_pic_info");
    mpi::required(stream, "stream");
    auto done = ch->decodes.take(ch->lane, milli_sec, "hi_mpi_pngd_send_stream");
    *png_pic_info = done.item.picture;
    *stream = done.item.stream;
    if (done.code != openacl::Errc::ok) openacl::fail(done.code, done.message);
  });
}

hi_s32 hi_mpi_png_get_image_info(const hi_img_stream *png_stream, hi_img_info *img_info) {
  return guarded(__func__, [&] {
    const dv::PngInfo info = png_header(*mpi::required(png_stream, "png_stream"));
    mpi::required(img_info, "img_info");
    const dv::Image layout = dv::pngd_layout(info, HI_PIXEL_FORMAT_UNKNOWN);
    std::memset(img_info, 0, sizeof *img_info);
    img_info->width = info.width;
    img_info->height = info.height;
    img_info->width_stride = layout.width_stride;
    img_info->height_stride = layout.height_stride;
    img_info->img_buf_size = static_cast<hi_u32>(dv::image_bytes(layout));
    img_info->png_pixel_format = color_format(info.components);
  });
}

}  // extern "C"
