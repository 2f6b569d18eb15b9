#include "dvpp/mpi/venc_video.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/status.h"
#include "dvpp/api/checks.h"
#include "dvpp/mpi/guard.h"

namespace openacl::dvpp::mpi {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

// What the encoder takes from rc_attr: GOP length, frame rate, bit rate (kbit/s), CBR or not,
// or fixed QPs.
struct Rate {
  uint32_t gop = 0, src = 0, dst = 0, bit_rate = 0;
  bool constant = false;
  bool fixed_qp = false;
  uint32_t i_qp = 0, p_qp = 0;
};

Rate rate(const hi_venc_rc_attr &rc) {
  auto from = [](const auto &r, uint32_t bits, bool constant) {
    return Rate{r.gop, r.src_frame_rate, r.dst_frame_rate, bits, constant};
  };
  switch (rc.rc_mode) {
    case HI_VENC_RC_MODE_H264_CBR:
    case HI_VENC_RC_MODE_H265_CBR:
      return from(rc.h264_cbr, rc.h264_cbr.bit_rate, true);
    case HI_VENC_RC_MODE_H264_VBR:
    case HI_VENC_RC_MODE_H265_VBR:
      return from(rc.h264_vbr, rc.h264_vbr.max_bit_rate, false);
    case HI_VENC_RC_MODE_H264_AVBR:
    case HI_VENC_RC_MODE_H265_AVBR:
      return from(rc.h264_avbr, rc.h264_avbr.max_bit_rate, false);
    case HI_VENC_RC_MODE_H264_QVBR:
    case HI_VENC_RC_MODE_H265_QVBR:
      return from(rc.h264_qvbr, rc.h264_qvbr.target_bit_rate, false);
    case HI_VENC_RC_MODE_H264_CVBR:
    case HI_VENC_RC_MODE_H265_CVBR:
      return from(rc.h264_cvbr, rc.h264_cvbr.max_bit_rate, false);
    case HI_VENC_RC_MODE_H264_FIXQP:
    case HI_VENC_RC_MODE_H265_FIXQP: {
      const hi_venc_h264_fixqp &f = rc.h264_fixqp;
      if (f.i_qp > 51 || f.p_qp > 51)
        reject(HI_ERR_ILLEGAL_PARAM,
               "attr->rc_attr: i_qp " + num(f.i_qp) + " / p_qp " + num(f.p_qp) + " outside 0..51");
      return Rate{f.gop, f.src_frame_rate, f.dst_frame_rate, 0, false, true, f.i_qp, f.p_qp};
    }
    case HI_VENC_RC_MODE_H264_QPMAP:
    case HI_VENC_RC_MODE_H265_QPMAP:
      reject(HI_ERR_NOT_SUPPORT, "attr->rc_attr.rc_mode " + num(rc.rc_mode) +
                                     ": QP-map rate control is not implemented on openacl (CBR, "
                                     "VBR, AVBR, QVBR, CVBR and FIXQP are)");
    default:
      reject(HI_ERR_ILLEGAL_PARAM, "attr->rc_attr.rc_mode " + num(rc.rc_mode) +
                                       " is not an H.264 / H.265 hi_venc_rc_mode");
  }
}

bool rc_mode_fits(hi_venc_rc_mode mode, bool hevc) {
  return hevc ? mode >= HI_VENC_RC_MODE_H265_CBR && mode <= HI_VENC_RC_MODE_H265_QPMAP
              : mode >= HI_VENC_RC_MODE_H264_CBR && mode <= HI_VENC_RC_MODE_H264_QPMAP;
}

// CANN's pack type of a NAL unit. openacl's encoders make no B-frames and force IDR pictures,
// so a slice that is not IDR is a P slice.
hi_venc_data_type nal_type(uint8_t header, bool hevc) {
  hi_venc_data_type t{};
  if (!hevc) {
    const uint8_t n = header & 0x1F;
    t.h264_type = n == 5 || (n >= 6 && n <= 8) ? static_cast<hi_venc_h264_nalu_type>(n)
                                               : HI_VENC_H264_NALU_P_SLICE;
    return t;
  }
  const uint8_t n = (header >> 1) & 0x3F;
  if (n == 19 || n == 20) t.h265_type = HI_VENC_H265_NALU_IDR_SLICE;
  else if (n == 21) t.h265_type = HI_VENC_H265_NALU_I_SLICE;  // CRA
  else if (n >= 32 && n <= 34) t.h265_type = static_cast<hi_venc_h265_nalu_type>(n);
  else if (n == 39 || n == 40) t.h265_type = HI_VENC_H265_NALU_SEI;
  else t.h265_type = HI_VENC_H265_NALU_P_SLICE;
  return t;
}

bool is_idr(const hi_venc_data_type &t, bool hevc) {
  return hevc ? t.h265_type == HI_VENC_H265_NALU_IDR_SLICE
              : t.h264_type == HI_VENC_H264_NALU_IDR_SLICE;
}

// The Annex B NAL units of an access unit, each with its start code (3 or 4 bytes).
std::vector<StreamPack> split(const std::vector<uint8_t> &au, bool hevc) {
  std::vector<StreamPack> packs;
  for (size_t i = 0; i + 3 < au.size(); ++i) {
    if (au[i] != 0 || au[i + 1] != 0 || au[i + 2] != 1) continue;
    const size_t start = i > 0 && au[i - 1] == 0 ? i - 1 : i;
    if (!packs.empty()) packs.back().len = static_cast<uint32_t>(start - packs.back().offset);
    packs.push_back({static_cast<uint32_t>(start), 0, nal_type(au[i + 3], hevc)});
    i += 2;
  }
  if (!packs.empty()) packs.back().len = static_cast<uint32_t>(au.size() - packs.back().offset);
  return packs;
}

}  // namespace

Image frame_picture(const hi_video_frame_info &f) {
  const hi_video_frame &v = f.v_frame;
  required(v.virt_addr[0], "frame->v_frame.virt_addr[0]");
  const uint32_t ws = v.width_stride[0];
  if (ws == 0) reject(HI_ERR_ILLEGAL_PARAM, "frame->v_frame.width_stride[0] is 0");
  const auto y = reinterpret_cast<uintptr_t>(v.virt_addr[0]),
             uv = reinterpret_cast<uintptr_t>(v.virt_addr[1]);
  uint32_t hs = v.height_stride[0];
  if (hs == 0 && uv > y && (uv - y) % ws == 0) hs = static_cast<uint32_t>((uv - y) / ws);
  if (hs == 0) hs = v.height;
  if (uv != 0 && uv != y + uint64_t{ws} * hs)
    reject(HI_ERR_NOT_SUPPORT,
           "frame->v_frame.virt_addr[1] must be virt_addr[0] + width_stride * height_stride "
           "(openacl's encoders take the two planes in one buffer)");
  Image img{static_cast<uint8_t *>(v.virt_addr[0]),
            0,
            static_cast<uint32_t>(v.pixel_format),
            v.width,
            v.height,
            ws,
            hs};
  img.size = static_cast<uint32_t>(buffer_bytes(img.format, ws, hs));
  return img;
}

std::shared_ptr<VideoEncoder> make_video_encoder(const hi_venc_chn_attr &attr) {
  const hi_venc_attr &a = attr.venc_attr;
  const bool hevc = a.type == HI_PT_H265;
  if (a.pic_width < 128 || a.pic_height < 128 || a.pic_width > 4096 || a.pic_height > 4096 ||
      a.pic_width % 2 != 0 || a.pic_height % 2 != 0)
    reject(HI_ERR_ILLEGAL_PARAM, "attr->venc_attr: pictures of " + num(a.pic_width) + "x" +
                                     num(a.pic_height) +
                                     " are outside VENC's (even, 128x128 to 4096x4096)");
  static const char *const kH264Profiles[] = {"baseline", "main", "high"};
  if (hevc ? a.profile != 0 : a.profile > 2)
    reject(HI_ERR_NOT_SUPPORT,
           "attr->venc_attr.profile " + num(a.profile) +
               (hevc ? ": openacl's H.265 channels encode the main profile (0) only"
                     : ": H.264 profiles are 0 (baseline), 1 (main) and 2 (high) on openacl"));
  if (!rc_mode_fits(attr.rc_attr.rc_mode, hevc))
    reject(HI_ERR_ILLEGAL_PARAM, "attr->rc_attr.rc_mode " + num(attr.rc_attr.rc_mode) +
                                     " is not a mode of " + (hevc ? "H.265" : "H.264"));
  const Rate r = rate(attr.rc_attr);
  if (r.gop < 1 || r.gop > 65536)
    reject(HI_ERR_ILLEGAL_PARAM, "attr->rc_attr: gop " + num(r.gop) + " is outside 1..65536");
  if (r.src < 1 || r.src > 240)
    reject(HI_ERR_ILLEGAL_PARAM,
           "attr->rc_attr: src_frame_rate " + num(r.src) + " is outside 1..240");
  if (r.dst != r.src)
    reject(HI_ERR_NOT_SUPPORT, "attr->rc_attr: dst_frame_rate " + num(r.dst) +
                                   " differs from src_frame_rate " + num(r.src) +
                                   " (openacl does not drop frames to lower the rate)");
  if (!r.fixed_qp && (r.bit_rate < 2 || r.bit_rate > 614400))
    reject(HI_ERR_ILLEGAL_PARAM,
           "attr->rc_attr: bit rate " + num(r.bit_rate) + " kbit/s is outside 2..614400");
  const hi_venc_gop_mode g = attr.gop_attr.gop_mode;
  if (g == HI_VENC_GOP_MODE_BIPRED_B || g == HI_VENC_GOP_MODE_LOW_DELAY_B)
    reject(HI_ERR_NOT_SUPPORT, "attr->gop_attr.gop_mode " + num(g) +
                                   ": openacl's encoders make no B-frames (use a P mode)");
  if (g >= HI_VENC_GOP_MODE_BUTT)
    reject(HI_ERR_ILLEGAL_PARAM, "attr->gop_attr.gop_mode " + num(g) + " is not a GOP mode");
  EncoderSettings s;
  s.hevc = hevc;
  s.width = a.pic_width;
  s.height = a.pic_height;
  s.key_frame_interval = r.gop;
  s.frame_rate = r.src;
  s.max_bit_rate = r.bit_rate;
  s.constant_rate = r.constant;
  s.fixed_qp = r.fixed_qp;
  s.i_qp = r.i_qp;
  s.p_qp = r.p_qp;
  if (!hevc) s.profile = kH264Profiles[a.profile];
  return std::make_shared<VideoEncoder>(s);
}

uint32_t video_stream_capacity(uint32_t width, uint32_t height) {
  return width * height * 3 + (1u << 16);
}

void encode_video_frame(VideoEncoder &encoder, bool hevc, const Image &in, bool force_idr,
                        uint8_t *data, uint32_t capacity, EncodeResult &out) {
  std::vector<uint8_t> au;
  encoder.encode(in, force_idr, au);
  if (au.size() > capacity)
    fail(Errc::task_failure, "VENC: the frame's stream of " + num(au.size()) +
                                 " bytes is larger than its buffer of " + num(capacity));
  std::memcpy(data, au.data(), au.size());
  out.size = static_cast<uint32_t>(au.size());
  out.qp = encoder.last_qp();
  out.packs = split(au, hevc);
  out.idr = std::any_of(out.packs.begin(), out.packs.end(),
                        [&](const StreamPack &p) { return is_idr(p.type, hevc); });
}

void fill_packs(const EncodeResult &result, uint8_t *data, hi_venc_stream &stream) {
  const size_t n = std::max<size_t>(result.packs.size(), 1),
               given = std::min<size_t>(n, stream.pack_cnt);
  for (size_t i = 0; i < given; ++i) {
    hi_venc_pack &p = stream.pack[i];
    std::memset(&p, 0, sizeof p);
    if (result.packs.empty()) {  // the encoder gave no bytes for the frame
      p.addr = data;
      continue;
    }
    const StreamPack &first = result.packs[i];
    const size_t last = i + 1 == given ? n : i + 1;  // the last pack takes the rest
    const StreamPack &end = result.packs[last - 1];
    p.addr = data + first.offset;
    p.len = end.offset + end.len - first.offset;
    p.data_type = first.type;
    p.is_frame_end = last == n ? HI_TRUE : HI_FALSE;
    p.data_num = static_cast<hi_u32>(std::min<size_t>(last - i, HI_VENC_MAX_PACK_INFO_NUM));
    for (size_t k = 0; k < p.data_num; ++k) {
      const StreamPack &q = result.packs[i + k];
      p.pack_info[k] = {q.type, q.offset - first.offset, q.len};
    }
  }
  stream.pack_cnt = static_cast<hi_u32>(given);
}

void fill_video_info(const EncodeResult &result, bool hevc, hi_venc_stream &stream) {
  const hi_venc_ref_type ref =
      result.idr ? HI_VENC_BASE_IDR_SLICE : HI_VENC_BASE_P_SLICE_REF_BY_BASE;
  const hi_u32 qp = result.qp < 0 ? 0 : static_cast<hi_u32>(result.qp);
  auto fill = [&](auto &info) {
    std::memset(&info, 0, sizeof info);
    info.pic_bytes = result.size;
    info.ref_type = ref;
    info.start_qp = info.mean_qp = qp;
  };
  if (hevc) fill(stream.h265_info);
  else fill(stream.h264_info);
}

}  // namespace openacl::dvpp::mpi
