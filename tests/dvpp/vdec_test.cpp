// VDEC against FFmpeg's encoders: a lossless H.264 (libx264) and H.265 (libx265) stream made in
// the test decodes, frame by frame through aclvdecSendFrame, to the encoder's input frames
// exactly; callbacks arrive on the program's thread, in display order (in decoding order with
// OutMode 1), each with its own frame's input description and user data; misuse gets errors.
#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dvpp/images.h"
#include "dvpp/streams.h"
#include "support/staging_device.h"

// libx265 (the test's H.265 encoder) keeps a small allocation until exit; LeakSanitizer (the
// ASan build) would fail the test for it. Only linked in, never called, without LSan.
extern "C" const char *__lsan_default_suppressions() { return "leak:libx265.so\n"; }

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

constexpr int kW = dvt::kVideoW, kH = dvt::kVideoH, kFrames = dvt::kVideoFrames;

struct Received {
  size_t frame_bytes = 0;  // what the callback copies of each output
  std::mutex mu;
  std::vector<std::vector<uint8_t>> frames;  // NV12 as written
  std::vector<uint32_t> ret_codes;
  std::vector<intptr_t> user_data;
  std::vector<uint64_t> timestamps;  // of each callback's input description
  int eos_callbacks = 0;             // callbacks without an output (the end-of-stream frame)
  std::atomic<bool> wrong_thread{false};
  uint64_t thread = 0;
};
Received *g_received = nullptr;

void on_frame(acldvppStreamDesc *input, acldvppPicDesc *output, void *user_data) {
  Received &r = *g_received;
  if (static_cast<uint64_t>(pthread_self()) != r.thread) r.wrong_thread = true;
  if (output == nullptr) {
    std::lock_guard lock(r.mu);
    ++r.eos_callbacks;
    return;
  }
  std::vector<uint8_t> nv12(r.frame_bytes);
  uint32_t rc = acldvppGetPicDescRetCode(output);
  if (rc == 0)
    aclrtMemcpy(nv12.data(), nv12.size(), acldvppGetPicDescData(output), nv12.size(),
                ACL_MEMCPY_DEVICE_TO_HOST);
  std::lock_guard lock(r.mu);
  r.frames.push_back(std::move(nv12));
  r.ret_codes.push_back(rc);
  r.user_data.push_back(reinterpret_cast<intptr_t>(user_data));
  r.timestamps.push_back(acldvppGetStreamDescTimestamp(input));
}

class Vdec : public DvppTest, public ::testing::WithParamInterface<bool> {
 protected:
  // Decodes `packets` on a channel whose pictures are out_w x out_h (0: the stream's) into
  // buffers of out_size bytes, with a report thread serving its callbacks; `received` has
  // what the callbacks saw. Frame i has user data 100 + i and timestamp 1000 + i; eos: an
  // end-of-stream frame follows (else aclvdecDestroyChannel gives out what is held).
  void decode(bool hevc, const std::vector<std::vector<uint8_t>> &packets, uint32_t out_w,
              uint32_t out_h, uint32_t out_size, Received &received, uint32_t out_mode = 0,
              bool eos = false) {
    received.frame_bytes = out_size;
    g_received = &received;
    std::atomic<bool> run{true};
    std::atomic<uint64_t> tid{0};
    aclrtContext ctx = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    std::thread reporter([&] {
      aclrtSetCurrentContext(ctx);
      tid = static_cast<uint64_t>(pthread_self());
      while (run) aclrtProcessReport(100);
    });
    while (tid == 0) std::this_thread::yield();
    received.thread = tid;

    aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
    ASSERT_EQ(aclvdecSetChannelDescChannelId(vdec, 3), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescThreadId(vdec, tid), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescCallback(vdec, on_frame), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescEnType(vdec, hevc ? H265_MAIN_LEVEL : H264_HIGH_LEVEL),
              ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescOutPicFormat(vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
              ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescOutPicWidth(vdec, out_w), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescOutPicHeight(vdec, out_h), ACL_SUCCESS);
    ASSERT_EQ(aclvdecSetChannelDescOutMode(vdec, out_mode), ACL_SUCCESS);
    ASSERT_EQ(aclvdecCreateChannel(vdec), ACL_SUCCESS) << recent_msg();
    EXPECT_EQ(aclvdecSetChannelDescEnType(vdec, H264_MAIN_LEVEL), ACL_ERROR_INVALID_PARAM);

    // A description per frame: a callback gets its own frame's.
    std::vector<acldvppStreamDesc *> descs;
    for (size_t i = 0; i < packets.size(); ++i) {
      acldvppStreamDesc *in = descs.emplace_back(acldvppCreateStreamDesc());
      void *data = dvpp_buffer(packets[i].size(), packets[i]);
      ASSERT_EQ(acldvppSetStreamDescData(in, data), ACL_SUCCESS);
      ASSERT_EQ(acldvppSetStreamDescTimestamp(in, 1000 + i), ACL_SUCCESS);
      ASSERT_EQ(acldvppSetStreamDescSize(in, packets[i].size()), ACL_SUCCESS);
      // Zeros, as the references have in the stride padding, which VDEC does not write.
      void *zeros = dvpp_buffer(out_size, std::vector<uint8_t>(out_size, 0));
      acldvppPicDesc *out = pic(zeros, out_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
      ASSERT_EQ(aclvdecSendFrame(vdec, in, out, nullptr, reinterpret_cast<void *>(100 + i)),
                ACL_SUCCESS)
          << recent_msg();
    }
    acldvppStreamDesc *end = descs.emplace_back(acldvppCreateStreamDesc());
    if (eos) {
      ASSERT_EQ(acldvppSetStreamDescEos(end, 1), ACL_SUCCESS);
      ASSERT_EQ(aclvdecSendFrame(vdec, end, nullptr, nullptr, nullptr), ACL_SUCCESS)
          << recent_msg();
      // As CANN documents it, the end of stream's send returns after every callback.
      std::lock_guard lock(received.mu);
      EXPECT_EQ(received.eos_callbacks, 1);
    }
    ASSERT_EQ(aclvdecDestroyChannel(vdec), ACL_SUCCESS) << recent_msg();
    run = false;
    reporter.join();
    for (acldvppStreamDesc *d : descs) EXPECT_EQ(acldvppDestroyStreamDesc(d), ACL_SUCCESS);
    EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_SUCCESS);
    g_received = nullptr;
  }
  // The encoder's frames, decoded bit-exactly. OutMode 0 (display order) and 1 (each picture as
  // soon as its frame is decoded) give the same pictures for a stream without B-frames, the only
  // kind CANN's fast mode takes.
  void decodes_exactly() {
    const bool hevc = GetParam();
    std::vector<std::vector<uint8_t>> packets = dvt::encode_video(hevc);
    if (packets.empty())
      GTEST_SKIP() << "libavcodec has no " << (hevc ? "libx265" : "libx264") << " encoder";
    ASSERT_EQ(packets.size(), size_t{kFrames});
    for (uint32_t mode : {0u, 1u}) {
      SCOPED_TRACE("OutMode " + std::to_string(mode));
      Received received;
      const uint32_t out_size = kW * kH * 3 / 2;
      decode(hevc, packets, 0, 0, out_size, received, mode);
      ASSERT_EQ(received.frames.size(), size_t{kFrames});
      EXPECT_FALSE(received.wrong_thread);
      for (int i = 0; i < kFrames; ++i) {
        EXPECT_EQ(received.user_data[i], 100 + i);
        ASSERT_EQ(received.ret_codes[i], 0u) << "frame " << i;
        EXPECT_EQ(received.frames[i], dvt::frame_nv12(i)) << "frame " << i;
      }
    }
  }
};

TEST_P(Vdec, DecodesTheEncodersFramesExactly) { decodes_exactly(); }

// A stream with B-frames: the pictures come in display order, each in its own frame's output with
// its frame's input description and user data, equal to libavcodec's own decode; the end of
// stream (or, without one, aclvdecDestroyChannel) gives out what the decoder held.
TEST_P(Vdec, ReorderedStreamComesInDisplayOrder) {
  const bool hevc = GetParam();
  std::vector<int64_t> pts;
  std::vector<std::vector<uint8_t>> packets = dvt::encode_video(hevc, 2, &pts);
  if (packets.empty()) GTEST_SKIP() << "libavcodec lacks the encoder";
  ASSERT_EQ(packets.size(), size_t{kFrames});
  ASSERT_FALSE(std::is_sorted(pts.begin(), pts.end())) << "the encoder made no B-frames";
  const std::vector<dvt::DecodedPicture> expected = dvt::reference_decode(hevc, packets);
  ASSERT_EQ(expected.size(), size_t{kFrames});
  const uint32_t out_size = kW * kH * 3 / 2;
  for (bool eos : {true, false}) {
    SCOPED_TRACE(eos ? "end of stream" : "destroyed");
    Received received;
    decode(hevc, packets, 0, 0, out_size, received, 0, eos);
    ASSERT_EQ(received.frames.size(), size_t{kFrames});
    EXPECT_EQ(received.eos_callbacks, eos ? 1 : 0);
    EXPECT_FALSE(received.wrong_thread);
    for (int k = 0; k < kFrames; ++k) {
      const int64_t sent = expected[k].pts;
      EXPECT_EQ(pts[sent], k) << "libavcodec's picture " << k << " is not display index " << k;
      ASSERT_EQ(received.ret_codes[k], 0u) << "picture " << k;
      EXPECT_EQ(received.frames[k], expected[k].nv12) << "picture " << k;
      EXPECT_EQ(received.user_data[k], 100 + sent) << "picture " << k;
      EXPECT_EQ(received.timestamps[k], 1000 + static_cast<uint64_t>(sent)) << "picture " << k;
    }
  }
}

// OutPicWidth / Height scale the pictures with VPC's bilinear rule.
TEST_P(Vdec, ScalesToTheChannelsOutputSize) {
  const bool hevc = GetParam();
  std::vector<std::vector<uint8_t>> packets = dvt::encode_video(hevc);
  if (packets.empty()) GTEST_SKIP() << "libavcodec lacks the encoder";
  packets.resize(2);
  const uint32_t ow = 40, oh = 30, ows = 48, out_size = ows * oh * 3 / 2;
  Received received;
  decode(hevc, packets, ow, oh, out_size, received);
  ASSERT_EQ(received.frames.size(), size_t{2});
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(received.ret_codes[i], 0u) << "frame " << i;
    EXPECT_LE(
        dvt::max_diff(received.frames[i], dvt::reference_resize_nv12(dvt::frame_nv12(i), kW, kH, kW,
                                                                     kH, ow, oh, ows, oh)),
        1)
        << "frame " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, Vdec, ::testing::Values(false, true),
                         [](const auto &info) { return info.param ? "H265" : "H264"; });

// On a backend whose device memory the host cannot address (support/staging_device.h): each
// frame read at the call and each picture written through host views the backend stages.
class VdecOnStagingDevice : public Vdec {
 protected:
  aclError init() override { return openacl::api::init_with(nullptr, staging::parts()); }
};

TEST_P(VdecOnStagingDevice, DecodesTheEncodersFramesExactly) { decodes_exactly(); }

INSTANTIATE_TEST_SUITE_P(H264, VdecOnStagingDevice, ::testing::Values(false));

TEST_F(DvppTest, VdecMisuse) {
  aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
  EXPECT_EQ(aclvdecCreateChannel(vdec), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("aclvdecCreateChannel: channelDesc has no callback"),
            std::string::npos)
      << recent_msg();
  ASSERT_EQ(aclvdecSetChannelDescCallback(vdec, on_frame), ACL_SUCCESS);
  ASSERT_EQ(aclvdecSetChannelDescThreadId(vdec, 12345), ACL_SUCCESS);
  EXPECT_EQ(aclvdecSetChannelDescOutPicFormat(vdec, PIXEL_FORMAT_RGB_888),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  acldvppStreamDesc *in = acldvppCreateStreamDesc();
  EXPECT_EQ(aclvdecSendFrame(vdec, in, nullptr, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent_msg().find("call aclvdecCreateChannel first"), std::string::npos)
      << recent_msg();
  EXPECT_EQ(acldvppSetStreamDescFormat(in, static_cast<acldvppStreamFormat>(7)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acldvppSetStreamDescTimestamp(in, 42), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetStreamDescTimestamp(in), 42u);
  EXPECT_EQ(acldvppSetStreamDescEos(in, 1), ACL_SUCCESS);
  EXPECT_EQ(acldvppGetStreamDescEos(in), 1);
  EXPECT_EQ(acldvppDestroyStreamDesc(in), ACL_SUCCESS);
  EXPECT_EQ(aclvdecDestroyChannel(vdec), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclvdecDestroyChannelDesc(vdec), ACL_SUCCESS);
}

}  // namespace
