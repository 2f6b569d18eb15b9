// VPC of CANN's V2 media API (hi_mpi_vpc_*) on the same units as the V1 calls (dvpp/vpc.h,
// dvpp/color.h), with the same picture and region rules (dvpp/api/checks.h). Each call
// checks everything, queues one task on the channel's lane and hands back a task id;
// hi_mpi_vpc_get_process_result waits for it.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "acl/dvpp/hi_dvpp_vpc.h"
#include "dvpp/api/checks.h"
#include "dvpp/color.h"
#include "dvpp/filter.h"
#include "dvpp/histogram.h"
#include "dvpp/mpi/channels.h"
#include "dvpp/mpi/lane.h"
#include "dvpp/pyramid.h"
#include "dvpp/rotate.h"
#include "dvpp/vpc.h"

namespace dv = openacl::dvpp;
namespace mpi = openacl::dvpp::mpi;

namespace {

struct Channel {
  mpi::Lane lane;
  std::mutex mutex;
  hi_csc_matrix csc = HI_CSC_MATRIX_BT601_WIDE;  // of convert_color (hi_mpi_sys_set_chn_csc_matrix)
  std::map<hi_u32, mpi::Ticket> tasks;
  hi_u32 next = 0;
};

mpi::Channels<Channel> &channels() {
  static mpi::Channels<Channel> c(VPC_MAX_CHN_NUM);
  return c;
}

template <class F>
hi_s32 guarded(const char *api, F &&body) {
  return mpi::guarded<HI_ID_VPC>(api, std::forward<F>(body));
}

dv::Image image(const hi_vpc_pic_info &p) {
  return {static_cast<uint8_t *>(p.picture_address),
          p.picture_buffer_size,
          static_cast<uint32_t>(p.picture_format),
          p.picture_width,
          p.picture_height,
          p.picture_width_stride,
          p.picture_height_stride};
}

dv::Image vpc_picture(const hi_vpc_pic_info *p, const std::string &what) {
  return dv::api::vpc_image(image(*mpi::required(p, what.c_str())), what.c_str());
}

// CANN's V2 codes: 0 bilinear, 1 nearest neighbour (OpenCV's rules, as the V1 codes 1 and 2).
dv::Interpolation interpolation(hi_u32 code) {
  if (code > 1)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                "interpolation " + std::to_string(code) +
                    ": openacl's VPC takes 0 (bilinear) and 1 (nearest neighbour)");
  return code == 0 ? dv::Interpolation::bilinear : dv::Interpolation::nearest;
}

dv::Rect crop_rect(const hi_vpc_crop_region &c, const dv::Image &in, const std::string &what) {
  const dv::Rect r{c.left_offset, c.left_offset + c.crop_width - 1, c.top_offset,
                   c.top_offset + c.crop_height - 1};
  if (c.crop_width == 0 || c.crop_height == 0)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, what + ": the crop size is 0");
  return dv::api::region(r, what.c_str(), in, false);
}

// One crop-resize-paste of the V1 unit, or with a border, crop-resize-make-border. With `rgb`,
// out is a picture of the task's own (NV12, no data yet) converted into rgb after the resize.
struct Job {
  dv::Image in, out;
  dv::Rect crop, paste;
  dv::Interpolation interpolation = dv::Interpolation::bilinear;
  std::optional<dv::Border> border;
  std::optional<dv::Image> rgb;
};

// The resized region of a crop_resize* call: resize_width x resize_height at (left, top).
dv::Rect placed(const hi_vpc_resize_info &r, hi_u32 left, hi_u32 top, const dv::Image &out,
                const std::string &what) {
  if (r.resize_width == 0 || r.resize_height == 0)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, what + ": the resize size is 0");
  return {left, left + r.resize_width - 1, top, top + r.resize_height - 1};
}

Job crop_resize_job(const dv::Image &in, const hi_vpc_pic_info &dest,
                    const hi_vpc_crop_region &crop, const hi_vpc_resize_info &resize, hi_u32 left,
                    hi_u32 top, bool paste, const std::string &what) {
  Job j;
  j.in = in;
  const dv::Image d = image(dest);
  if (!paste && left == 0 && top == 0 && dv::packed_bytes(d.format) == 3) {
    // crop_resize into RGB888 / BGR888: the resize in NV12, then the channel's color conversion.
    j.rgb = dv::api::color_image(d, (what + ".dest_pic_info").c_str());
    if (resize.resize_width != d.width || resize.resize_height != d.height)
      mpi::reject(HI_ERR_NOT_SUPPORT, what +
                                          ": an RGB destination takes the resized picture whole "
                                          "on openacl (resize size = dest size)");
    j.out = {nullptr,
             0,
             HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420,
             d.width,
             d.height,
             dv::align_up(d.width, 16),
             dv::align_up(d.height, 2)};
    j.out.size = dv::image_bytes(j.out);
  } else {
    j.out = vpc_picture(&dest, what + ".dest_pic_info");
  }
  j.crop = crop_rect(crop, in, what + ".crop_region");
  j.paste = dv::api::region(placed(resize, left, top, j.out, what), (what + ".resize_info").c_str(),
                            j.out, paste);
  j.interpolation = interpolation(resize.interpolation);
  dv::api::check_scale(j.crop, j.paste);
  return j;
}

Job border_job(const dv::Image &in, const hi_vpc_crop_resize_border_region &r,
               const std::string &what) {
  Job j = crop_resize_job(in, r.dest_pic_info, r.crop_region, r.resize_info, r.dest_left_offset,
                          r.dest_top_offset, false, what);
  if (j.rgb)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                what + ".dest_pic_info: a border around an RGB picture is not implemented");
  if (r.border_type != HI_BORDER_CONSTANT && r.border_type != HI_BORDER_REPLICATE)
    mpi::reject(HI_ERR_NOT_SUPPORT,
                what + ".border_type: this call takes HI_BORDER_CONSTANT or HI_BORDER_REPLICATE");
  dv::Border b;
  b.top = r.dest_top_offset, b.left = r.dest_left_offset;
  b.bottom = j.out.height - 1 - j.paste.bottom, b.right = j.out.width - 1 - j.paste.right;
  if ((b.top | b.bottom | b.left | b.right) % 2 != 0)
    mpi::reject(HI_ERR_ILLEGAL_PARAM,
                what + ": the borders of a YUV420SP picture must be even (top " +
                    std::to_string(b.top) + ", bottom " + std::to_string(b.bottom) + ", left " +
                    std::to_string(b.left) + ", right " + std::to_string(b.right) + ")");
  b.type = r.border_type;
  for (int i = 0; i < 3; ++i) b.value[i] = r.scalar_value.val[i];
  j.border = b;
  return j;
}

std::shared_ptr<Channel> channel(hi_vpc_chn chn) {
  mpi::require_sys();
  return channels().find(chn);
}

// Queues the work and hands out its task id.
void queue(Channel &ch, const char *label, std::vector<dv::api::Access> ranges, dv::api::Work work,
           hi_u32 *task_id) {
  mpi::Ticket t = ch.lane.submit(label, ranges, std::move(work));
  std::lock_guard<std::mutex> lock(ch.mutex);
  *task_id = ch.next++;
  ch.tasks[*task_id] = std::move(t);
}

void run(hi_vpc_chn chn, const char *label, std::vector<Job> jobs, hi_u32 *task_id) {
  auto ch = channel(chn);
  if (jobs.empty()) mpi::reject(HI_ERR_ILLEGAL_PARAM, "count is 0");
  std::vector<dv::api::Access> ranges;
  for (const Job &j : jobs) {
    ranges.push_back({j.in.data, dv::image_bytes(j.in), false});
    const dv::Image &out = j.rgb ? *j.rgb : j.out;
    ranges.push_back({out.data, dv::image_bytes(out), true});
  }
  hi_csc_matrix csc;
  {
    std::lock_guard<std::mutex> lock(ch->mutex);
    csc = ch->csc;
  }
  queue(
      *ch, label, std::move(ranges),
      [jobs = std::move(jobs), csc](openacl::backend::AiCores &cores,
                                    const dv::api::HostRanges &h) {
        for (Job j : jobs) {
          j.in = h.image(j.in);
          std::vector<uint8_t> nv12(j.rgb ? j.out.size : 0);
          if (j.rgb) {
            j.out.data = nv12.data();
            j.rgb = h.image(*j.rgb);
          } else {
            j.out = h.image(j.out);
          }
          if (j.border)
            dv::crop_resize_border(j.in, j.crop, j.out, *j.border, j.interpolation, &cores);
          else dv::crop_resize_paste(j.in, j.crop, j.out, j.paste, j.interpolation, &cores);
          if (j.rgb) dv::convert_color(j.out, *j.rgb, csc);
        }
      },
      task_id);
}

// The regions of the batch calls: count[i] regions of source_pic[i], in order.
template <class Region, class MakeJob>
std::vector<Job> batch_jobs(const hi_vpc_pic_info *source_pic[], hi_u32 pic_num, Region regions[],
                            hi_u32 count[], MakeJob make_job) {
  mpi::required(source_pic, "source_pic");
  mpi::required(regions, "regions");
  mpi::required(count, "count");
  if (pic_num == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "pic_num is 0");
  std::vector<Job> jobs;
  size_t k = 0;
  for (hi_u32 i = 0; i < pic_num; ++i) {
    const std::string src = "source_pic[" + std::to_string(i) + "]";
    dv::Image in = vpc_picture(source_pic[i], src);
    for (hi_u32 r = 0; r < count[i]; ++r, ++k)
      jobs.push_back(make_job(in, regions[k], "region[" + std::to_string(k) + "]"));
  }
  return jobs;
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_vpc_create_chn(hi_vpc_chn chn, const hi_vpc_chn_attr *attr) {
  return guarded(__func__, [&] {
    mpi::require_sys();
    mpi::required(attr, "attr");
    auto ch = std::make_shared<Channel>();
    channels().open(chn, ch);
  });
}

hi_s32 hi_mpi_vpc_sys_create_chn(hi_vpc_chn *chnl, const hi_vpc_chn_attr *attr) {
  return guarded(__func__, [&] {
    mpi::require_sys();
    mpi::required(chnl, "chnl");
    mpi::required(attr, "attr");
    auto ch = std::make_shared<Channel>();
    *chnl = channels().open_any(ch);
  });
}

hi_s32 hi_mpi_sys_set_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix csc_matrix,
                                     hi_csc_coefficient *csc_coefficient) {
  (void)csc_coefficient;  // only for HI_CSC_MATRIX_USER, which openacl does not take
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    if (mode != HI_ID_VPC)
      mpi::reject(HI_ERR_NOT_SUPPORT, "mode " + std::to_string(mode) +
                                          ": openacl sets the matrix of VPC channels only");
    if (csc_matrix < HI_CSC_MATRIX_BT601_WIDE || csc_matrix > HI_CSC_MATRIX_BT2020_NARROW)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "csc_matrix " + std::to_string(csc_matrix) +
                      ": openacl takes the BT.601, BT.709 and BT.2020 matrices (not USER)");
    auto ch = channel(chn);
    std::lock_guard<std::mutex> lock(ch->mutex);
    ch->csc = csc_matrix;  // the same values as acldvppCscMatrix
  });
}

hi_s32 hi_mpi_vpc_destroy_chn(hi_vpc_chn chn) {
  return guarded(__func__, [&] {
    channel(chn)->lane.close();
    channels().erase(chn);
  });
}

hi_s32 hi_mpi_vpc_crop(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                       hi_vpc_crop_region_info crop_info[], hi_u32 count, hi_u32 *task_id,
                       hi_s32 milli_sec) {
  (void)milli_sec;  // the call never blocks on openacl: the queue has no limit
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = vpc_picture(source_pic, "source_pic");
    mpi::required(crop_info, "crop_info");
    std::vector<Job> jobs;
    for (hi_u32 i = 0; i < count; ++i) {
      const std::string what = "crop_info[" + std::to_string(i) + "]";
      Job j;
      j.in = in;
      j.out = vpc_picture(&crop_info[i].dest_pic_info, what + ".dest_pic_info");
      j.crop = crop_rect(crop_info[i].crop_region, in, what + ".crop_region");
      j.paste = dv::api::whole(j.out);
      dv::api::check_scale(j.crop, j.paste);
      jobs.push_back(j);
    }
    run(chn, "hi_mpi_vpc_crop", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                         hi_vpc_pic_info *dest_pic, hi_double fx, hi_double fy,
                         hi_u32 interpolation, hi_u32 *task_id, hi_s32 milli_sec) {
  (void)fx, (void)fy, (void)milli_sec;  // the destination's size rules, as CANN's when it is set
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    Job j;
    j.in = vpc_picture(source_pic, "source_pic");
    j.out = vpc_picture(dest_pic, "dest_pic");
    j.crop = dv::api::whole(j.in);
    j.paste = dv::api::whole(j.out);
    j.interpolation = ::interpolation(interpolation);
    dv::api::check_scale(j.crop, j.paste);
    run(chn, "hi_mpi_vpc_resize", {j}, task_id);
  });
}

hi_s32 hi_mpi_vpc_crop_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                              hi_vpc_crop_resize_region crop_resize_info[], hi_u32 count,
                              hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = vpc_picture(source_pic, "source_pic");
    mpi::required(crop_resize_info, "crop_resize_info");
    std::vector<Job> jobs;
    for (hi_u32 i = 0; i < count; ++i) {
      const auto &r = crop_resize_info[i];
      jobs.push_back(crop_resize_job(in, r.dest_pic_info, r.crop_region, r.resize_info, 0, 0, false,
                                     "crop_resize_info[" + std::to_string(i) + "]"));
    }
    run(chn, "hi_mpi_vpc_crop_resize", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                                    hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                    hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = vpc_picture(source_pic, "source_pic");
    mpi::required(crop_resize_paste_info, "crop_resize_paste_info");
    std::vector<Job> jobs;
    for (hi_u32 i = 0; i < count; ++i) {
      const auto &r = crop_resize_paste_info[i];
      jobs.push_back(crop_resize_job(in, r.dest_pic_info, r.crop_region, r.resize_info,
                                     r.dest_left_offset, r.dest_top_offset, true,
                                     "crop_resize_paste_info[" + std::to_string(i) + "]"));
    }
    run(chn, "hi_mpi_vpc_crop_resize_paste", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_batch_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic[],
                                          hi_u32 pic_num,
                                          hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                          hi_u32 count[], hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    auto jobs = batch_jobs(
        source_pic, pic_num, crop_resize_paste_info, count,
        [](const dv::Image &in, const hi_vpc_crop_resize_paste_region &r, const std::string &what) {
          return crop_resize_job(in, r.dest_pic_info, r.crop_region, r.resize_info,
                                 r.dest_left_offset, r.dest_top_offset, true, what);
        });
    run(chn, "hi_mpi_vpc_batch_crop_resize_paste", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count, hi_u32 *task_id,
    hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = vpc_picture(source_pic, "source_pic");
    mpi::required(crop_resize_make_border_info, "crop_resize_make_border_info");
    std::vector<Job> jobs;
    for (hi_u32 i = 0; i < count; ++i)
      jobs.push_back(border_job(in, crop_resize_make_border_info[i],
                                "crop_resize_make_border_info[" + std::to_string(i) + "]"));
    run(chn, "hi_mpi_vpc_crop_resize_make_border", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_batch_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info *source_pic[], hi_u32 pic_num,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count[],
    hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    auto jobs = batch_jobs(source_pic, pic_num, crop_resize_make_border_info, count, border_job);
    run(chn, "hi_mpi_vpc_batch_crop_resize_make_border", std::move(jobs), task_id);
  });
}

hi_s32 hi_mpi_vpc_convert_color(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                                hi_vpc_pic_info *dest_pic, hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in =
        dv::api::color_image(image(*mpi::required(source_pic, "source_pic")), "source_pic");
    dv::Image out = dv::api::color_image(image(*mpi::required(dest_pic, "dest_pic")), "dest_pic");
    if (in.width != out.width || in.height != out.height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "source_pic and dest_pic must have the same size");
    auto ch = channel(chn);
    queue(
        *ch, "hi_mpi_vpc_convert_color",
        {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
        [=, csc = ch->csc](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
          dv::convert_color(h.image(in), h.image(out), csc);
        },
        task_id);
  });
}

hi_s32 hi_mpi_vpc_copy_make_border(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                                   hi_vpc_pic_info *dest_pic,
                                   hi_vpc_make_border_info make_border_info, hi_u32 *task_id,
                                   hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = vpc_picture(source_pic, "source_pic");
    dv::Image out = vpc_picture(dest_pic, "dest_pic");
    const hi_vpc_make_border_info &m = make_border_info;
    if (m.border_type > HI_BORDER_REFLECT_101)
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "border_type " + std::to_string(m.border_type) +
                      ": openacl takes HI_BORDER_CONSTANT, REPLICATE, REFLECT and REFLECT_101");
    if ((m.top | m.bottom | m.left | m.right) % 2 != 0)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "make_border_info: the borders of a YUV420SP picture must be even");
    if (uint64_t{in.width} + m.left + m.right != out.width ||
        uint64_t{in.height} + m.top + m.bottom != out.height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "dest_pic is " + std::to_string(out.width) + "x" + std::to_string(out.height) +
                      "; source_pic with the border is " +
                      std::to_string(uint64_t{in.width} + m.left + m.right) + "x" +
                      std::to_string(uint64_t{in.height} + m.top + m.bottom));
    dv::Border b;
    b.top = m.top, b.bottom = m.bottom, b.left = m.left, b.right = m.right, b.type = m.border_type;
    for (int i = 0; i < 3; ++i) b.value[i] = m.scalar_value.val[i];
    auto ch = channel(chn);
    queue(
        *ch, "hi_mpi_vpc_copy_make_border",
        {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
        [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
          dv::make_border(h.image(in), h.image(out), b);
        },
        task_id);
  });
}

hi_s32 hi_mpi_vpc_pyrdown(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                          hi_vpc_pic_info dest_pic[], hi_u32 filter_level,
                          hi_s8 gaussian_filter[][5], hi_u16 divisor,
                          hi_vpc_make_border_info make_border_info, hi_u32 *task_id,
                          hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in = dv::api::pyramid_image(image(*mpi::required(source_pic, "source_pic")),
                                          "source_pic", false);
    mpi::required(dest_pic, "dest_pic");
    mpi::required(gaussian_filter, "gaussian_filter");
    if (filter_level < 1 || filter_level > 4)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "filter_level " + std::to_string(filter_level) + " is outside 1..4");
    // The unit computes OpenCV's pyrDown: its kernel and divisor only.
    static constexpr int kTaps[5] = {1, 4, 6, 4, 1};
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 5; ++x)
        if (gaussian_filter[y][x] != kTaps[y] * kTaps[x] || divisor != 256)
          mpi::reject(HI_ERR_NOT_SUPPORT,
                      "openacl's pyramid takes the Gaussian [1 4 6 4 1]^T [1 4 6 4 1] with "
                      "divisor 256 only");
    dv::PyrBorder border;
    switch (make_border_info.border_type) {
      case HI_BORDER_REFLECT_101:
        border = dv::PyrBorder::reflect101;
        break;
      case HI_BORDER_REFLECT:
        border = dv::PyrBorder::reflect;
        break;
      case HI_BORDER_REPLICATE:
        border = dv::PyrBorder::replicate;
        break;
      case HI_BORDER_CONSTANT:  // the luma value of scalar_value around the picture
        border = dv::PyrBorder::constant;
        break;
      default:
        mpi::reject(HI_ERR_NOT_SUPPORT,
                    "make_border_info.border_type " + std::to_string(make_border_info.border_type) +
                        ": openacl's pyramid takes REFLECT_101, REFLECT, REPLICATE and CONSTANT");
    }
    const auto fill = static_cast<uint8_t>(
        std::clamp(std::lround(make_border_info.scalar_value.val[0]), 0L, 255L));
    std::vector<dv::Image> levels{in};
    std::vector<dv::api::Access> ranges{{in.data, dv::image_bytes(in), false}};
    for (hi_u32 i = 0; i < filter_level; ++i) {
      const std::string what = "dest_pic[" + std::to_string(i) + "]";
      const dv::Image &up = levels.back();
      dv::Image out = dv::api::pyramid_image(image(dest_pic[i]), what.c_str(), true);
      if (out.width != (up.width + 1) / 2 || out.height != (up.height + 1) / 2)
        mpi::reject(HI_ERR_ILLEGAL_PARAM,
                    what + " is " + std::to_string(out.width) + "x" + std::to_string(out.height) +
                        "; half of " + std::to_string(up.width) + "x" + std::to_string(up.height) +
                        " (rounded up) is " + std::to_string((up.width + 1) / 2) + "x" +
                        std::to_string((up.height + 1) / 2));
      ranges.push_back({out.data, dv::image_bytes(out), true});
      levels.push_back(out);
    }
    auto ch = channel(chn);
    queue(
        *ch, "hi_mpi_vpc_pyrdown", std::move(ranges),
        [levels, border, fill](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
          for (size_t i = 1; i < levels.size(); ++i)
            dv::pyr_down(h.image(levels[i - 1]), h.image(levels[i]), border, fill);
        },
        task_id);
  });
}

hi_s32 hi_mpi_vpc_rotate(hi_vpc_chn chn, const hi_rotate_param *rotate_param, hi_u32 *task_id,
                         hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    const hi_rotate_param &p = *mpi::required(rotate_param, "rotate_param");
    const dv::Image in = dv::api::lut_image(image(p.src), "rotate_param->src"),
                    out = dv::api::lut_image(image(p.dst), "rotate_param->dst");
    if (dv::is_yuv420sp(in.format))
      mpi::reject(HI_ERR_NOT_SUPPORT,
                  "rotate_param->src: rotation takes YUV400, RGB888 and BGR888 "
                  "(CANN's formats openacl lays out), not YUV420SP");
    if (out.format != in.format)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "rotate_param->dst must have the source's format");
    if (p.angle < HI_ROTATION_90 || p.angle > HI_ROTATION_270)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "rotate_param->angle " + std::to_string(p.angle) + " is not a hi_rotation");
    const int turns = static_cast<int>(p.angle) + 1;
    const bool swap = turns != 2;
    const uint32_t w = swap ? in.height : in.width, h = swap ? in.width : in.height;
    if (out.width != w || out.height != h)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "rotate_param->dst is " + std::to_string(out.width) + "x" +
                                            std::to_string(out.height) +
                                            "; the rotated picture is " + std::to_string(w) + "x" +
                                            std::to_string(h));
    auto ch = channel(chn);
    queue(
        *ch, "hi_mpi_vpc_rotate",
        {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
        [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
          dv::rotate(h.image(in), h.image(out), turns);
        },
        task_id);
  });
}

namespace {

// src and dst of a filter: the same format (YUV400, NV12 / NV21, RGB888, BGR888) and size.
std::pair<dv::Image, dv::Image> filter_pictures(const hi_vpc_pic_info &src,
                                                const hi_vpc_pic_info &dst,
                                                const std::string &what) {
  const dv::Image in = dv::api::lut_image(image(src), (what + "->src").c_str()),
                  out = dv::api::lut_image(image(dst), (what + "->dst").c_str());
  if (out.format != in.format || out.width != in.width || out.height != in.height)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, what + "->dst must have the source's format and size");
  return {in, out};
}

void queue_filter(hi_vpc_chn chn, const char *call, const dv::Image &in, const dv::Image &out,
                  dv::Filter f, const dv::Window &w, uint32_t iterations, hi_u32 *task_id) {
  auto ch = channel(chn);
  queue(
      *ch, call, {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
      [=](openacl::backend::AiCores &cores, const dv::api::HostRanges &h) {
        dv::filter(h.image(in), h.image(out), f, w, iterations, &cores);
      },
      task_id);
}

// The window of erode, dilate, blur and filter2d from the fields they share, checked as CANN
// documents them; cfg names the config in messages ("erode_param->blur_cfg.").
dv::Window window(const hi_size &kernel, const hi_point &anchor, hi_vpc_bord_type border,
                  const hi_vpc_scalar &fill, const std::string &cfg) {
  auto odd = [](uint32_t k) { return k == 1 || k == 3 || k == 5; };
  if (!odd(kernel.width) || !odd(kernel.height))
    mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "kernel_size " + std::to_string(kernel.width) + "x" +
                                          std::to_string(kernel.height) +
                                          ": width and height must be 1, 3 or 5");
  if (anchor.x != -1 || anchor.y != -1)
    mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "anchor is reserved and must be (-1, -1)");
  if (border != HI_BORDER_CONSTANT && border != HI_BORDER_REPLICATE)
    mpi::reject(border <= HI_BORDER_WRAP ? HI_ERR_NOT_SUPPORT : HI_ERR_ILLEGAL_PARAM,
                cfg + "border_type " + std::to_string(border) +
                    ": only HI_BORDER_CONSTANT and HI_BORDER_REPLICATE are supported");
  dv::Window w;
  w.kw = kernel.width;
  w.kh = kernel.height;
  w.constant = border == HI_BORDER_CONSTANT;
  for (int i = 0; i < 3; ++i)
    w.fill[i] = static_cast<uint8_t>(std::clamp(std::lround(fill.val[i]), 0L, 255L));
  return w;
}

// erode, dilate and blur: hi_blur_param's own checks as CANN documents them (blur: one pass).
hi_s32 blur_family(const char *call, hi_vpc_chn chn, const hi_blur_param *param,
                   const char *param_name, dv::Filter f, hi_u32 *task_id) {
  return guarded(call, [&] {
    mpi::required(task_id, "task_id");
    const hi_blur_param &p = *mpi::required(param, param_name);
    const std::string name(param_name), cfg = name + "->blur_cfg.";
    const auto [in, out] = filter_pictures(p.src, p.dst, name);
    const hi_blur_config &c = p.blur_cfg;
    const dv::Window w = window(c.kernel_size, c.anchor, c.border_type, c.scalar_value, cfg);
    if (c.morph_shapes == MORPH_CROSS || c.morph_shapes == MORPH_ELLIPSE)
      mpi::reject(HI_ERR_NOT_SUPPORT, cfg + "morph_shapes: only MORPH_RECT is supported");
    if (c.morph_shapes != MORPH_RECT)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  cfg + "morph_shapes " + std::to_string(c.morph_shapes) + " is not MORPH_RECT");
    const uint32_t most = f == dv::Filter::mean ? 1 : 100;
    if (c.iterations < 1 || c.iterations > most)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "iterations " + std::to_string(c.iterations) +
                                            " is outside 1.." + std::to_string(most));
    queue_filter(chn, call, in, out, f, w, c.iterations, task_id);
  });
}

}  // namespace

hi_s32 hi_mpi_vpc_median_blur(hi_vpc_chn chn, const hi_median_blur_param *median_blur_param,
                              hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    const hi_median_blur_param &p = *mpi::required(median_blur_param, "median_blur_param");
    const auto [in, out] = filter_pictures(p.src, p.dst, "median_blur_param");
    const uint32_t k = p.median_blur_cfg.kernel_size;
    if (k != 1 && k != 3 && k != 5)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "median_blur_param->median_blur_cfg.kernel_size " +
                                            std::to_string(k) + " is not 1, 3 or 5");
    queue_filter(chn, __func__, in, out, dv::Filter::median, dv::Window{k, k, false, {}}, 1,
                 task_id);
  });
}

hi_s32 hi_mpi_vpc_erode(hi_vpc_chn chn, const hi_blur_param *erode_param, hi_u32 *task_id,
                        hi_s32 milli_sec) {
  (void)milli_sec;
  return blur_family(__func__, chn, erode_param, "erode_param", dv::Filter::erode, task_id);
}

hi_s32 hi_mpi_vpc_dilate(hi_vpc_chn chn, const hi_blur_param *dilate_param, hi_u32 *task_id,
                         hi_s32 milli_sec) {
  (void)milli_sec;
  return blur_family(__func__, chn, dilate_param, "dilate_param", dv::Filter::dilate, task_id);
}

hi_s32 hi_mpi_vpc_blur(hi_vpc_chn chn, const hi_blur_param *blur_param, hi_u32 *task_id,
                       hi_s32 milli_sec) {
  (void)milli_sec;
  return blur_family(__func__, chn, blur_param, "blur_param", dv::Filter::mean, task_id);
}

namespace {

// OpenCV's getGaussianKernel: fixed kernels for ksize 1, 3, 5 when sigma <= 0, else sampled and
// normalized to sum 1.
std::vector<double> gaussian_kernel(uint32_t ksize, double sigma) {
  if (sigma <= 0 && ksize == 1) return {1};
  if (sigma <= 0 && ksize == 3) return {0.25, 0.5, 0.25};
  if (sigma <= 0 && ksize == 5) return {0.0625, 0.25, 0.375, 0.25, 0.0625};
  std::vector<double> k(ksize);
  double sum = 0;
  for (uint32_t i = 0; i < ksize; ++i) {
    const double x = i - (ksize - 1) * 0.5;
    sum += k[i] = std::exp(-x * x / (2 * sigma * sigma));
  }
  for (double &v : k) v /= sum;
  return k;
}

}  // namespace

hi_s32 hi_mpi_vpc_gaussian_blur(hi_vpc_chn chn, const hi_gaussian_blur_param *gaussian_blur_param,
                                hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    const hi_gaussian_blur_param &p = *mpi::required(gaussian_blur_param, "gaussian_blur_param");
    const auto [in, out] = filter_pictures(p.src, p.dst, "gaussian_blur_param");
    const hi_gaussian_blur_config &c = p.gaussian_blur_cfg;
    const std::string cfg = "gaussian_blur_param->gaussian_blur_cfg.";
    dv::Window w = window(c.kernel_size, {-1, -1}, c.border_type, c.scalar_value, cfg);
    if (!std::isfinite(c.sigma_x) || !std::isfinite(c.sigma_y))
      mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "sigma_x and sigma_y must be finite");
    const auto kx = gaussian_kernel(w.kw, c.sigma_x);
    const auto ky = gaussian_kernel(w.kh, c.sigma_y == 0 ? c.sigma_x : c.sigma_y);
    for (uint32_t r = 0; r < w.kh; ++r)
      for (uint32_t col = 0; col < w.kw; ++col) w.weights[r * w.kw + col] = ky[r] * kx[col];
    queue_filter(chn, __func__, in, out, dv::Filter::correlate, w, 1, task_id);
  });
}

hi_s32 hi_mpi_vpc_filter2d(hi_vpc_chn chn, const hi_filter_2d_param *filter_2d_param,
                           hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    const hi_filter_2d_param &p = *mpi::required(filter_2d_param, "filter_2d_param");
    const auto [in, out] = filter_pictures(p.src, p.dst, "filter_2d_param");
    const hi_filter_2d_config &c = p.filter_2d_cfg;
    const std::string cfg = "filter_2d_param->filter_2d_cfg.";
    dv::Window w = window(c.kernel_size, c.anchor, c.border_type, c.scalar_value, cfg);
    // The centre kw x kh of the 5 x 5 array, as CANN documents it.
    const uint32_t top = 2 - w.kh / 2, left = 2 - w.kw / 2;
    for (uint32_t r = 0; r < w.kh; ++r)
      for (uint32_t col = 0; col < w.kw; ++col) {
        const double v = c.filter[top + r][left + col];
        if (!std::isfinite(v))
          mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "filter[" + std::to_string(top + r) + "][" +
                                                std::to_string(left + col) + "] is not finite");
        w.weights[r * w.kw + col] = v;
      }
    if (!std::isfinite(c.delta)) mpi::reject(HI_ERR_ILLEGAL_PARAM, cfg + "delta is not finite");
    w.delta = c.delta;
    queue_filter(chn, __func__, in, out, dv::Filter::correlate, w, 1, task_id);
  });
}

hi_s32 hi_mpi_vpc_calc_hist(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                            hi_vpc_histogram_config *hist_config, hi_u32 *task_id,
                            hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in =
        dv::api::lut_image(image(*mpi::required(source_pic, "source_pic")), "source_pic");
    mpi::required(hist_config, "hist_config");
    auto ch = channel(chn);
    // hist_config is host memory, written when the task runs: read it after get_process_result.
    queue(
        *ch, "hi_mpi_vpc_calc_hist", {{in.data, dv::image_bytes(in), false}},
        [in, hist_config](openacl::backend::AiCores &, const dv::api::HostRanges &views) {
          dv::Histogram h;
          dv::add_histogram(views.image(in), h);
          hi_u32 *dims[3] = {hist_config->histogram_y_or_r, hist_config->histogram_u_or_g,
                             hist_config->histogram_v_or_b};
          for (int c = 0; c < 3; ++c) std::copy(h.bins[c].begin(), h.bins[c].end(), dims[c]);
        },
        task_id);
  });
}

hi_s32 hi_mpi_vpc_equalize_hist(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
                                hi_vpc_pic_info *dest_pic, const hi_vpc_lut_remap *lut_remap,
                                hi_u32 *task_id, hi_s32 milli_sec) {
  (void)milli_sec;
  return guarded(__func__, [&] {
    mpi::required(task_id, "task_id");
    dv::Image in =
        dv::api::lut_image(image(*mpi::required(source_pic, "source_pic")), "source_pic");
    dv::Image out = dv::api::lut_image(image(*mpi::required(dest_pic, "dest_pic")), "dest_pic");
    if (in.format != out.format || in.width != out.width || in.height != out.height)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "dest_pic must have source_pic's format, width and height");
    const hi_vpc_lut_remap &r = *mpi::required(lut_remap, "lut_remap");
    dv::Lut lut;  // copied at the call: a later change of lut_remap does not reach the task
    const hi_u8 *maps[3] = {r.map_value_y_or_r, r.map_value_u_or_g, r.map_value_v_or_b};
    for (int c = 0; c < 3; ++c) std::copy(maps[c], maps[c] + 256, lut.maps[c].begin());
    auto ch = channel(chn);
    queue(
        *ch, "hi_mpi_vpc_equalize_hist",
        {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
        [in, out, lut](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
          dv::remap(h.image(in), h.image(out), lut);
        },
        task_id);
  });
}

hi_s32 hi_mpi_vpc_get_process_result(hi_vpc_chn chn, hi_u32 task_id, hi_s32 milli_sec) {
  return guarded(__func__, [&] {
    auto ch = channel(chn);
    mpi::Ticket t;
    {
      std::lock_guard<std::mutex> lock(ch->mutex);
      auto it = ch->tasks.find(task_id);
      if (it == ch->tasks.end())
        mpi::reject(HI_ERR_ILLEGAL_PARAM, "channel " + std::to_string(chn) + " has no task " +
                                              std::to_string(task_id) +
                                              " (or its result was taken)");
      t = it->second;
    }
    auto forget = [&] {
      std::lock_guard<std::mutex> lock(ch->mutex);
      ch->tasks.erase(task_id);
    };
    try {
      ch->lane.wait(t, milli_sec);
    } catch (const mpi::Reject &) {
      throw;  // not finished (or a bad milli_sec): the result stays to be taken
    } catch (...) {
      forget();
      throw;
    }
    forget();
  });
}

}  // extern "C"
