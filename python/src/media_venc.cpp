// acl.media: stream descriptions and VENC. A Python callback (venc_set_channel_desc_callback)
// runs on the thread subscribed to the channel, inside acl.rt.process_report, which has
// dropped the GIL: a C trampoline takes the GIL for the call, as acl.rt.launch_callback's does.
#include "common.h"

#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include <map>

namespace openacl::py_acl {
namespace {

using Venc = aclvencChannelDesc;
using Frame = aclvencFrameConfig;
using Stream = acldvppStreamDesc;

// The Python callback of each channel description (touched with the GIL held); freed with
// the description.
std::map<Venc *, py::object> &callbacks() {
  static auto *m =
      new std::map<Venc *, py::object>();  // never destroyed: runtime threads may outlive exit
  return *m;
}

// What one aclvencSendFrame carries as userdata: the channel's function and the frame's
// user_data, alive until the callback has run.
struct VencCall {
  py::object fn;
  py::object user_data;
};

extern "C" void run_venc_call(acldvppPicDesc *input, acldvppStreamDesc *output, void *user) {
  auto *call = static_cast<VencCall *>(user);
  if (interpreter_exiting()) return;
  py::gil_scoped_acquire gil;
  try {
    call->fn(to_int(input), to_int(output), call->user_data);
  } catch (py::error_already_set &e) {
    e.discard_as_unraisable("acl.media VENC callback");
  }
  delete call;
}

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

void register_venc_desc(py::module_ &m) {
  m.def("venc_create_channel_desc", [] { return to_int(aclvencCreateChannelDesc()); });
  m.def("venc_destroy_channel_desc", [](Ptr d) {
    aclError ret = aclvencDestroyChannelDesc(to_ptr<Venc>(d));
    if (ret == ACL_SUCCESS) callbacks().erase(to_ptr<Venc>(d));
    return ret;
  });
  m.def("venc_set_channel_desc_callback", [](Ptr d, py::object fn) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("callback must be callable");
    aclError ret = aclvencSetChannelDescCallback(to_ptr<Venc>(d), run_venc_call);
    if (ret == ACL_SUCCESS) callbacks()[to_ptr<Venc>(d)] = fn;
    return ret;
  });
  m.def("venc_get_channel_desc_callback", [](Ptr d) -> py::object {
    auto it = callbacks().find(to_ptr<Venc>(d));
    return it == callbacks().end() ? py::none() : it->second;
  });
  m.def("venc_set_channel_desc_thread_id",
        [](Ptr d, uint64_t v) { return aclvencSetChannelDescThreadId(to_ptr<Venc>(d), v); });
  m.def("venc_set_channel_desc_en_type", [](Ptr d, int v) {
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
  m.def("venc_get_channel_desc_en_type",
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
    auto it = callbacks().find(to_ptr<Venc>(d));
    auto *call = new VencCall{it == callbacks().end() ? py::none() : it->second, user_data};
    aclError ret;
    {
      NoGil released;
      ret = aclvencSendFrame(to_ptr<Venc>(d), to_ptr<acldvppPicDesc>(input), to_ptr(reserve),
                             to_ptr<Frame>(config), call);
    }
    if (ret != ACL_SUCCESS) delete call;
    return ret;
  });
}

}  // namespace

void register_media_venc(py::module_ &m) {
  register_stream_desc(m);
  register_venc_desc(m);
  register_venc(m);
}

}  // namespace openacl::py_acl
