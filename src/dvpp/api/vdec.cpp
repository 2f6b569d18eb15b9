// VDEC (aclvdec*): channel descriptions, channels and frames. A channel owns a stream of the
// context that created it; each aclvdecSendFrame puts a decode task on that stream and then a
// blocking callback (aclrtLaunchCallback), which runs the program's aclvdecCallback on the
// thread named by aclvdecSetChannelDescThreadId (subscribed to the stream with
// aclrtSubscribeReport at aclvdecCreateChannel), in the order of the sends. The decode task
// reads the stream description's values and the frame's bytes as they were at the send (the
// frame is copied then); it writes the picture (scaled to the channel's OutPicWidth / Height when
// they are set), its size and strides (width stride aligned to 16, height stride to 2) and
// retCode 0 into the output description, or retCode 1 when the frame gave no picture or did not
// fit.
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/device.h"
#include "core/stream.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/submit.h"
#include "dvpp/api/video_descs.h"
#include "dvpp/memory.h"
#include "dvpp/video_output.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace dv = openacl::dvpp;

namespace {

template <class F>
aclError set(const char *api, aclvdecChannelDesc *d, F &&assign) {
  return guarded(api, [&] {
    checked(d, "channelDesc");
    if (d->decoder)
      fail(Errc::invalid_argument,
           "the channel is created: set its description before aclvdecCreateChannel");
    assign(*d);
  });
}

template <class T, class F>
T get(const char *api, const aclvdecChannelDesc *d, F &&read) {
  return openacl::dvpp::api::get<T>(api, d, "channelDesc", read);
}

// Calls an aclrt* function of the runtime; a failure fails the calling API with its message.
void runtime(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS)
    fail(Errc::invalid_argument, std::string(what) + " failed: " + aclGetRecentErrMsg());
}

struct Delivery {
  aclvdecCallback callback;
  acldvppStreamDesc *input;
  acldvppPicDesc *output;
  void *user_data;
};

void deliver(void *p) {
  auto *d = static_cast<Delivery *>(p);
  d->callback(d->input, d->output, d->user_data);
  delete d;
}

// The decode of one frame, on the channel's stream, writing the picture through its host view
// in `views`. out_width / out_height: the channel's OutPicWidth / Height, 0 for the frame's.
void decode(dv::VideoDecoder &decoder, const uint8_t *data, uint32_t size, bool eos,
            const std::shared_ptr<dv::Picture> &pic, uint32_t format, uint32_t out_width,
            uint32_t out_height, uint32_t csc_matrix, const dv::api::HostRanges &views) {
  try {
    if (size != 0) decoder.send(data, size);
    if (eos) decoder.flush();
  } catch (const openacl::Error &) {
    if (pic) pic->ret_code.store(1, std::memory_order_relaxed);
    return;
  }
  uint32_t w = 0, h = 0;
  if (!decoder.peek(&w, &h)) {
    if (pic) pic->ret_code.store(1, std::memory_order_relaxed);
    return;
  }
  if (!pic) {  // a skipped frame: decoded, not output
    decoder.take_discard();
    return;
  }
  dv::Image out = pic->snapshot();
  out.format = format;
  out.width = out_width ? out_width : w;
  out.height = out_height ? out_height : h;
  out.width_stride = dv::align_up(out.width, 16);
  out.height_stride = dv::align_up(out.height, 2);
  const uint32_t need = dv::image_bytes(out);
  if (out.size < need) {
    decoder.take_discard();
    pic->ret_code.store(1, std::memory_order_relaxed);
    return;
  }
  dv::take_picture(decoder, w, h, views.image(out), csc_matrix, nullptr);
  pic->write_back(out, need);
}

void send(const char *api, aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
          acldvppPicDesc *output, void *userData, bool skipped) {
  openacl::api::require_initialized();
  checked(channelDesc, "channelDesc");
  if (!channelDesc->decoder)
    fail(Errc::invalid_argument, "channelDesc has no channel: call aclvdecCreateChannel first");
  const acldvppStreamDesc in = *checked(input, "input");
  const bool eos = in.eos != 0;
  if (!eos || in.size != 0) dv::check_range(in.data, in.size, "input data");
  if (in.size == 0 && !eos)
    fail(Errc::invalid_argument, "input has size 0 and is not the end of stream");
  std::shared_ptr<dv::Picture> pic;
  std::vector<dv::api::Access> ranges;  // the picture the task writes
  if (!skipped && output != nullptr) {
    pic = checked(output, "output")->pic;
    dv::Image o = pic->snapshot();
    if (o.size == 0) fail(Errc::invalid_argument, "output has size 0 (acldvppSetPicDescSize)");
    dv::check_range(o.data, o.size, "output data");
    ranges.push_back({o.data, o.size, true});
  } else if (!skipped && !eos) {
    fail(Errc::invalid_argument, "output is NULL (only an end-of-stream frame may go without one)");
  }
  auto decoder = channelDesc->decoder;
  const uint32_t format = channelDesc->out_format, csc = channelDesc->csc_matrix;
  const uint32_t ow = channelDesc->out_width, oh = channelDesc->out_height;
  for (auto [name, value, least] : {std::tuple{"OutPicWidth", ow, dv::kVdecMinWidth},
                                    std::tuple{"OutPicHeight", oh, dv::kVdecMinHeight}})
    if (value != 0 && (value < least || value > dv::kVdecMaxSide))
      fail(Errc::invalid_argument, std::string("the channel's ") + name + " " +
                                       std::to_string(value) + " is outside [" +
                                       std::to_string(least) + ", 4096] (0: the frame's)");
  // The frame is copied at the call, as the unit takes it into its own stream buffer: programs
  // (acllite's VideoCapture) refill one input buffer for the next frame as soon as this returns.
  const openacl::backend::HostView bytes(
      openacl::api::stream_for_submit(channelDesc->stream)->device().backend(), in.data, in.size,
      openacl::backend::DeviceBackend::Access::read);
  auto frame = std::make_shared<const std::vector<uint8_t>>(
      static_cast<const uint8_t *>(bytes.data()),
      static_cast<const uint8_t *>(bytes.data()) + in.size);
  dv::api::submit(channelDesc->stream, api, ranges,
                  [=](openacl::backend::AiCores &, const dv::api::HostRanges &views) {
                    decode(*decoder, frame->data(), frame->size(), eos, pic, format, ow, oh, csc,
                           views);
                  });
  auto *d = new Delivery{channelDesc->callback, input, skipped ? nullptr : output, userData};
  aclError rc = aclrtLaunchCallback(deliver, d, ACL_CALLBACK_BLOCK, channelDesc->stream);
  if (rc != ACL_SUCCESS) {
    delete d;
    runtime(rc, "aclrtLaunchCallback");
  }
}

}  // namespace

extern "C" {

aclvdecChannelDesc *aclvdecCreateChannelDesc(void) { return new (std::nothrow) aclvdecChannelDesc; }
aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    if (checked(channelDesc, "channelDesc")->decoder)
      fail(Errc::invalid_argument,
           "the channel is still created: call aclvdecDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc *channelDesc, uint32_t channelId) {
  return set(__func__, channelDesc, [&](auto &d) { d.channel_id = channelId; });
}
aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc *channelDesc, uint64_t threadId) {
  return set(__func__, channelDesc, [&](auto &d) { d.thread_id = threadId; });
}
aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc *channelDesc, aclvdecCallback callback) {
  return set(__func__, channelDesc, [&](auto &d) { d.callback = callback; });
}
aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc *channelDesc, acldvppStreamFormat enType) {
  return set(__func__, channelDesc, [&](auto &d) {
    auto t = openacl::api::enum_value(enType);
    if (t < H265_MAIN_LEVEL || t > H264_HIGH_LEVEL)
      fail(Errc::invalid_argument,
           "enType " + std::to_string(t) + " is not an acldvppStreamFormat");
    d.en_type = static_cast<uint32_t>(t);
  });
}
aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc *channelDesc,
                                           acldvppPixelFormat outPicFormat) {
  return set(__func__, channelDesc, [&](auto &d) {
    auto f = static_cast<uint32_t>(openacl::api::enum_value(outPicFormat));
    if (!dv::is_yuv420sp(f))
      fail(Errc::feature_not_supported,
           "VDEC on openacl writes PIXEL_FORMAT_YUV_SEMIPLANAR_420 or "
           "PIXEL_FORMAT_YVU_SEMIPLANAR_420, not " +
               dv::format_name(f));
    d.out_format = f;
  });
}
aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc *channelDesc, uint32_t outPicWidth) {
  return set(__func__, channelDesc, [&](auto &d) { d.out_width = outPicWidth; });
}
aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc *channelDesc, uint32_t outPicHeight) {
  return set(__func__, channelDesc, [&](auto &d) { d.out_height = outPicHeight; });
}
aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc *channelDesc, uint32_t refFrameNum) {
  return set(__func__, channelDesc, [&](auto &d) { d.ref_frame_num = refFrameNum; });
}
aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc *channelDesc, uint32_t bitDepth) {
  return set(__func__, channelDesc, [&](auto &d) { d.bit_depth = bitDepth; });
}
aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc *channelDesc, uint32_t outMode) {
  return set(__func__, channelDesc, [&](auto &d) {
    if (outMode > 1)
      fail(Errc::invalid_argument, "outMode " + std::to_string(outMode) + " is not 0 or 1");
    d.out_mode = outMode;
  });
}
aclError aclvdecSetChannelDescParam(aclvdecChannelDesc *channelDesc,
                                    aclvdecChannelDescParamType paramType, size_t length,
                                    const void *param) {
  return set(__func__, channelDesc, [&](auto &d) {
    if (openacl::api::enum_value(paramType) != ACL_VDEC_CSC_MATRIX_UINT32 || param == nullptr ||
        length != sizeof(uint32_t))
      fail(Errc::invalid_argument,
           "takes ACL_VDEC_CSC_MATRIX_UINT32 with a uint32_t param (length 4)");
    std::memcpy(&d.csc_matrix, param, sizeof(uint32_t));
  });
}

uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.channel_id; });
}
uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc *channelDesc) {
  return get<uint64_t>(__func__, channelDesc, [](auto &d) { return d.thread_id; });
}
aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc *channelDesc) {
  return get<aclvdecCallback>(__func__, channelDesc, [](auto &d) { return d.callback; });
}
acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc *channelDesc) {
  return static_cast<acldvppStreamFormat>(
      get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.en_type; }));
}
acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc *channelDesc) {
  return static_cast<acldvppPixelFormat>(
      get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.out_format; }));
}
uint32_t aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.out_width; });
}
uint32_t aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.out_height; });
}
uint32_t aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.bit_depth; });
}
uint32_t aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.ref_frame_num; });
}
uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.out_mode; });
}
aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc *channelDesc,
                                    aclvdecChannelDescParamType paramType, size_t length,
                                    size_t *paramRetSize, void *param) {
  return guarded(__func__, [&] {
    checked(channelDesc, "channelDesc");
    if (openacl::api::enum_value(paramType) != ACL_VDEC_CSC_MATRIX_UINT32 || param == nullptr ||
        paramRetSize == nullptr || length < sizeof(uint32_t))
      fail(Errc::invalid_argument,
           "takes ACL_VDEC_CSC_MATRIX_UINT32 with param and paramRetSize (length at least 4)");
    std::memcpy(param, &channelDesc->csc_matrix, sizeof(uint32_t));
    *paramRetSize = sizeof(uint32_t);
  });
}

aclvdecFrameConfig *aclvdecCreateFrameConfig(void) { return new (std::nothrow) aclvdecFrameConfig; }
aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig *vdecFrameConfig) {
  return guarded(__func__, [&] { delete checked(vdecFrameConfig, "vdecFrameConfig"); });
}

aclError aclvdecCreateChannel(aclvdecChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    aclvdecChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (d.decoder) fail(Errc::invalid_argument, "channelDesc already has a channel");
    if (d.callback == nullptr)
      fail(Errc::invalid_argument, "channelDesc has no callback (aclvdecSetChannelDescCallback)");
    if (d.thread_id == 0)
      fail(Errc::invalid_argument, "channelDesc has no thread id (aclvdecSetChannelDescThreadId)");
    auto decoder = std::make_shared<dv::VideoDecoder>(d.en_type == H265_MAIN_LEVEL);
    aclrtStream s = nullptr;
    runtime(aclrtCreateStream(&s), "aclrtCreateStream");
    aclError rc = aclrtSubscribeReport(d.thread_id, s);
    if (rc != ACL_SUCCESS) {
      std::string why = aclGetRecentErrMsg();
      (void)aclrtDestroyStream(s);
      fail(Errc::invalid_argument, "the callback thread " + std::to_string(d.thread_id) +
                                       " cannot serve the channel: " + why);
    }
    d.stream = s;
    d.decoder = std::move(decoder);
  });
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    aclvdecChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (!d.decoder)
      fail(Errc::invalid_argument, "channelDesc has no channel (never created, or destroyed)");
    // Waits for every frame and its callback; pictures the decoder still holds have no output.
    aclError rc = aclrtSynchronizeStream(d.stream);
    std::string why = rc == ACL_SUCCESS ? "" : aclGetRecentErrMsg();
    (void)aclrtUnSubscribeReport(d.thread_id, d.stream);
    (void)aclrtDestroyStream(d.stream);
    d.stream = nullptr;
    d.decoder.reset();
    if (rc != ACL_SUCCESS) fail(Errc::task_failure, "the channel's stream failed: " + why);
  });
}

aclError aclvdecSendFrame(aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
                          acldvppPicDesc *output, aclvdecFrameConfig *config, void *userData) {
  return guarded(__func__, [&, api = __func__] {
    if (config != nullptr) checked(config, "config");
    send(api, channelDesc, input, output, userData, false);
  });
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
                                 aclvdecFrameConfig *config, void *userData) {
  return guarded(__func__, [&, api = __func__] {
    if (config != nullptr) checked(config, "config");
    send(api, channelDesc, input, nullptr, userData, true);
  });
}

}  // extern "C"
