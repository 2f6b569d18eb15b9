// hi_mpi_sys_get_image_align_info: the strides and buffer size a picture needs to pass through
// each of the named units, by openacl's rules (the ones each unit checks or writes): VPC, VENC,
// JPEGE and VDEC width stride a multiple of 16 (of bytes: RGB888 takes width * 3), height
// stride of 2; JPEGD 128 and 16; PNGD align(width, 128) * bytes a pixel and 16. Several units:
// the largest of their strides, which every one of them takes (the alignments are powers of 2).
#include <algorithm>
#include <string>

#include "acl/dvpp/hi_dvpp_sys.h"
#include "dvpp/image.h"
#include "dvpp/mpi/guard.h"

namespace dv = openacl::dvpp;
namespace mpi = openacl::dvpp::mpi;

namespace {

struct Strides {
  uint32_t width = 0, height = 0;
};

const char *module_name(hi_module_type m) {
  switch (m) {
    case HI_MOD_VPC:
      return "VPC";
    case HI_MOD_VENC:
      return "VENC";
    case HI_MOD_VDEC:
      return "VDEC";
    case HI_MOD_JPEGE:
      return "JPEGE";
    case HI_MOD_JPEGD:
      return "JPEGD";
    case HI_MOD_PNGD:
      return "PNGD";
    default:
      return nullptr;
  }
}

// The unit's strides for the picture; false when the unit does not take its format.
bool unit_strides(hi_module_type m, const hi_img_base_info &p, Strides &out) {
  const uint32_t f = p.pixel_format;
  const bool yuv = dv::is_yuv420sp(f),
             rgb = f == HI_PIXEL_FORMAT_RGB_888 || f == HI_PIXEL_FORMAT_BGR_888;
  switch (m) {
    case HI_MOD_VPC:
      if (!yuv && !rgb && f != HI_PIXEL_FORMAT_YUV_400) return false;
      out = {dv::align_up(p.width * (rgb ? 3 : 1), 16), dv::align_up(p.height, 2)};
      return true;
    case HI_MOD_VENC:
    case HI_MOD_JPEGE:
    case HI_MOD_VDEC:
      if (!yuv) return false;
      out = {dv::align_up(p.width, 16), dv::align_up(p.height, 2)};
      return true;
    case HI_MOD_JPEGD:
      if (!yuv) return false;
      out = {dv::align_up(p.width, 128), dv::align_up(p.height, 16)};
      return true;
    case HI_MOD_PNGD:
      if (f != HI_PIXEL_FORMAT_RGB_888 && f != HI_PIXEL_FORMAT_RGBA_8888) return false;
      out = {dv::align_up(p.width, 128) * dv::packed_bytes(f), dv::align_up(p.height, 16)};
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_sys_get_image_align_info(const hi_module_type mod_type[], const hi_u32 mod_num,
                                       const hi_img_base_info *img_base_info,
                                       hi_img_align_info *img_align_info) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    mpi::required(mod_type, "mod_type");
    const hi_img_base_info &p = *mpi::required(img_base_info, "img_base_info");
    mpi::required(img_align_info, "img_align_info");
    if (mod_num == 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, "mod_num is 0");
    if (p.width == 0 || p.height == 0 || p.width > 16384 || p.height > 16384)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "img_base_info: " + std::to_string(p.width) + "x" +
                                            std::to_string(p.height) +
                                            " is outside 1x1 to 16384x16384");
    Strides all;
    for (hi_u32 i = 0; i < mod_num; ++i) {
      const bool every = mod_type[i] == HI_MOD_ALL;
      if (!every && module_name(mod_type[i]) == nullptr)
        mpi::reject(HI_ERR_ILLEGAL_PARAM, "mod_type[" + std::to_string(i) + "] " +
                                              std::to_string(mod_type[i]) +
                                              " is not a hi_module_type");
      bool taken = false;
      for (int m = HI_MOD_VPC; m <= HI_MOD_PNGD; ++m) {
        const auto unit = static_cast<hi_module_type>(m);
        Strides s;
        if ((!every && unit != mod_type[i]) || !unit_strides(unit, p, s)) continue;
        all = {std::max(all.width, s.width), std::max(all.height, s.height)};
        taken = true;
      }
      if (!taken)
        mpi::reject(HI_ERR_NOT_SUPPORT, std::string(every ? "no unit" : module_name(mod_type[i])) +
                                            " on openacl takes pixel format " +
                                            std::to_string(p.pixel_format));
    }
    *img_align_info = {};
    img_align_info->width_stride = all.width;
    img_align_info->height_stride = all.height;
    img_align_info->img_buf_size = dv::buffer_bytes(p.pixel_format, all.width, all.height);
  });
}

}  // extern "C"
