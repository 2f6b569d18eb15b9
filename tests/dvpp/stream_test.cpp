// DVPP work is device work like any other: it runs in stream order (after a copy queued before
// it), and the timeline trace and the race checker see its tasks and buffers.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "dvpp/images.h"

namespace {

using dvt::DvppTest;
using dvt::recent_msg;

TEST_F(DvppTest, DecodeReadsItsInputInStreamOrder) {
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 48, 2, 2);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  void *host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, jpeg.size()), ACL_SUCCESS);
  std::memcpy(host, jpeg.data(), jpeg.size());
  void *in =
      dvpp_buffer(jpeg.size(), std::vector<uint8_t>(jpeg.size(), 0));  // zeros: not a JPEG yet
  void *out = dvpp_buffer(size, std::vector<uint8_t>(size, 0));  // the reference's padding is 0
  acldvppPicDesc *d = pic(out, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  ASSERT_EQ(
      aclrtMemcpyAsync(in, jpeg.size(), host, jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_SUCCESS);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(acldvppGetPicDescWidth(d), 64u);
  uint32_t w, h;
  EXPECT_EQ(read_back(out, size), dvt::reference_nv12(jpeg, false, &w, &h));
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A decode on one stream and a resize of its output on another, with no event between them.
void decode_then_resize_unsynchronized(bool synchronize) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  ASSERT_EQ(acldvppCreateChannel(channel), ACL_SUCCESS);
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 48, 2, 2);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  void *in = nullptr, *mid = nullptr, *out = nullptr;
  ASSERT_EQ(acldvppMalloc(&in, jpeg.size()), ACL_SUCCESS);
  ASSERT_EQ(acldvppMalloc(&mid, size), ACL_SUCCESS);
  ASSERT_EQ(acldvppMalloc(&out, 32 * 16 * 3 / 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(in, jpeg.size(), jpeg.data(), jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  acldvppPicDesc *decoded = acldvppCreatePicDesc();
  acldvppSetPicDescData(decoded, mid);
  acldvppSetPicDescSize(decoded, size);
  acldvppSetPicDescFormat(decoded, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  ASSERT_EQ(acldvppJpegDecodeAsync(channel, in, jpeg.size(), decoded, a), ACL_SUCCESS);
  if (synchronize) ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  // The resize describes the decoded picture as the program knows it will be laid out.
  acldvppPicDesc *src = acldvppCreatePicDesc(), *dst = acldvppCreatePicDesc();
  for (auto [p, data, bytes, w, h, ws, hs] :
       {std::tuple{src, mid, size, 64u, 48u, 128u, 48u},
        std::tuple{dst, out, 32u * 16 * 3 / 2, 32u, 16u, 32u, 16u}}) {
    acldvppSetPicDescData(p, data);
    acldvppSetPicDescSize(p, bytes);
    acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(p, w);
    acldvppSetPicDescHeight(p, h);
    acldvppSetPicDescWidthStride(p, ws);
    acldvppSetPicDescHeightStride(p, hs);
  }
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppVpcResizeAsync(channel, src, dst, rc, b), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
  for (auto *p : {decoded, src, dst}) acldvppDestroyPicDesc(p);
  acldvppDestroyResizeConfig(rc);
  for (void *p : {in, mid, out}) acldvppFree(p);
  acldvppDestroyChannel(channel);
  acldvppDestroyChannelDesc(channel);
  aclrtDestroyStream(a);
  aclrtDestroyStream(b);
}

// Runs the pair under OPENACL_CHECK=1 and OPENACL_TRACE; returns stderr, and the trace in *trace.
std::string checked_run(bool synchronize, std::string *trace) {
  const std::string path =
      ::testing::TempDir() + "dvpp_trace_" + std::to_string(getpid()) + ".json";
  setenv("OPENACL_CHECK", "1", 1);
  setenv("OPENACL_TRACE", path.c_str(), 1);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  decode_then_resize_unsynchronized(synchronize);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  std::string err = ::testing::internal::GetCapturedStderr();
  unsetenv("OPENACL_CHECK");
  unsetenv("OPENACL_TRACE");
  *trace = slurp(path);
  std::remove(path.c_str());
  return err;
}

TEST(DvppDiagnostics, TheRaceCheckerAndTheTraceSeeDvppTasks) {
  std::string trace;
  std::string err = checked_run(false, &trace);
  EXPECT_NE(err.find("openacl-check: race"), std::string::npos) << err;
  EXPECT_NE(err.find("JPEGD"), std::string::npos) << err;
  EXPECT_NE(trace.find("\"JPEGD\""), std::string::npos);
  EXPECT_NE(trace.find("acldvppVpcResizeAsync"), std::string::npos);

  err = checked_run(true, &trace);
  EXPECT_EQ(err.find("openacl-check: race"), std::string::npos) << err;
}

}  // namespace
