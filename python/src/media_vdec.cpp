// acl.media: VDEC (vdec_*), with pyACL's names (entype, not en_type) and shapes; its Python
// callback fn(input_stream_desc, output_pic_desc, user_data) runs as media_channels.h says.
#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include "media_channels.h"

namespace openacl::py_acl {
namespace {

using Vdec = aclvdecChannelDesc;
using Frame = aclvdecFrameConfig;

void register_vdec_desc(py::module_ &m) {
  m.def("vdec_create_channel_desc", [] { return to_int(aclvdecCreateChannelDesc()); });
  m.def("vdec_destroy_channel_desc", [](Ptr d) {
    aclError ret = aclvdecDestroyChannelDesc(to_ptr<Vdec>(d));
    if (ret == ACL_SUCCESS) channel_callbacks<Vdec>().erase(to_ptr<Vdec>(d));
    return ret;
  });
  m.def("vdec_set_channel_desc_callback", [](Ptr d, py::object fn) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("callback must be callable");
    aclError ret = aclvdecSetChannelDescCallback(
        to_ptr<Vdec>(d), run_channel_call<acldvppStreamDesc, acldvppPicDesc>);
    if (ret == ACL_SUCCESS) channel_callbacks<Vdec>()[to_ptr<Vdec>(d)] = fn;
    return ret;
  });
  m.def("vdec_get_channel_desc_callback",
        [](Ptr d) { return channel_callback(to_ptr<const Vdec>(d)); });
  m.def("vdec_set_channel_desc_channel_id",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescChannelId(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_thread_id",
        [](Ptr d, uint64_t v) { return aclvdecSetChannelDescThreadId(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_entype", [](Ptr d, int v) {
    return aclvdecSetChannelDescEnType(to_ptr<Vdec>(d), as_enum<acldvppStreamFormat>(v));
  });
  m.def("vdec_set_channel_desc_out_pic_format", [](Ptr d, int v) {
    return aclvdecSetChannelDescOutPicFormat(to_ptr<Vdec>(d), as_enum<acldvppPixelFormat>(v));
  });
  m.def("vdec_set_channel_desc_out_pic_width",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescOutPicWidth(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_out_pic_height",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescOutPicHeight(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_ref_frame_num",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescRefFrameNum(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_out_mode",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescOutMode(to_ptr<Vdec>(d), v); });
  m.def("vdec_set_channel_desc_bit_depth",
        [](Ptr d, uint32_t v) { return aclvdecSetChannelDescBitDepth(to_ptr<Vdec>(d), v); });
  m.def("vdec_get_channel_desc_channel_id",
        [](Ptr d) { return aclvdecGetChannelDescChannelId(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_thread_id",
        [](Ptr d) { return aclvdecGetChannelDescThreadId(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_entype",
        [](Ptr d) { return static_cast<int>(aclvdecGetChannelDescEnType(to_ptr<const Vdec>(d))); });
  m.def("vdec_get_channel_desc_out_pic_format", [](Ptr d) {
    return static_cast<int>(aclvdecGetChannelDescOutPicFormat(to_ptr<const Vdec>(d)));
  });
  m.def("vdec_get_channel_desc_out_pic_width",
        [](Ptr d) { return aclvdecGetChannelDescOutPicWidth(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_out_pic_height",
        [](Ptr d) { return aclvdecGetChannelDescOutPicHeight(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_ref_frame_num",
        [](Ptr d) { return aclvdecGetChannelDescRefFrameNum(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_out_mode",
        [](Ptr d) { return aclvdecGetChannelDescOutMode(to_ptr<const Vdec>(d)); });
  m.def("vdec_get_channel_desc_bit_depth",
        [](Ptr d) { return aclvdecGetChannelDescBitDepth(to_ptr<const Vdec>(d)); });
  m.def("vdec_set_channel_desc_param", [](Ptr d, int type, py::object value) {
    return set_csc_param<Vdec, aclvdecChannelDescParamType>(d, type, value,
                                                            aclvdecSetChannelDescParam);
  });
  m.def("vdec_get_channel_desc_param", [](Ptr d, int type) {
    return get_csc_param<Vdec, aclvdecChannelDescParamType>(d, type, aclvdecGetChannelDescParam);
  });
}

void register_vdec(py::module_ &m) {
  m.def("vdec_create_frame_config", [] { return to_int(aclvdecCreateFrameConfig()); });
  m.def("vdec_destroy_frame_config",
        [](Ptr c) { return aclvdecDestroyFrameConfig(to_ptr<Frame>(c)); });
  m.def(
      "vdec_create_channel", [](Ptr d) { return aclvdecCreateChannel(to_ptr<Vdec>(d)); }, nogil());
  // Waits for the channel's callbacks, which need the GIL.
  m.def(
      "vdec_destroy_channel", [](Ptr d) { return aclvdecDestroyChannel(to_ptr<Vdec>(d)); },
      nogil());
  m.def("vdec_send_frame", [](Ptr d, Ptr input, Ptr output, Ptr config, py::object user_data) {
    return send_with_callback(to_ptr<const Vdec>(d), std::move(user_data), [&](void *call) {
      return aclvdecSendFrame(to_ptr<Vdec>(d), to_ptr<acldvppStreamDesc>(input),
                              to_ptr<acldvppPicDesc>(output), to_ptr<Frame>(config), call);
    });
  });
  m.def("vdec_send_skipped_frame", [](Ptr d, Ptr input, Ptr config, py::object user_data) {
    return send_with_callback(to_ptr<const Vdec>(d), std::move(user_data), [&](void *call) {
      return aclvdecSendSkippedFrame(to_ptr<Vdec>(d), to_ptr<acldvppStreamDesc>(input),
                                     to_ptr<Frame>(config), call);
    });
  });
}

}  // namespace

void register_media_vdec(py::module_ &m) {
  register_vdec_desc(m);
  register_vdec(m);
}

}  // namespace openacl::py_acl
