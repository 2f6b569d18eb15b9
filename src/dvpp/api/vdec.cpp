// VDEC (aclvdec*): channel descriptions, channels and frames. A channel owns a stream of the
// context that created it; each aclvdecSendFrame puts a decode task on that stream and then a
// blocking callback (aclrtLaunchCallback), which runs the program's aclvdecCallback on the
// thread named by aclvdecSetChannelDescThreadId (subscribed to the stream with
// aclrtSubscribeReport at aclvdecCreateChannel). The decode task reads the stream description's
// values and the frame's bytes as they were at the send (the frame is copied then). Pictures come
// in display order (OutMode 0; OutMode 1: decoding order), each written into its own frame's
// output description (scaled to the channel's OutPicWidth / Height when they are set), with its
// size, strides (width stride aligned to 16, height stride to 2) and retCode 0, or retCode 1 when
// the frame gave no picture or did not fit; its frame's callback (input, output, userData) runs
// then. End of stream (or aclvdecDestroyChannel) gives out the pictures held for reordering.
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
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
#include "dvpp/api/video_calls.h"
#include "dvpp/api/video_descs.h"
#include "dvpp/frame_slots.h"
#include "dvpp/memory.h"
#include "dvpp/video_output.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;
using openacl::dvpp::api::runtime;

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

}  // namespace

// What each frame sent asked for, until its picture is decoded (frame_slots.h), and the frames
// whose callbacks are due, in output order.
struct openacl::dvpp::api::VdecOutputs {
  struct Frame {
    acldvppStreamDesc *input;
    acldvppPicDesc *output;            // NULL: a skipped frame, or end of stream without one
    std::shared_ptr<dv::Picture> pic;  // output's, NULL with it
    void *user_data;
  };
  aclvdecCallback callback;
  dv::FrameSlots<Frame> slots;
  std::mutex mutex;
  std::deque<Frame> due;

  void finish(Frame f, bool failed) {
    if (failed && f.pic) f.pic->ret_code.store(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex);
    due.push_back(std::move(f));
  }
  // Runs the program's callback for each frame due (a host callback of the channel's stream, on
  // the channel's thread).
  void deliver() {
    std::deque<Frame> now;
    {
      std::lock_guard<std::mutex> lock(mutex);
      now.swap(due);
    }
    for (const Frame &f : now) callback(f.input, f.output, f.user_data);
  }
};

namespace {

using Outputs = dv::api::VdecOutputs;

// Writes the decoder's oldest picture into its frame's output (or drops it: a skipped frame, or
// one whose output does not hold it). out_width / out_height: the channel's OutPicWidth /
// Height, 0 for the frame's.
void output(openacl::backend::DeviceBackend &backend, dv::VideoDecoder &decoder, Outputs &outputs,
            uint32_t format, uint32_t out_width, uint32_t out_height, uint32_t csc_matrix) {
  uint32_t w = 0, h = 0;
  int64_t frame = 0;
  decoder.peek(&w, &h, &frame);
  std::optional<Outputs::Frame> f = outputs.slots.take(frame);
  if (!f || !f->pic) {
    decoder.take_discard();
    if (f) outputs.finish(std::move(*f), false);
    return;
  }
  dv::Image out = f->pic->snapshot();
  out.format = format;
  out.width = out_width ? out_width : w;
  out.height = out_height ? out_height : h;
  out.width_stride = dv::align_up(out.width, 16);
  out.height_stride = dv::align_up(out.height, 2);
  const uint32_t need = dv::image_bytes(out);
  if (out.size < need) {
    decoder.take_discard();
    return outputs.finish(std::move(*f), true);
  }
  try {
    // Which frame's picture comes out is known only here (reordering), so the picture is
    // written through a view of its own rather than the task's ranges.
    const openacl::backend::HostView view(backend, out.data, need,
                                          openacl::backend::DeviceBackend::Access::write);
    dv::Image host = out;
    host.data = static_cast<uint8_t *>(view.data());
    dv::take_picture(decoder, w, h, host, csc_matrix, nullptr);
  } catch (const openacl::Error &) {  // a picture VDEC does not write (10-bit): retCode 1
    return outputs.finish(std::move(*f), true);
  }
  f->pic->write_back(out, need);
  outputs.finish(std::move(*f), false);
}

// The decode of frame `frame`, on the channel's stream: the pictures it makes ready go to their
// own frames' outputs; at the end of stream the frames that gave no picture fail.
void decode(openacl::backend::DeviceBackend &backend, dv::VideoDecoder &decoder, Outputs &outputs,
            int64_t frame, const uint8_t *data, uint32_t size, bool eos, uint32_t format,
            uint32_t out_width, uint32_t out_height, uint32_t csc_matrix) {
  try {
    if (size != 0) decoder.send(data, size, frame);
  } catch (const openacl::Error &) {
    if (auto f = outputs.slots.take(frame)) outputs.finish(std::move(*f), true);
  }
  if (eos) decoder.flush();
  uint32_t w, h;
  while (decoder.peek(&w, &h))
    output(backend, decoder, outputs, format, out_width, out_height, csc_matrix);
  if (eos)
    for (Outputs::Frame &f : outputs.slots.take_all()) outputs.finish(std::move(f), true);
}

void deliver(void *p) {
  auto *outputs = static_cast<std::shared_ptr<Outputs> *>(p);
  (*outputs)->deliver();
  delete outputs;
}

// Puts a frame's decode and then its callback launch on the channel's stream. The callback
// runs the program's callback for every frame whose picture the decode gave (none, one or more).
// slot: the frame's, none for the flush at aclvdecDestroyChannel.
void queue(const char *api, aclvdecChannelDesc &d, std::optional<Outputs::Frame> slot,
           std::shared_ptr<const std::vector<uint8_t>> data, bool eos) {
  auto decoder = d.decoder;
  auto outputs = d.outputs;
  const uint32_t format = d.out_format, csc = d.csc_matrix, ow = d.out_width, oh = d.out_height;
  const int64_t frame = slot ? outputs->slots.add(std::move(*slot)) : -1;
  try {
    auto *backend = &openacl::api::stream_for_submit(d.stream)->device().backend();
    dv::api::submit(d.stream, api, {},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &) {
                      decode(*backend, *decoder, *outputs, frame, data->data(),
                             static_cast<uint32_t>(data->size()), eos, format, ow, oh, csc);
                    });
  } catch (...) {
    if (slot) outputs->slots.take(frame);  // a send that failed has no callback
    throw;
  }
  auto *p = new std::shared_ptr<Outputs>(outputs);
  aclError rc = aclrtLaunchCallback(deliver, p, ACL_CALLBACK_BLOCK, d.stream);
  if (rc != ACL_SUCCESS) {
    delete p;
    runtime(rc, "aclrtLaunchCallback");
  }
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
  if (!skipped && output != nullptr) {
    pic = checked(output, "output")->pic;
    dv::Image o = pic->snapshot();
    if (o.size == 0) fail(Errc::invalid_argument, "output has size 0 (acldvppSetPicDescSize)");
    dv::check_range(o.data, o.size, "output data");
  } else if (!skipped && !eos) {
    fail(Errc::invalid_argument, "output is NULL (only an end-of-stream frame may go without one)");
  }
  for (auto [name, value, least] :
       {std::tuple{"OutPicWidth", channelDesc->out_width, dv::kVdecMinWidth},
        std::tuple{"OutPicHeight", channelDesc->out_height, dv::kVdecMinHeight}})
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
  queue(api, *channelDesc,
        Outputs::Frame{input, skipped ? nullptr : output, std::move(pic), userData},
        std::move(frame), eos);
  if (eos) dv::api::wait_for_callbacks(channelDesc->stream, channelDesc->thread_id);
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
    // OutMode 1 (CANN's fast output, for streams without B-frames): each picture at once.
    auto decoder =
        std::make_shared<dv::VideoDecoder>(d.en_type == H265_MAIN_LEVEL, d.out_mode == 0);
    auto outputs = std::make_shared<Outputs>();
    outputs->callback = d.callback;
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
    d.outputs = std::move(outputs);
  });
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    aclvdecChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (!d.decoder)
      fail(Errc::invalid_argument, "channelDesc has no channel (never created, or destroyed)");
    // Waits for every frame and its callback. The pictures the decoder still holds (no end of
    // stream was sent) go out as at the end of stream, so that every frame gets its callback.
    std::string why;
    try {
      queue(__func__, d, std::nullopt, std::make_shared<const std::vector<uint8_t>>(), true);
    } catch (const openacl::Error &e) {  // e.g. the stream's context is gone
      why = e.what();
    }
    if (why.empty() && aclrtSynchronizeStream(d.stream) != ACL_SUCCESS) why = aclGetRecentErrMsg();
    (void)aclrtUnSubscribeReport(d.thread_id, d.stream);
    (void)aclrtDestroyStream(d.stream);
    d.stream = nullptr;
    d.decoder.reset();
    d.outputs.reset();
    if (!why.empty()) fail(Errc::task_failure, "the channel's stream failed: " + why);
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
