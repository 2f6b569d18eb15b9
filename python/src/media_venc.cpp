// acl.media: stream descriptions and VENC, its Python callback as media_channels.h runs it.
#include "media_channels.h"

#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

namespace openacl::py_acl {
namespace {

using Venc = aclvencChannelDesc;
using Frame = aclvencFrameConfig;
using Stream = acldvppStreamDesc;

void register_stream_desc(py::module_ &m) {
  m.def("dvpp_create_stream_desc", [] { return to_int(acldvppCreateStreamDesc()); });
  m.def("dvpp_destroy_stream_desc",
        [](Ptr d) { return acldvppDestroyStreamDesc(to_ptr<Stream>(d)); });
  m.def("dvpp_set_stream_desc_data",
        [](Ptr d, Ptr data) { return acldvppSetStreamDescData(to_ptr<Stream>(d), to_ptr(data)); });
  m.def("dvpp_set_stream_desc_size",
        [](Ptr d, uint32_t v) { return acldvppSetStreamDescSize(to_ptr<Stream>(d), v); });
  m.def("dvpp_set_stream_desc_format", [](Ptr d, int v) {
    return acldvppSetStreamDescFormat(to_ptr<Stream>(d), as_enum<acldvppStreamFormat>(v));
  });
  m.def("dvpp_set_stream_desc_timestamp",
        [](Ptr d, uint64_t v) { return acldvppSetStreamDescTimestamp(to_ptr<Stream>(d), v); });
  m.def("dvpp_set_stream_desc_ret_code",
        [](Ptr d, uint32_t v) { return acldvppSetStreamDescRetCode(to_ptr<Stream>(d), v); });
  m.def("dvpp_set_stream_desc_eos",
        [](Ptr d, uint8_t v) { return acldvppSetStreamDescEos(to_ptr<Stream>(d), v); });
  m.def("dvpp_get_stream_desc_data",
        [](Ptr d) { return to_int(acldvppGetStreamDescData(to_ptr<const Stream>(d))); });
  m.def("dvpp_get_stream_desc_size",
        [](Ptr d) { return acldvppGetStreamDescSize(to_ptr<const Stream>(d)); });
  m.def("dvpp_get_stream_desc_format", [](Ptr d) {
    return static_cast<int>(acldvppGetStreamDescFormat(to_ptr<const Stream>(d)));
  });
  m.def("dvpp_get_stream_desc_timestamp",
        [](Ptr d) { return acldvppGetStreamDescTimestamp(to_ptr<const Stream>(d)); });
  m.def("dvpp_get_stream_desc_ret_code",
        [](Ptr d) { return acldvppGetStreamDescRetCode(to_ptr<const Stream>(d)); });
  m.def("dvpp_get_stream_desc_eos",
        [](Ptr d) { return acldvppGetStreamDescEos(to_ptr<const Stream>(d)); });
}

// The callback as pyACL keeps it: the Python function per description, the C trampoline set.
aclError set_venc_callback(Venc *d, const py::object &fn) {
  if (!PyCallable_Check(fn.ptr())) throw py::type_error("callback must be callable");
  aclError ret =
      aclvencSetChannelDescCallback(d, run_channel_call<acldvppPicDesc, acldvppStreamDesc>);
  if (ret == ACL_SUCCESS) channel_callbacks<Venc>()[d] = fn;
  return ret;
}

void register_venc_desc(py::module_ &m) {
  m.def("venc_create_channel_desc", [] { return to_int(aclvencCreateChannelDesc()); });
  m.def("venc_destroy_channel_desc", [](Ptr d) {
    aclError ret = aclvencDestroyChannelDesc(to_ptr<Venc>(d));
    if (ret == ACL_SUCCESS) channel_callbacks<Venc>().erase(to_ptr<Venc>(d));
    return ret;
  });
  m.def("venc_set_channel_desc_callback",
        [](Ptr d, py::object fn) { return set_venc_callback(to_ptr<Venc>(d), fn); });
  m.def("venc_get_channel_desc_callback",
        [](Ptr d) { return channel_callback(to_ptr<const Venc>(d)); });
  m.def("venc_set_channel_desc_thread_id",
        [](Ptr d, uint64_t v) { return aclvencSetChannelDescThreadId(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_entype", [](Ptr d, int v) {
    return aclvencSetChannelDescEnType(to_ptr<Venc>(d), as_enum<acldvppStreamFormat>(v));
  });
  m.def("venc_set_channel_desc_pic_format", [](Ptr d, int v) {
    return aclvencSetChannelDescPicFormat(to_ptr<Venc>(d), as_enum<acldvppPixelFormat>(v));
  });
  m.def("venc_set_channel_desc_pic_width",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescPicWidth(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_pic_height",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescPicHeight(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_key_frame_interval", [](Ptr d, uint32_t v) {
    return aclvencSetChannelDescKeyFrameInterval(to_ptr<Venc>(d), v);
  });
  m.def("venc_set_channel_desc_buf_addr",
        [](Ptr d, Ptr v) { return aclvencSetChannelDescBufAddr(to_ptr<Venc>(d), to_ptr(v)); });
  m.def("venc_set_channel_desc_buf_size",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescBufSize(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_rc_mode",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescRcMode(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_src_rate",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescSrcRate(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_max_bit_rate",
        [](Ptr d, uint32_t v) { return aclvencSetChannelDescMaxBitRate(to_ptr<Venc>(d), v); });
  m.def("venc_get_channel_desc_thread_id",
        [](Ptr d) { return aclvencGetChannelDescThreadId(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_channel_id",
        [](Ptr d) { return aclvencGetChannelDescChannelId(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_entype",
        [](Ptr d) { return static_cast<int>(aclvencGetChannelDescEnType(to_ptr<const Venc>(d))); });
  m.def("venc_get_channel_desc_pic_format", [](Ptr d) {
    return static_cast<int>(aclvencGetChannelDescPicFormat(to_ptr<const Venc>(d)));
  });
  m.def("venc_get_channel_desc_pic_width",
        [](Ptr d) { return aclvencGetChannelDescPicWidth(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_pic_height",
        [](Ptr d) { return aclvencGetChannelDescPicHeight(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_key_frame_interval",
        [](Ptr d) { return aclvencGetChannelDescKeyFrameInterval(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_buf_addr",
        [](Ptr d) { return to_int(aclvencGetChannelDescBufAddr(to_ptr<const Venc>(d))); });
  m.def("venc_get_channel_desc_buf_size",
        [](Ptr d) { return aclvencGetChannelDescBufSize(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_rc_mode",
        [](Ptr d) { return aclvencGetChannelDescRcMode(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_src_rate",
        [](Ptr d) { return aclvencGetChannelDescSrcRate(to_ptr<const Venc>(d)); });
  m.def("venc_get_channel_desc_max_bit_rate",
        [](Ptr d) { return aclvencGetChannelDescMaxBitRate(to_ptr<const Venc>(d)); });
}

// pyACL's one-call forms: the value's type follows the param (a callable for CALLBACK_PTR, an
// address for BUF_ADDR_PTR, uint64 for THREAD_ID_UINT64, uint32 for the rest).
void register_venc_param(py::module_ &m) {
  m.def("venc_set_channel_desc_param", [](Ptr d, int type, py::object value) -> aclError {
    auto *desc = to_ptr<Venc>(d);
    const auto t = as_enum<aclvencChannelDescParamType>(type);
    if (type == ACL_VENC_CALLBACK_PTR) return set_venc_callback(desc, value);
    if (type == ACL_VENC_BUF_ADDR_PTR) {
      void *addr = to_ptr(param_value<Ptr>(value));
      return aclvencSetChannelDescParam(desc, t, sizeof addr, &addr);
    }
    if (type == ACL_VENC_THREAD_ID_UINT64) {
      const auto v = param_value<uint64_t>(value);
      return aclvencSetChannelDescParam(desc, t, sizeof v, &v);
    }
    const auto v = param_value<uint32_t>(value);
    return aclvencSetChannelDescParam(desc, t, sizeof v, &v);
  });
  m.def("venc_get_channel_desc_param", [](Ptr d, int type) -> py::tuple {
    const auto *desc = to_ptr<const Venc>(d);
    const auto t = as_enum<aclvencChannelDescParamType>(type);
    size_t got = 0;
    if (type == ACL_VENC_CALLBACK_PTR) return py::make_tuple(channel_callback(desc), ACL_SUCCESS);
    if (type == ACL_VENC_BUF_ADDR_PTR) {
      void *addr = nullptr;
      aclError ret = aclvencGetChannelDescParam(desc, t, sizeof addr, &got, &addr);
      return py::make_tuple(to_int(addr), ret);
    }
    if (type == ACL_VENC_THREAD_ID_UINT64) {
      uint64_t v = 0;
      aclError ret = aclvencGetChannelDescParam(desc, t, sizeof v, &got, &v);
      return py::make_tuple(v, ret);
    }
    uint32_t v = 0;
    aclError ret = aclvencGetChannelDescParam(desc, t, sizeof v, &got, &v);
    return py::make_tuple(v, ret);
  });
}

void register_venc(py::module_ &m) {
  m.def("venc_create_frame_config", [] { return to_int(aclvencCreateFrameConfig()); });
  m.def("venc_destroy_frame_config",
        [](Ptr c) { return aclvencDestroyFrameConfig(to_ptr<Frame>(c)); });
  m.def("venc_set_frame_config_force_i_frame",
        [](Ptr c, uint8_t v) { return aclvencSetFrameConfigForceIFrame(to_ptr<Frame>(c), v); });
  m.def("venc_set_frame_config_eos",
        [](Ptr c, uint8_t v) { return aclvencSetFrameConfigEos(to_ptr<Frame>(c), v); });
  m.def("venc_get_frame_config_force_i_frame",
        [](Ptr c) { return aclvencGetFrameConfigForceIFrame(to_ptr<const Frame>(c)); });
  m.def("venc_get_frame_config_eos",
        [](Ptr c) { return aclvencGetFrameConfigEos(to_ptr<const Frame>(c)); });
  m.def(
      "venc_create_channel", [](Ptr d) { return aclvencCreateChannel(to_ptr<Venc>(d)); }, nogil());
  // Waits for the channel's callbacks, which need the GIL.
  m.def(
      "venc_destroy_channel", [](Ptr d) { return aclvencDestroyChannel(to_ptr<Venc>(d)); },
      nogil());
  m.def("venc_send_frame", [](Ptr d, Ptr input, Ptr reserve, Ptr config, py::object user_data) {
    return send_with_callback(to_ptr<const Venc>(d), std::move(user_data), [&](void *call) {
      return aclvencSendFrame(to_ptr<Venc>(d), to_ptr<acldvppPicDesc>(input), to_ptr(reserve),
                              to_ptr<Frame>(config), call);
    });
  });
}

}  // namespace

void register_media_venc(py::module_ &m) {
  register_stream_desc(m);
  register_venc_desc(m);
  register_venc_param(m);
  register_venc(m);
}

}  // namespace openacl::py_acl
