// VENC (aclvenc*): channel descriptions, frame configs, channels and frames. A channel owns a
// stream of the context that created it; each aclvencSendFrame puts an encode task on that
// stream and then a blocking callback (aclrtLaunchCallback), which runs the program's
// aclvencCallback on the thread named by aclvencSetChannelDescThreadId (subscribed with
// aclrtSubscribeReport at aclvencCreateChannel), in send order. The encode task writes the
// frame's H.264 / H.265 stream into the channel's buffer (aclvencSetChannelDescBufAddr, else
// one of its own) and its size and retCode into the output stream description handed to the
// callback; the callback runs before the next frame is encoded, so one buffer serves all.
#include <atomic>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/submit.h"
#include "dvpp/api/video_calls.h"
#include "dvpp/api/video_descs.h"
#include "dvpp/memory.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;
using openacl::dvpp::api::runtime;

namespace dv = openacl::dvpp;

namespace {

std::atomic<uint32_t> g_next_channel_id{0};

// A description that gives no size (Huawei's venc_image sample sets only the data and the
// size) describes the channel's picture, as CANN takes it: the channel's format and size,
// strides aligned to 16 and 2.
dv::Image venc_input(const acldvppPicDesc *input, const aclvencChannelDesc &d) {
  dv::Image img = checked(input, "input")->pic->snapshot();
  if (img.width != 0 || img.height != 0) return dv::api::vpc_picture(input, "input");
  img.format = d.pic_format;
  img.width = d.pic_width;
  img.height = d.pic_height;
  img.width_stride = dv::align_up(img.width, 16);
  img.height_stride = dv::align_up(img.height, 2);
  return dv::api::vpc_image(img, "input");
}

template <class F>
aclError set(const char *api, aclvencChannelDesc *d, F &&assign) {
  return guarded(api, [&] {
    checked(d, "channelDesc");
    if (d->encoder)
      fail(Errc::invalid_argument,
           "the channel is created: set its description before aclvencCreateChannel");
    assign(*d);
  });
}

template <class T, class F>
T get(const char *api, const aclvencChannelDesc *d, F &&read) {
  return openacl::dvpp::api::get<T>(api, d, "channelDesc", read);
}

template <class T, class F>
T get_config(const char *api, const aclvencFrameConfig *c, F &&read) {
  return openacl::dvpp::api::get<T>(api, c, "config", read);
}

void check_format(uint32_t format) {
  if (!dv::is_yuv420sp(format))
    fail(Errc::feature_not_supported,
         "VENC on openacl takes PIXEL_FORMAT_YUV_SEMIPLANAR_420 or "
         "PIXEL_FORMAT_YVU_SEMIPLANAR_420, not " +
             dv::format_name(format));
}

void check_en_type(uint32_t t) {
  if (t > H264_HIGH_LEVEL)
    fail(Errc::invalid_argument, "enType " + std::to_string(t) + " is not an acldvppStreamFormat");
}

// The fields that aclvencSetChannelDescParam / GetChannelDescParam reach: where each lives
// and its size.
struct Field {
  void *p;
  size_t n;
};
Field field(aclvencChannelDesc &d, aclvencChannelDescParamType type) {
  switch (openacl::api::enum_value(type)) {
    case ACL_VENC_THREAD_ID_UINT64:
      return {&d.thread_id, sizeof d.thread_id};
    case ACL_VENC_CALLBACK_PTR:
      return {&d.callback, sizeof d.callback};
    case ACL_VENC_PIXEL_FORMAT_UINT32:
      return {&d.pic_format, sizeof d.pic_format};
    case ACL_VENC_ENCODE_TYPE_UINT32:
      return {&d.en_type, sizeof d.en_type};
    case ACL_VENC_PIC_WIDTH_UINT32:
      return {&d.pic_width, sizeof d.pic_width};
    case ACL_VENC_PIC_HEIGHT_UINT32:
      return {&d.pic_height, sizeof d.pic_height};
    case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
      return {&d.key_frame_interval, sizeof d.key_frame_interval};
    case ACL_VENC_BUF_ADDR_PTR:
      return {&d.buf_addr, sizeof d.buf_addr};
    case ACL_VENC_BUF_SIZE_UINT32:
      return {&d.buf_size, sizeof d.buf_size};
    case ACL_VENC_RC_MODE_UINT32:
      return {&d.rc_mode, sizeof d.rc_mode};
    case ACL_VENC_SRC_RATE_UINT32:
      return {&d.src_rate, sizeof d.src_rate};
    case ACL_VENC_MAX_BITRATE_UINT32:
      return {&d.max_bit_rate, sizeof d.max_bit_rate};
    case ACL_VENC_MAX_IP_PROP_UINT32:
      return {&d.max_ip_prop, sizeof d.max_ip_prop};
    default:
      fail(Errc::invalid_argument, "paramType " + std::to_string(openacl::api::enum_value(type)) +
                                       " is not an aclvencChannelDescParamType");
  }
}

struct Delivery {
  aclvencCallback callback;
  acldvppPicDesc *input;
  acldvppStreamDesc *output;
  void *user_data;
};

void deliver(void *p) {
  auto *d = static_cast<Delivery *>(p);
  d->callback(d->input, d->output, d->user_data);
  delete d;
}

// The encode of one frame (or the end of stream), on the channel's stream: the bytes go to
// the channel's buffer (written through host_buffer, its host view), retCode 1 when they do
// not fit or the encoder failed.
void encode(dv::VideoEncoder &encoder, const dv::Image *in, bool force_idr, bool eos,
            uint8_t *buffer, uint8_t *host_buffer, uint32_t capacity, acldvppStreamDesc *out) {
  std::vector<uint8_t> bytes;
  uint32_t ret_code = 0;
  try {
    if (in != nullptr) encoder.encode(*in, force_idr, bytes);
    if (eos) encoder.flush(bytes);
  } catch (const openacl::Error &) {
    ret_code = 1;
  }
  if (bytes.size() > capacity) bytes.clear(), ret_code = 1;
  if (!bytes.empty()) std::memcpy(host_buffer, bytes.data(), bytes.size());
  out->data = buffer;
  out->size = static_cast<uint32_t>(bytes.size());
  out->ret_code = ret_code;
  out->eos = eos ? 1 : 0;
}

}  // namespace

extern "C" {

aclvencChannelDesc *aclvencCreateChannelDesc(void) { return new (std::nothrow) aclvencChannelDesc; }
aclError aclvencDestroyChannelDesc(aclvencChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    if (checked(channelDesc, "channelDesc")->encoder)
      fail(Errc::invalid_argument,
           "the channel is still created: call aclvencDestroyChannel first");
    delete channelDesc;
  });
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc *channelDesc, uint64_t threadId) {
  return set(__func__, channelDesc, [&](auto &d) { d.thread_id = threadId; });
}
aclError aclvencSetChannelDescCallback(aclvencChannelDesc *channelDesc, aclvencCallback callback) {
  return set(__func__, channelDesc, [&](auto &d) { d.callback = callback; });
}
aclError aclvencSetChannelDescEnType(aclvencChannelDesc *channelDesc, acldvppStreamFormat enType) {
  return set(__func__, channelDesc, [&](auto &d) {
    auto t = openacl::api::enum_value(enType);
    check_en_type(static_cast<uint32_t>(t));
    d.en_type = static_cast<uint32_t>(t);
  });
}
aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc *channelDesc,
                                        acldvppPixelFormat picFormat) {
  return set(__func__, channelDesc, [&](auto &d) {
    auto f = static_cast<uint32_t>(openacl::api::enum_value(picFormat));
    check_format(f);
    d.pic_format = f;
  });
}
aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc *channelDesc, uint32_t picWidth) {
  return set(__func__, channelDesc, [&](auto &d) { d.pic_width = picWidth; });
}
aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc *channelDesc, uint32_t picHeight) {
  return set(__func__, channelDesc, [&](auto &d) { d.pic_height = picHeight; });
}
aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc *channelDesc,
                                               uint32_t keyFrameInterval) {
  return set(__func__, channelDesc, [&](auto &d) { d.key_frame_interval = keyFrameInterval; });
}
aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc *channelDesc, void *bufAddr) {
  return set(__func__, channelDesc, [&](auto &d) { d.buf_addr = bufAddr; });
}
aclError aclvencSetChannelDescBufSize(aclvencChannelDesc *channelDesc, uint32_t bufSize) {
  return set(__func__, channelDesc, [&](auto &d) { d.buf_size = bufSize; });
}
aclError aclvencSetChannelDescRcMode(aclvencChannelDesc *channelDesc, uint32_t rcMode) {
  return set(__func__, channelDesc, [&](auto &d) {
    if (rcMode > 2)
      fail(Errc::invalid_argument,
           "rcMode " + std::to_string(rcMode) + " is not 0 (default), 1 (VBR) or 2 (CBR)");
    d.rc_mode = rcMode;
  });
}
aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc *channelDesc, uint32_t srcRate) {
  return set(__func__, channelDesc, [&](auto &d) { d.src_rate = srcRate; });
}
aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc *channelDesc, uint32_t maxBitRate) {
  return set(__func__, channelDesc, [&](auto &d) { d.max_bit_rate = maxBitRate; });
}
aclError aclvencSetChannelDescParam(aclvencChannelDesc *channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    const void *param) {
  return set(__func__, channelDesc, [&](auto &d) {
    Field f = field(d, paramType);
    if (param == nullptr || length != f.n)
      fail(Errc::invalid_argument, "this paramType takes a param of length " + std::to_string(f.n));
    uint32_t v = 0;
    std::memcpy(&v, param, f.n < sizeof v ? f.n : sizeof v);
    if (openacl::api::enum_value(paramType) == ACL_VENC_PIXEL_FORMAT_UINT32) check_format(v);
    if (openacl::api::enum_value(paramType) == ACL_VENC_ENCODE_TYPE_UINT32) check_en_type(v);
    std::memcpy(f.p, param, f.n);
  });
}

void *aclvencGetChannelDescBufAddr(const aclvencChannelDesc *channelDesc) {
  return get<void *>(__func__, channelDesc, [](auto &d) { return d.buf_addr; });
}
uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.buf_size; });
}
uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.channel_id; });
}
uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc *channelDesc) {
  return get<uint64_t>(__func__, channelDesc, [](auto &d) { return d.thread_id; });
}
aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc *channelDesc) {
  return get<aclvencCallback>(__func__, channelDesc, [](auto &d) { return d.callback; });
}
acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc *channelDesc) {
  return static_cast<acldvppStreamFormat>(
      get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.en_type; }));
}
acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc *channelDesc) {
  return static_cast<acldvppPixelFormat>(
      get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.pic_format; }));
}
uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.pic_width; });
}
uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.pic_height; });
}
uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.key_frame_interval; });
}
uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.rc_mode; });
}
uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.src_rate; });
}
uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc *channelDesc) {
  return get<uint32_t>(__func__, channelDesc, [](auto &d) { return d.max_bit_rate; });
}
aclError aclvencGetChannelDescParam(const aclvencChannelDesc *channelDesc,
                                    aclvencChannelDescParamType paramType, size_t length,
                                    size_t *paramRetSize, void *param) {
  return guarded(__func__, [&] {
    Field f =
        field(*const_cast<aclvencChannelDesc *>(checked(channelDesc, "channelDesc")), paramType);
    if (param == nullptr || paramRetSize == nullptr || length < f.n)
      fail(Errc::invalid_argument,
           "takes param and paramRetSize, length at least " + std::to_string(f.n));
    std::memcpy(param, f.p, f.n);
    *paramRetSize = f.n;
  });
}

aclvencFrameConfig *aclvencCreateFrameConfig(void) { return new (std::nothrow) aclvencFrameConfig; }
aclError aclvencDestroyFrameConfig(aclvencFrameConfig *config) {
  return guarded(__func__, [&] { delete checked(config, "config"); });
}
aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig *config, uint8_t forceIFrame) {
  return guarded(__func__, [&] {
    if (forceIFrame > 1)
      fail(Errc::invalid_argument, "forceIFrame " + std::to_string(forceIFrame) + " is not 0 or 1");
    checked(config, "config")->force_i_frame = forceIFrame;
  });
}
aclError aclvencSetFrameConfigEos(aclvencFrameConfig *config, uint8_t eos) {
  return guarded(__func__, [&] {
    if (eos > 1) fail(Errc::invalid_argument, "eos " + std::to_string(eos) + " is not 0 or 1");
    checked(config, "config")->eos = eos;
  });
}
uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig *config) {
  return get_config<uint8_t>(__func__, config, [](auto &c) { return c.force_i_frame; });
}
uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig *config) {
  return get_config<uint8_t>(__func__, config, [](auto &c) { return c.eos; });
}

aclError aclvencCreateChannel(aclvencChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    aclvencChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (d.encoder) fail(Errc::invalid_argument, "channelDesc already has a channel");
    if (d.callback == nullptr)
      fail(Errc::invalid_argument, "channelDesc has no callback (aclvencSetChannelDescCallback)");
    if (d.thread_id == 0)
      fail(Errc::invalid_argument, "channelDesc has no thread id (aclvencSetChannelDescThreadId)");
    if (d.pic_width < 128 || d.pic_height < 128 || d.pic_width > 1920 || d.pic_height > 1920 ||
        d.pic_width % 2 != 0 || d.pic_height % 2 != 0)
      fail(Errc::invalid_argument, "the picture size " + std::to_string(d.pic_width) + "x" +
                                       std::to_string(d.pic_height) +
                                       " is not even and within VENC's 128x128 to 1920x1920 "
                                       "(aclvencSetChannelDescPicWidth / Height)");
    if (d.src_rate > 120)
      fail(Errc::invalid_argument, "srcRate " + std::to_string(d.src_rate) + " is above 120");
    if (d.buf_addr != nullptr) {
      if (d.buf_size == 0)
        fail(Errc::invalid_argument,
             "bufAddr is set but bufSize is 0 (aclvencSetChannelDescBufSize)");
      dv::check_range(d.buf_addr, d.buf_size, "bufAddr");
    }
    dv::EncoderSettings settings;
    settings.hevc = d.en_type == H265_MAIN_LEVEL;
    settings.width = d.pic_width;
    settings.height = d.pic_height;
    settings.key_frame_interval = d.key_frame_interval == 0 ? 16 : d.key_frame_interval;
    settings.frame_rate = d.src_rate == 0 ? 30 : d.src_rate;
    settings.max_bit_rate = d.max_bit_rate;
    settings.constant_rate = d.rc_mode == 2;
    auto encoder = std::make_shared<dv::VideoEncoder>(settings);
    // Without a buffer of the program's, one that holds any frame of this size: three bytes
    // a pixel (more than the raw picture) and room for the stream's headers.
    void *own = nullptr;
    uint32_t capacity = d.buf_size;
    if (d.buf_addr == nullptr) {
      capacity = d.pic_width * d.pic_height * 3 + (1u << 16);
      own = dv::allocate(openacl::api::current_device(), capacity);
    }
    aclrtStream s = nullptr;
    aclError rc = aclrtCreateStream(&s);
    if (rc == ACL_SUCCESS) {
      rc = aclrtSubscribeReport(d.thread_id, s);
      if (rc != ACL_SUCCESS) {
        std::string why = aclGetRecentErrMsg();
        (void)aclrtDestroyStream(s);
        if (own != nullptr) dv::release(own);
        fail(Errc::invalid_argument, "the callback thread " + std::to_string(d.thread_id) +
                                         " cannot serve the channel: " + why);
      }
    } else if (own != nullptr) {
      dv::release(own);
    }
    runtime(rc, "aclrtCreateStream");
    d.stream = s;
    d.own_buffer = own;
    d.out_data = own != nullptr ? own : d.buf_addr;
    d.out_capacity = capacity;
    d.output = std::make_unique<acldvppStreamDesc>();
    d.output->format = d.en_type;
    d.channel_id = g_next_channel_id.fetch_add(1) % 256;
    d.ended = false;
    d.encoder = std::move(encoder);
  });
}

aclError aclvencDestroyChannel(aclvencChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    aclvencChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (!d.encoder)
      fail(Errc::invalid_argument, "channelDesc has no channel (never created, or destroyed)");
    // Waits for every frame and its callback.
    aclError rc = aclrtSynchronizeStream(d.stream);
    std::string why = rc == ACL_SUCCESS ? "" : aclGetRecentErrMsg();
    (void)aclrtUnSubscribeReport(d.thread_id, d.stream);
    (void)aclrtDestroyStream(d.stream);
    d.stream = nullptr;
    if (d.own_buffer != nullptr) dv::release(d.own_buffer);
    d.own_buffer = d.out_data = nullptr;
    d.output.reset();
    d.encoder.reset();
    if (rc != ACL_SUCCESS) fail(Errc::task_failure, "the channel's stream failed: " + why);
  });
}

aclError aclvencSendFrame(aclvencChannelDesc *channelDesc, acldvppPicDesc *input, void *reserve,
                          aclvencFrameConfig *config, void *userdata) {
  return guarded(__func__, [&, api = __func__] {
    openacl::api::require_initialized();
    aclvencChannelDesc &d = *checked(channelDesc, "channelDesc");
    if (!d.encoder)
      fail(Errc::invalid_argument, "channelDesc has no channel: call aclvencCreateChannel first");
    // reserve is CANN's "reserved, not used": Huawei's venc sample passes a stream description.
    (void)reserve;
    const aclvencFrameConfig c =
        config != nullptr ? *checked(config, "config") : aclvencFrameConfig{};
    if (d.ended)
      fail(Errc::invalid_argument,
           "the channel's stream has ended (a frame with eos was sent): destroy and create "
           "the channel to encode another");
    std::shared_ptr<dv::Image> in;
    if (input != nullptr || c.eos == 0) {
      dv::Image img = venc_input(input, d);
      if (img.format != d.pic_format || img.width != d.pic_width || img.height != d.pic_height)
        fail(Errc::invalid_argument,
             "input is " + dv::format_name(img.format) + " " + std::to_string(img.width) + "x" +
                 std::to_string(img.height) + "; the channel encodes " +
                 dv::format_name(d.pic_format) + " " + std::to_string(d.pic_width) + "x" +
                 std::to_string(d.pic_height));
      in = std::make_shared<dv::Image>(img);
    }
    const bool eos = c.eos != 0, force_idr = c.force_i_frame != 0;
    auto encoder = d.encoder;
    auto *buffer = static_cast<uint8_t *>(d.out_data);
    const uint32_t capacity = d.out_capacity;
    acldvppStreamDesc *out = d.output.get();
    std::vector<dv::api::Access> ranges{{buffer, capacity, true}};
    if (in) ranges.push_back({in->data, dv::image_bytes(*in), false});
    dv::api::submit(d.stream, api, ranges,
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      const dv::Image host_in = in ? h.image(*in) : dv::Image{};
                      encode(*encoder, in ? &host_in : nullptr, force_idr, eos, buffer,
                             h.at(buffer), capacity, out);
                    });
    auto *delivery = new Delivery{d.callback, input, out, userdata};
    aclError rc = aclrtLaunchCallback(deliver, delivery, ACL_CALLBACK_BLOCK, d.stream);
    if (rc != ACL_SUCCESS) {
      delete delivery;
      runtime(rc, "aclrtLaunchCallback");
    }
    if (eos) {
      d.ended = true;
      dv::api::wait_for_callbacks(d.stream, d.thread_id);
    }
  });
}

}  // extern "C"
