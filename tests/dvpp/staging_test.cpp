// The DVPP units on a backend whose device memory the host cannot address
// (support/staging_device.h): JPEGD, PNGD and VPC read and write their pictures through host
// views the backend stages, with the results the sim suites check (VENC and VDEC:
// VencOnStagingDevice, VdecOnStagingDevice; the V2 channels: Staging/Mpi.*).
#include <gtest/gtest.h>

#include "acl/dvpp/hi_dvpp.h"
#include "dvpp/images.h"
#include "support/staging_device.h"

namespace {

using dvt::recent_msg;

class DvppOnStagingDevice : public dvt::DvppTest {
 protected:
  aclError init() override { return openacl::api::init_with(nullptr, staging::parts()); }
};

// The premise of the suite: the host faults on the backend's device memory.
TEST_F(DvppOnStagingDevice, TheHostCannotTouchDeviceMemory) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  void *p = dvpp_buffer(64);
  EXPECT_DEATH(*static_cast<volatile uint8_t *>(p) = 1, "");
}

TEST_F(DvppOnStagingDevice, JpegDecodeThenResizeThroughStagedViews) {
  const uint32_t w = 96, h = 64, ws = 128, hs = 64;
  const std::vector<uint8_t> jpeg = dvt::make_jpeg(w, h, 2, 2);
  uint32_t size = 0;
  ASSERT_EQ(
      acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
      ACL_SUCCESS);
  ASSERT_EQ(size, ws * hs * 3 / 2);
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  void *decoded = dvpp_buffer(size);
  acldvppPicDesc *d = pic(decoded, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 0, 0, 0, 0);
  const int views = staging::counts().views;
  ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(staging::counts().views - views, 2) << "the stream read, the picture written";
  uint32_t rw = 0, rh = 0;
  const std::vector<uint8_t> nv12 = dvt::reference_nv12(jpeg, false, &rw, &rh);
  EXPECT_EQ(read_back(decoded, size), nv12);

  const uint32_t ow = 40, oh = 30, ows = 48, ohs = 30, out_size = ows * ohs * 3 / 2;
  void *resized = dvpp_buffer(out_size, std::vector<uint8_t>(out_size, 0));
  acldvppPicDesc *o = pic(resized, out_size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, ow, oh, ows, ohs);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(acldvppVpcResizeAsync(channel_, d, o, rc, stream_), ACL_SUCCESS) << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  EXPECT_EQ(acldvppDestroyResizeConfig(rc), ACL_SUCCESS);
  const auto want = dvt::reference_resize_nv12(nv12, w, h, ws, hs, ow, oh, ows, ohs);
  EXPECT_LE(dvt::max_diff(read_back(resized, out_size), want), 1);
}

TEST_F(DvppOnStagingDevice, PngDecodeThroughStagedViews) {
  const uint32_t w = 70, h = 40, ws = 128 * 3, hs = 48;
  std::vector<uint8_t> px(size_t{w} * h * 3);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 7 + i / 13);
  const std::vector<uint8_t> png = dvt::make_png(px, w, h, 3);
  void *in = dvpp_buffer(png.size(), png);
  void *out = dvpp_buffer(ws * hs);
  acldvppPicDesc *d = pic(out, ws * hs, PIXEL_FORMAT_RGB_888, 0, 0, 0, 0);
  ASSERT_EQ(acldvppPngDecodeAsync(channel_, in, png.size(), d, stream_), ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg();
  const std::vector<uint8_t> got = read_back(out, ws * hs);
  size_t mismatches = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (size_t x = 0; x < size_t{w} * 3; ++x) mismatches += got[y * ws + x] != px[y * w * 3 + x];
  EXPECT_EQ(mismatches, 0u);
}

// A V2 task views what it declared, a picture read and one written (the V2 suite, Staging/Mpi.*,
// checks the bytes on this device against sim's).
TEST_F(DvppOnStagingDevice, V2TasksReachTheirPicturesThroughStagedViews) {
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << recent_msg();
  hi_vpc_chn chn = 0;
  hi_vpc_chn_attr attr{};
  ASSERT_EQ(hi_mpi_vpc_sys_create_chn(&chn, &attr), HI_SUCCESS) << recent_msg();
  const uint32_t w = 64, h = 32, size = w * h * 3 / 2;
  void *in = dvpp_buffer(size, std::vector<uint8_t>(size, 77));
  void *out = dvpp_buffer(size);
  hi_vpc_pic_info src{}, dst{};
  for (auto [p, data] : {std::pair{&src, in}, std::pair{&dst, out}}) {
    p->picture_address = data;
    p->picture_buffer_size = size;
    p->picture_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    p->picture_width = p->picture_width_stride = w;
    p->picture_height = p->picture_height_stride = h;
  }
  const int views = staging::counts().views;
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_resize(chn, &src, &dst, 0, 0, 0, &task, -1), HI_SUCCESS) << recent_msg();
  ASSERT_EQ(hi_mpi_vpc_get_process_result(chn, task, -1), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(staging::counts().views - views, 2);
  EXPECT_EQ(read_back(out, size), std::vector<uint8_t>(size, 77));
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(chn), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
}

}  // namespace
