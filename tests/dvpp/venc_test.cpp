// VENC against FFmpeg's decoders: NV12 / NV21 frames encoded through aclvencSendFrame to H.264
// and H.265 decode (libavcodec, in the test) to pictures within a PSNR bound of the input;
// each frame's stream arrives in its own callback on the program's thread, in order, a forced
// I-frame is an IDR picture, and the end of stream has its callback; misuse gets errors.
#include <gtest/gtest.h>
#include <pthread.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
}

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

constexpr uint32_t kW = 160, kH = 128, kFrames = 8, kForced = 5;

// Frame i in YUV420SP (V first for NV21): a moving gradient with a square, smooth enough for a
// lossy encoder to keep it well.
std::vector<uint8_t> frame_nv(uint32_t i, bool nv21) {
  std::vector<uint8_t> f(kW * kH * 3 / 2);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      bool square = x >= 20 + 4 * i && x < 60 + 4 * i && y >= 30 && y < 70;
      f[y * kW + x] = uint8_t(square ? 220 : 30 + (x + y + 3 * i) / 2);
    }
  for (uint32_t y = 0; y < kH / 2; ++y)
    for (uint32_t x = 0; x < kW / 2; ++x) {
      uint8_t u = uint8_t(90 + x / 4), v = uint8_t(150 - y / 4 + i);
      f[kW * kH + y * kW + 2 * x] = nv21 ? v : u;
      f[kW * kH + y * kW + 2 * x + 1] = nv21 ? u : v;
    }
  return f;
}

struct Received {
  std::mutex mu;
  std::vector<std::vector<uint8_t>> streams;
  std::vector<uint32_t> ret_codes;
  std::vector<intptr_t> user_data;
  std::vector<bool> inputs, eos;
  std::atomic<bool> wrong_thread{false};
  uint64_t thread = 0;
};
Received *g_received = nullptr;

void on_stream(acldvppPicDesc *input, acldvppStreamDesc *output, void *user_data) {
  Received &r = *g_received;
  if (static_cast<uint64_t>(pthread_self()) != r.thread) r.wrong_thread = true;
  std::vector<uint8_t> bytes(acldvppGetStreamDescSize(output));
  if (!bytes.empty())
    aclrtMemcpy(bytes.data(), bytes.size(), acldvppGetStreamDescData(output), bytes.size(),
                ACL_MEMCPY_DEVICE_TO_HOST);
  std::lock_guard lock(r.mu);
  r.streams.push_back(std::move(bytes));
  r.ret_codes.push_back(acldvppGetStreamDescRetCode(output));
  r.user_data.push_back(reinterpret_cast<intptr_t>(user_data));
  r.inputs.push_back(input != nullptr);
  r.eos.push_back(acldvppGetStreamDescEos(output) != 0);
}

// Whether an Annex B access unit holds an IDR picture.
bool has_idr(const std::vector<uint8_t> &au, bool hevc) {
  for (size_t i = 0; i + 3 < au.size(); ++i) {
    if (au[i] != 0 || au[i + 1] != 0 || au[i + 2] != 1) continue;
    const uint8_t h = au[i + 3];
    if (hevc ? ((h >> 1) & 0x3F) == 19 || ((h >> 1) & 0x3F) == 20 : (h & 0x1F) == 5) return true;
  }
  return false;
}

// Decodes the access units with libavcodec; the pictures as I420.
std::vector<std::vector<uint8_t>> decode(const std::vector<std::vector<uint8_t>> &aus, bool hevc) {
  const AVCodec *codec = avcodec_find_decoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  AVCodecContext *c = avcodec_alloc_context3(codec);
  c->flags |= AV_CODEC_FLAG_LOW_DELAY;
  std::vector<std::vector<uint8_t>> pictures;
  if (avcodec_open2(c, codec, nullptr) != 0) return pictures;
  AVPacket *p = av_packet_alloc();
  AVFrame *f = av_frame_alloc();
  auto collect = [&] {
    while (avcodec_receive_frame(c, f) == 0) {
      std::vector<uint8_t> pic(kW * kH * 3 / 2);
      for (uint32_t y = 0; y < kH; ++y)
        std::memcpy(&pic[y * kW], f->data[0] + y * f->linesize[0], kW);
      for (int k = 0; k < 2; ++k)
        for (uint32_t y = 0; y < kH / 2; ++y)
          std::memcpy(&pic[kW * kH + k * kW * kH / 4 + y * kW / 2],
                      f->data[1 + k] + y * f->linesize[1 + k], kW / 2);
      pictures.push_back(std::move(pic));
    }
  };
  for (const auto &au : aus) {
    if (au.empty()) continue;
    av_new_packet(p, int(au.size()));
    std::memcpy(p->data, au.data(), au.size());
    avcodec_send_packet(c, p);
    av_packet_unref(p);
    collect();
  }
  avcodec_send_packet(c, nullptr);
  collect();
  av_frame_free(&f);
  av_packet_free(&p);
  avcodec_free_context(&c);
  return pictures;
}

// PSNR of the decoded I420 picture against the YUV420SP input.
double psnr(const std::vector<uint8_t> &i420, const std::vector<uint8_t> &nv, bool nv21) {
  double se = 0;
  for (uint32_t i = 0; i < kW * kH; ++i) se += std::pow(double(i420[i]) - nv[i], 2);
  for (uint32_t y = 0; y < kH / 2; ++y)
    for (uint32_t x = 0; x < kW / 2; ++x)
      for (int k = 0; k < 2; ++k) {
        double want = nv[kW * kH + y * kW + 2 * x + (nv21 ? 1 - k : k)];
        se += std::pow(double(i420[kW * kH + k * kW * kH / 4 + y * kW / 2 + x]) - want, 2);
      }
  double mse = se / (kW * kH * 3 / 2);
  return mse == 0 ? 99 : 10 * std::log10(255.0 * 255.0 / mse);
}

struct Reporter {
  std::atomic<bool> run{true};
  std::atomic<uint64_t> tid{0};
  std::thread thread;
  Reporter() {
    aclrtContext ctx = nullptr;
    aclrtGetCurrentContext(&ctx);
    thread = std::thread([this, ctx] {
      aclrtSetCurrentContext(ctx);
      tid = static_cast<uint64_t>(pthread_self());
      while (run) aclrtProcessReport(100);
    });
    while (tid == 0) std::this_thread::yield();
  }
  ~Reporter() {
    run = false;
    thread.join();
  }
};

struct Case {
  bool hevc, nv21;
};

class Venc : public DvppTest, public ::testing::WithParamInterface<Case> {};

TEST_P(Venc, EncodesFramesThatDecodeCloseToTheInput) {
  const Case c = GetParam();
  if (avcodec_find_encoder_by_name(c.hevc ? "libx265" : "libx264") == nullptr)
    GTEST_SKIP() << "libavcodec has no " << (c.hevc ? "libx265" : "libx264") << " encoder";
  Received received;
  g_received = &received;
  Reporter reporter;
  received.thread = reporter.tid;
  const acldvppPixelFormat format =
      c.nv21 ? PIXEL_FORMAT_YVU_SEMIPLANAR_420 : PIXEL_FORMAT_YUV_SEMIPLANAR_420;

  aclvencChannelDesc *venc = aclvencCreateChannelDesc();
  ASSERT_EQ(aclvencSetChannelDescThreadId(venc, reporter.tid), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescCallback(venc, on_stream), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescEnType(venc, c.hevc ? H265_MAIN_LEVEL : H264_MAIN_LEVEL),
            ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicFormat(venc, format), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicWidth(venc, kW), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescPicHeight(venc, kH), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescKeyFrameInterval(venc, 100), ACL_SUCCESS);  // IDR only when forced
  ASSERT_EQ(aclvencCreateChannel(venc), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(aclvencSetChannelDescPicWidth(venc, 64), ACL_ERROR_INVALID_PARAM);

  aclvencFrameConfig *config = aclvencCreateFrameConfig();
  const uint32_t size = kW * kH * 3 / 2;
  for (uint32_t i = 0; i < kFrames; ++i) {
    ASSERT_EQ(aclvencSetFrameConfigForceIFrame(config, i == kForced ? 1 : 0), ACL_SUCCESS);
    acldvppPicDesc *in = pic(dvpp_buffer(size, frame_nv(i, c.nv21)), size, format, kW, kH, kW, kH);
    ASSERT_EQ(
        aclvencSendFrame(venc, in, nullptr, config, reinterpret_cast<void *>(intptr_t{100 + i})),
        ACL_SUCCESS)
        << recent_msg();
  }
  ASSERT_EQ(aclvencSetFrameConfigEos(config, 1), ACL_SUCCESS);
  ASSERT_EQ(aclvencSendFrame(venc, nullptr, nullptr, config, nullptr), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(aclvencSendFrame(venc, nullptr, nullptr, config, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("has ended"), std::string::npos) << recent_msg();
  ASSERT_EQ(aclvencDestroyChannel(venc), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(aclvencDestroyFrameConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);

  // One callback per frame, then the end of stream's.
  ASSERT_EQ(received.streams.size(), size_t{kFrames + 1});
  EXPECT_FALSE(received.wrong_thread);
  for (uint32_t i = 0; i < kFrames; ++i) {
    EXPECT_EQ(received.user_data[i], 100 + i);
    EXPECT_EQ(received.ret_codes[i], 0u) << "frame " << i;
    EXPECT_TRUE(received.inputs[i]);
    EXPECT_FALSE(received.eos[i]);
    EXPECT_FALSE(received.streams[i].empty()) << "frame " << i;
    EXPECT_EQ(has_idr(received.streams[i], c.hevc), i == 0 || i == kForced) << "frame " << i;
  }
  EXPECT_TRUE(received.eos[kFrames]);
  EXPECT_FALSE(received.inputs[kFrames]);

  std::vector<std::vector<uint8_t>> pictures = decode(received.streams, c.hevc);
  ASSERT_EQ(pictures.size(), size_t{kFrames});
  for (uint32_t i = 0; i < kFrames; ++i)
    EXPECT_GE(psnr(pictures[i], frame_nv(i, c.nv21), c.nv21), 35.0) << "frame " << i;
  g_received = nullptr;
}

INSTANTIATE_TEST_SUITE_P(Codecs, Venc, ::testing::Values(Case{false, false}, Case{true, true}),
                         [](const auto &info) {
                           return info.param.hevc ? "H265_NV21" : "H264_NV12";
                         });

TEST_F(DvppTest, VencDescriptionsAndMisuse) {
  aclvencChannelDesc *venc = aclvencCreateChannelDesc();
  EXPECT_EQ(aclvencCreateChannel(venc), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("channelDesc has no callback"), std::string::npos) << recent_msg();
  uint32_t rate = 25, got = 0;
  size_t ret_size = 0;
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_SRC_RATE_UINT32, sizeof rate, &rate),
            ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescSrcRate(venc), 25u);
  EXPECT_EQ(aclvencGetChannelDescParam(venc, ACL_VENC_SRC_RATE_UINT32, sizeof got, &ret_size, &got),
            ACL_SUCCESS);
  EXPECT_EQ(got, 25u);
  EXPECT_EQ(ret_size, sizeof got);
  uint32_t rgb = PIXEL_FORMAT_RGB_888;
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_PIXEL_FORMAT_UINT32, sizeof rgb, &rgb),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclvencSetChannelDescParam(venc, ACL_VENC_THREAD_ID_UINT64, 4, &rate),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetChannelDescMaxBitRate(venc, 3000), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetChannelDescMaxBitRate(venc), 3000u);
  EXPECT_EQ(aclvencSetChannelDescRcMode(venc, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencGetChannelDescEnType(venc), H265_MAIN_LEVEL);
  EXPECT_EQ(aclvencGetChannelDescPicFormat(venc), PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(aclvencSetChannelDescCallback(venc, on_stream), ACL_SUCCESS);
  ASSERT_EQ(aclvencSetChannelDescThreadId(venc, 12345), ACL_SUCCESS);
  EXPECT_EQ(aclvencCreateChannel(venc), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("128x128 to 1920x1920"), std::string::npos) << recent_msg();
  EXPECT_EQ(aclvencSendFrame(venc, nullptr, nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("call aclvencCreateChannel first"), std::string::npos)
      << recent_msg();
  EXPECT_EQ(aclvencDestroyChannel(venc), ACL_ERROR_INVALID_PARAM);
  aclvencFrameConfig *config = aclvencCreateFrameConfig();
  EXPECT_EQ(aclvencSetFrameConfigEos(config, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencSetFrameConfigForceIFrame(config, 1), ACL_SUCCESS);
  EXPECT_EQ(aclvencGetFrameConfigForceIFrame(config), 1);
  EXPECT_EQ(aclvencGetFrameConfigEos(config), 0);
  EXPECT_EQ(aclvencDestroyChannelDesc(reinterpret_cast<aclvencChannelDesc *>(config)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvencDestroyFrameConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclvencDestroyChannelDesc(venc), ACL_SUCCESS);
}

}  // namespace
