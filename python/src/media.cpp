// acl.media: pyACL's DVPP calls over acl/ops/acl_dvpp.h (libacl_dvpp): memory, channels,
// picture descriptions, configs, JPEG/PNG codecs and VPC. Enum arguments are plain ints that
// reach the C call unchanged, which checks them.
#include "media_channels.h"

#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include <cstring>
#include <tuple>

namespace openacl::py_acl {
namespace {

using Pic = acldvppPicDesc;
using Channel = acldvppChannelDesc;
using Roi = acldvppRoiConfig;
using Batch = acldvppBatchPicDesc;

void register_memory_and_channels(py::module_ &m) {
  m.def("dvpp_malloc", [](size_t size) {
    void *p = nullptr;
    aclError ret = acldvppMalloc(&p, size);
    return std::make_tuple(to_int(p), ret);
  });
  m.def("dvpp_free", [](Ptr p) { return acldvppFree(to_ptr(p)); });
  m.def("dvpp_create_channel_desc", [] { return to_int(acldvppCreateChannelDesc()); });
  m.def("dvpp_destroy_channel_desc",
        [](Ptr d) { return acldvppDestroyChannelDesc(to_ptr<Channel>(d)); });
  m.def("dvpp_get_channel_desc_channel_id",
        [](Ptr d) { return acldvppGetChannelDescChannelId(to_ptr<Channel>(d)); });
  m.def("dvpp_set_channel_desc_mode",
        [](Ptr d, uint32_t mode) { return acldvppSetChannelDescMode(to_ptr<Channel>(d), mode); });
  m.def("dvpp_set_channel_desc_param", [](Ptr d, int type, py::object value) {
    return set_csc_param<Channel, acldvppChannelDescParamType>(d, type, value,
                                                               acldvppSetChannelDescParam);
  });
  m.def("dvpp_get_channel_desc_param", [](Ptr d, int type) {
    return get_csc_param<Channel, acldvppChannelDescParamType>(d, type, acldvppGetChannelDescParam);
  });
  m.def("dvpp_create_channel", [](Ptr d) { return acldvppCreateChannel(to_ptr<Channel>(d)); });
  m.def("dvpp_destroy_channel", [](Ptr d) { return acldvppDestroyChannel(to_ptr<Channel>(d)); });
}

void register_pic_desc(py::module_ &m) {
  m.def("dvpp_create_pic_desc", [] { return to_int(acldvppCreatePicDesc()); });
  m.def("dvpp_destroy_pic_desc", [](Ptr d) { return acldvppDestroyPicDesc(to_ptr<Pic>(d)); });
  m.def("dvpp_set_pic_desc_data",
        [](Ptr d, Ptr data) { return acldvppSetPicDescData(to_ptr<Pic>(d), to_ptr(data)); });
  m.def("dvpp_set_pic_desc_size",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescSize(to_ptr<Pic>(d), v); });
  m.def("dvpp_set_pic_desc_format", [](Ptr d, int v) {
    return acldvppSetPicDescFormat(to_ptr<Pic>(d), as_enum<acldvppPixelFormat>(v));
  });
  m.def("dvpp_set_pic_desc_width",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescWidth(to_ptr<Pic>(d), v); });
  m.def("dvpp_set_pic_desc_height",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescHeight(to_ptr<Pic>(d), v); });
  m.def("dvpp_set_pic_desc_width_stride",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescWidthStride(to_ptr<Pic>(d), v); });
  m.def("dvpp_set_pic_desc_height_stride",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescHeightStride(to_ptr<Pic>(d), v); });
  m.def("dvpp_set_pic_desc_ret_code",
        [](Ptr d, uint32_t v) { return acldvppSetPicDescRetCode(to_ptr<Pic>(d), v); });
  m.def("dvpp_get_pic_desc_data",
        [](Ptr d) { return to_int(acldvppGetPicDescData(to_ptr<Pic>(d))); });
  m.def("dvpp_get_pic_desc_size", [](Ptr d) { return acldvppGetPicDescSize(to_ptr<Pic>(d)); });
  m.def("dvpp_get_pic_desc_format",
        [](Ptr d) { return static_cast<int>(acldvppGetPicDescFormat(to_ptr<Pic>(d))); });
  m.def("dvpp_get_pic_desc_width", [](Ptr d) { return acldvppGetPicDescWidth(to_ptr<Pic>(d)); });
  m.def("dvpp_get_pic_desc_height", [](Ptr d) { return acldvppGetPicDescHeight(to_ptr<Pic>(d)); });
  m.def("dvpp_get_pic_desc_width_stride",
        [](Ptr d) { return acldvppGetPicDescWidthStride(to_ptr<Pic>(d)); });
  m.def("dvpp_get_pic_desc_height_stride",
        [](Ptr d) { return acldvppGetPicDescHeightStride(to_ptr<Pic>(d)); });
  m.def("dvpp_get_pic_desc_ret_code",
        [](Ptr d) { return acldvppGetPicDescRetCode(to_ptr<Pic>(d)); });
  m.def("dvpp_create_batch_pic_desc",
        [](uint32_t n) { return to_int(acldvppCreateBatchPicDesc(n)); });
  m.def("dvpp_get_pic_desc",
        [](Ptr b, uint32_t i) { return to_int(acldvppGetPicDesc(to_ptr<Batch>(b), i)); });
  m.def("dvpp_destroy_batch_pic_desc",
        [](Ptr b) { return acldvppDestroyBatchPicDesc(to_ptr<Batch>(b)); });
}

void register_configs(py::module_ &m) {
  m.def("dvpp_create_roi_config", [](uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return to_int(acldvppCreateRoiConfig(l, r, t, b));
  });
  m.def("dvpp_destroy_roi_config", [](Ptr c) { return acldvppDestroyRoiConfig(to_ptr<Roi>(c)); });
  m.def("dvpp_set_roi_config", [](Ptr c, uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
    return acldvppSetRoiConfig(to_ptr<Roi>(c), l, r, t, b);
  });
  m.def("dvpp_set_roi_config_left",
        [](Ptr c, uint32_t v) { return acldvppSetRoiConfigLeft(to_ptr<Roi>(c), v); });
  m.def("dvpp_set_roi_config_right",
        [](Ptr c, uint32_t v) { return acldvppSetRoiConfigRight(to_ptr<Roi>(c), v); });
  m.def("dvpp_set_roi_config_top",
        [](Ptr c, uint32_t v) { return acldvppSetRoiConfigTop(to_ptr<Roi>(c), v); });
  m.def("dvpp_set_roi_config_bottom",
        [](Ptr c, uint32_t v) { return acldvppSetRoiConfigBottom(to_ptr<Roi>(c), v); });
  m.def("dvpp_create_resize_config", [] { return to_int(acldvppCreateResizeConfig()); });
  m.def("dvpp_destroy_resize_config",
        [](Ptr c) { return acldvppDestroyResizeConfig(to_ptr<acldvppResizeConfig>(c)); });
  m.def("dvpp_set_resize_config_interpolation", [](Ptr c, uint32_t v) {
    return acldvppSetResizeConfigInterpolation(to_ptr<acldvppResizeConfig>(c), v);
  });
  m.def("dvpp_get_resize_config_interpolation",
        [](Ptr c) { return acldvppGetResizeConfigInterpolation(to_ptr<acldvppResizeConfig>(c)); });
  m.def("dvpp_create_jpege_config", [] { return to_int(acldvppCreateJpegeConfig()); });
  m.def("dvpp_destroy_jpege_config",
        [](Ptr c) { return acldvppDestroyJpegeConfig(to_ptr<acldvppJpegeConfig>(c)); });
  m.def("dvpp_set_jpege_config_level", [](Ptr c, uint32_t v) {
    return acldvppSetJpegeConfigLevel(to_ptr<acldvppJpegeConfig>(c), v);
  });
  m.def("dvpp_get_jpege_config_level",
        [](Ptr c) { return acldvppGetJpegeConfigLevel(to_ptr<acldvppJpegeConfig>(c)); });
}

void register_codecs(py::module_ &m) {
  m.def("dvpp_jpeg_get_image_info", [](Ptr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    aclError ret = acldvppJpegGetImageInfo(to_ptr(data), size, &w, &h, &c);
    return std::make_tuple(w, h, c, ret);
  });
  m.def("dvpp_jpeg_get_image_info_v2", [](Ptr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    acldvppJpegFormat f = ACL_JPEG_CSS_UNKNOWN;
    aclError ret = acldvppJpegGetImageInfoV2(to_ptr(data), size, &w, &h, &c, &f);
    return std::make_tuple(w, h, c, static_cast<int>(f), ret);
  });
  m.def("dvpp_jpeg_predict_dec_size", [](Ptr data, uint32_t size, int format) {
    uint32_t out = 0;
    aclError ret =
        acldvppJpegPredictDecSize(to_ptr(data), size, as_enum<acldvppPixelFormat>(format), &out);
    return std::make_tuple(out, ret);
  });
  m.def("dvpp_jpeg_predict_enc_size", [](Ptr desc, Ptr config) {
    uint32_t out = 0;
    aclError ret =
        acldvppJpegPredictEncSize(to_ptr<Pic>(desc), to_ptr<acldvppJpegeConfig>(config), &out);
    return std::make_tuple(out, ret);
  });
  m.def("dvpp_jpeg_decode_async", [](Ptr ch, Ptr data, uint32_t size, Ptr out, Ptr stream) {
    return acldvppJpegDecodeAsync(to_ptr<Channel>(ch), to_ptr(data), size, to_ptr<Pic>(out),
                                  to_ptr(stream));
  });
  // size_ptr: the address of a uint32 holding the buffer size, which the task overwrites
  // with the JPEG's size (pyACL passes acl.util.numpy_to_ptr of a one-element array).
  m.def("dvpp_jpeg_encode_async",
        [](Ptr ch, Ptr in, Ptr data, Ptr size_ptr, Ptr config, Ptr stream) {
          return acldvppJpegEncodeAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr(data),
                                        to_ptr<uint32_t>(size_ptr),
                                        to_ptr<acldvppJpegeConfig>(config), to_ptr(stream));
        });
  m.def("dvpp_png_get_image_info", [](Ptr data, uint32_t size) {
    uint32_t w = 0, h = 0;
    int32_t c = 0;
    aclError ret = acldvppPngGetImageInfo(to_ptr(data), size, &w, &h, &c);
    return std::make_tuple(w, h, c, ret);
  });
  m.def("dvpp_png_predict_dec_size", [](Ptr data, uint32_t size, int format) {
    uint32_t out = 0;
    aclError ret =
        acldvppPngPredictDecSize(to_ptr(data), size, as_enum<acldvppPixelFormat>(format), &out);
    return std::make_tuple(out, ret);
  });
  m.def("dvpp_png_decode_async", [](Ptr ch, Ptr data, uint32_t size, Ptr out, Ptr stream) {
    return acldvppPngDecodeAsync(to_ptr<Channel>(ch), to_ptr(data), size, to_ptr<Pic>(out),
                                 to_ptr(stream));
  });
}

void register_vpc(py::module_ &m) {
  m.def("dvpp_vpc_resize_async", [](Ptr ch, Ptr in, Ptr out, Ptr config, Ptr stream) {
    return acldvppVpcResizeAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                                 to_ptr<acldvppResizeConfig>(config), to_ptr(stream));
  });
  m.def("dvpp_vpc_crop_async", [](Ptr ch, Ptr in, Ptr out, Ptr crop, Ptr stream) {
    return acldvppVpcCropAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                               to_ptr<Roi>(crop), to_ptr(stream));
  });
  m.def("dvpp_vpc_crop_resize_async",
        [](Ptr ch, Ptr in, Ptr out, Ptr crop, Ptr config, Ptr stream) {
          return acldvppVpcCropResizeAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                                           to_ptr<Roi>(crop), to_ptr<acldvppResizeConfig>(config),
                                           to_ptr(stream));
        });
  m.def("dvpp_vpc_crop_and_paste_async",
        [](Ptr ch, Ptr in, Ptr out, Ptr crop, Ptr paste, Ptr stream) {
          return acldvppVpcCropAndPasteAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                                             to_ptr<Roi>(crop), to_ptr<Roi>(paste), to_ptr(stream));
        });
  m.def("dvpp_vpc_crop_resize_paste_async",
        [](Ptr ch, Ptr in, Ptr out, Ptr crop, Ptr paste, Ptr config, Ptr stream) {
          return acldvppVpcCropResizePasteAsync(
              to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out), to_ptr<Roi>(crop),
              to_ptr<Roi>(paste), to_ptr<acldvppResizeConfig>(config), to_ptr(stream));
        });
  m.def("dvpp_vpc_batch_crop_async",
        [](Ptr ch, Ptr src, std::vector<uint32_t> roi_nums, uint32_t size, Ptr dst,
           const std::vector<Ptr> &crops, Ptr stream) {
          roi_nums = padded_roi_nums(std::move(roi_nums), size);
          auto areas = padded_regions<Roi>(crops, roi_nums, size);
          return acldvppVpcBatchCropAsync(to_ptr<Channel>(ch), to_ptr<Batch>(src), roi_nums.data(),
                                          size, to_ptr<Batch>(dst), areas.data(), to_ptr(stream));
        });
  m.def("dvpp_vpc_batch_crop_resize_async",
        [](Ptr ch, Ptr src, std::vector<uint32_t> roi_nums, uint32_t size, Ptr dst,
           const std::vector<Ptr> &crops, Ptr config, Ptr stream) {
          roi_nums = padded_roi_nums(std::move(roi_nums), size);
          auto areas = padded_regions<Roi>(crops, roi_nums, size);
          return acldvppVpcBatchCropResizeAsync(
              to_ptr<Channel>(ch), to_ptr<Batch>(src), roi_nums.data(), size, to_ptr<Batch>(dst),
              areas.data(), to_ptr<acldvppResizeConfig>(config), to_ptr(stream));
        });
  m.def("dvpp_vpc_batch_crop_and_paste_async",
        [](Ptr ch, Ptr src, std::vector<uint32_t> roi_nums, uint32_t size, Ptr dst,
           const std::vector<Ptr> &crops, const std::vector<Ptr> &pastes, Ptr stream) {
          roi_nums = padded_roi_nums(std::move(roi_nums), size);
          auto c = padded_regions<Roi>(crops, roi_nums, size),
               p = padded_regions<Roi>(pastes, roi_nums, size);
          return acldvppVpcBatchCropAndPasteAsync(to_ptr<Channel>(ch), to_ptr<Batch>(src),
                                                  roi_nums.data(), size, to_ptr<Batch>(dst),
                                                  c.data(), p.data(), to_ptr(stream));
        });
  m.def("dvpp_vpc_batch_crop_resize_paste_async",
        [](Ptr ch, Ptr src, std::vector<uint32_t> roi_nums, uint32_t size, Ptr dst,
           const std::vector<Ptr> &crops, const std::vector<Ptr> &pastes, Ptr config, Ptr stream) {
          roi_nums = padded_roi_nums(std::move(roi_nums), size);
          auto c = padded_regions<Roi>(crops, roi_nums, size),
               p = padded_regions<Roi>(pastes, roi_nums, size);
          return acldvppVpcBatchCropResizePasteAsync(
              to_ptr<Channel>(ch), to_ptr<Batch>(src), roi_nums.data(), size, to_ptr<Batch>(dst),
              c.data(), p.data(), to_ptr<acldvppResizeConfig>(config), to_ptr(stream));
        });
  m.def("dvpp_vpc_convert_color_async", [](Ptr ch, Ptr in, Ptr out, Ptr stream) {
    return acldvppVpcConvertColorAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                                       to_ptr(stream));
  });
  m.def("dvpp_vpc_make_border_async", [](Ptr ch, Ptr in, Ptr out, Ptr config, Ptr stream) {
    return acldvppVpcMakeBorderAsync(to_ptr<const Channel>(ch), to_ptr<const Pic>(in),
                                     to_ptr<Pic>(out), to_ptr<const acldvppBorderConfig>(config),
                                     to_ptr(stream));
  });
}

void register_border(py::module_ &m) {
  using Border = acldvppBorderConfig;
  m.def("dvpp_create_border_config", [] { return to_int(acldvppCreateBorderConfig()); });
  m.def("dvpp_destroy_border_config",
        [](Ptr c) { return acldvppDestroyBorderConfig(to_ptr<Border>(c)); });
  m.def("dvpp_set_border_config_value", [](Ptr c, uint32_t i, double v) {
    return acldvppSetBorderConfigValue(to_ptr<Border>(c), i, v);
  });
  m.def("dvpp_set_border_config_border_type", [](Ptr c, int t) {
    return acldvppSetBorderConfigBorderType(to_ptr<Border>(c), as_enum<acldvppBorderType>(t));
  });
  m.def("dvpp_set_border_config_top",
        [](Ptr c, uint32_t v) { return acldvppSetBorderConfigTop(to_ptr<Border>(c), v); });
  m.def("dvpp_set_border_config_bottom",
        [](Ptr c, uint32_t v) { return acldvppSetBorderConfigBottom(to_ptr<Border>(c), v); });
  m.def("dvpp_set_border_config_left",
        [](Ptr c, uint32_t v) { return acldvppSetBorderConfigLeft(to_ptr<Border>(c), v); });
  m.def("dvpp_set_border_config_right",
        [](Ptr c, uint32_t v) { return acldvppSetBorderConfigRight(to_ptr<Border>(c), v); });
  m.def("dvpp_get_border_config_value",
        [](Ptr c, uint32_t i) { return acldvppGetBorderConfigValue(to_ptr<Border>(c), i); });
  m.def("dvpp_get_border_config_border_type", [](Ptr c) {
    return static_cast<int>(acldvppGetBorderConfigBorderType(to_ptr<Border>(c)));
  });
  m.def("dvpp_get_border_config_top",
        [](Ptr c) { return acldvppGetBorderConfigTop(to_ptr<Border>(c)); });
  m.def("dvpp_get_border_config_bottom",
        [](Ptr c) { return acldvppGetBorderConfigBottom(to_ptr<Border>(c)); });
  m.def("dvpp_get_border_config_left",
        [](Ptr c) { return acldvppGetBorderConfigLeft(to_ptr<Border>(c)); });
  m.def("dvpp_get_border_config_right",
        [](Ptr c) { return acldvppGetBorderConfigRight(to_ptr<Border>(c)); });
}

}  // namespace

void register_media(py::module_ &media) {
  register_memory_and_channels(media);
  register_pic_desc(media);
  register_configs(media);
  register_codecs(media);
  register_vpc(media);
  register_border(media);
  register_media_hist(media);
  register_media_venc(media);
  register_media_vdec(media);
}

}  // namespace openacl::py_acl
