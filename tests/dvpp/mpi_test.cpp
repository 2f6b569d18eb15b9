// CANN's V2 media API (acl/dvpp/hi_dvpp.h, libacl_dvpp_mpi) against the V1 calls on the same
// pictures: every operation must give the same bytes as its V1 form (both run the same units),
// on sim and on the staging device. Then the error codes and messages of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/dvpp/hi_dvpp.h"
#include "dvpp/images.h"
#include "dvpp/streams.h"
#include "support/staging_device.h"

namespace {

using dvt::recent_msg;

// The V1 fixture (context, stream, channel, DVPP buffers) with the media system started.
class MpiCalls : public dvt::DvppTest {
 protected:
  void SetUp() override {
    DvppTest::SetUp();
    ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS) << recent_msg();
  }
  void TearDown() override {
    EXPECT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
    DvppTest::TearDown();
  }
  void sync() { ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recent_msg(); }
  // V1's bilinear crop-resize-paste of the kW x kH NV12 picture `in` into the kOw x kOh one
  // `out` (regions as acldvppCreateRoiConfig takes them: left, right, top, bottom).
  void v1_crop_resize_paste(void *in, void *out, const std::array<uint32_t, 4> &crop,
                            const std::array<uint32_t, 4> &paste);
};

// The units' results, on sim and (true) on a backend whose device memory the host cannot
// address (support/staging_device.h), where each V2 task reads and writes its pictures through
// the host views the backend stages: the same bytes either way.
class Mpi : public MpiCalls, public ::testing::WithParamInterface<bool> {
 protected:
  aclError init() override {
    return GetParam() ? openacl::api::init_with(nullptr, staging::parts()) : aclInit(nullptr);
  }
};

INSTANTIATE_TEST_SUITE_P(Sim, Mpi, ::testing::Values(false));
INSTANTIATE_TEST_SUITE_P(Staging, Mpi, ::testing::Values(true));

hi_vpc_pic_info vpc_pic(void *data, uint32_t size, hi_pixel_format format, uint32_t w, uint32_t h,
                        uint32_t ws, uint32_t hs) {
  hi_vpc_pic_info p{};
  p.picture_address = data;
  p.picture_buffer_size = size;
  p.picture_format = format;
  p.picture_width = w;
  p.picture_height = h;
  p.picture_width_stride = ws;
  p.picture_height_stride = hs;
  return p;
}

// A VPC channel for one test.
struct VpcChannel {
  explicit VpcChannel(hi_vpc_chn id) : id(id) {
    hi_vpc_chn_attr attr{};
    EXPECT_EQ(hi_mpi_vpc_create_chn(id, &attr), HI_SUCCESS) << recent_msg();
  }
  ~VpcChannel() { EXPECT_EQ(hi_mpi_vpc_destroy_chn(id), HI_SUCCESS) << recent_msg(); }
  // Waits for the task and expects it to succeed.
  void finish(hi_u32 task) const {
    ASSERT_EQ(hi_mpi_vpc_get_process_result(id, task, -1), HI_SUCCESS) << recent_msg();
  }
  hi_vpc_chn id;
};

constexpr uint32_t kW = 300, kH = 200, kWs = 304, kHs = 200, kSize = kWs * kHs * 3 / 2;
constexpr uint32_t kOw = 224, kOh = 128, kOSize = kOw * kOh * 3 / 2;

void MpiCalls::v1_crop_resize_paste(void *in, void *out, const std::array<uint32_t, 4> &crop,
                                    const std::array<uint32_t, 4> &paste) {
  acldvppRoiConfig *c = acldvppCreateRoiConfig(crop[0], crop[1], crop[2], crop[3]),
                   *p = acldvppCreateRoiConfig(paste[0], paste[1], paste[2], paste[3]);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  ASSERT_EQ(
      acldvppVpcCropResizePasteAsync(
          channel_, pic(in, kSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs),
          pic(out, kOSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh), c, p, rc, stream_),
      ACL_SUCCESS)
      << recent_msg();
  sync();
  acldvppDestroyRoiConfig(c);
  acldvppDestroyRoiConfig(p);
  acldvppDestroyResizeConfig(rc);
}

TEST_P(Mpi, ResizeGivesTheV1Bytes) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 7));
  VpcChannel ch(3);
  for (uint32_t v2 : {0u, 1u}) {  // V2 0 bilinear, 1 nearest = V1 1 and 2
    void *out1 = dvpp_buffer(kOSize, std::vector<uint8_t>(kOSize, 0));
    void *out2 = dvpp_buffer(kOSize, std::vector<uint8_t>(kOSize, 0));
    acldvppResizeConfig *rc = acldvppCreateResizeConfig();
    ASSERT_EQ(acldvppSetResizeConfigInterpolation(rc, v2 + 1), ACL_SUCCESS);
    ASSERT_EQ(
        acldvppVpcResizeAsync(
            channel_, pic(in, kSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs),
            pic(out1, kOSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh), rc, stream_),
        ACL_SUCCESS)
        << recent_msg();
    sync();
    acldvppDestroyResizeConfig(rc);
    hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
    hi_vpc_pic_info dst =
        vpc_pic(out2, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
    hi_u32 task = 99;
    ASSERT_EQ(hi_mpi_vpc_resize(ch.id, &src, &dst, 0, 0, v2, &task, -1), HI_SUCCESS)
        << recent_msg();
    ch.finish(task);
    auto a = read_back(out1, kOSize), b = read_back(out2, kOSize);
    EXPECT_EQ(a, b) << "interpolation " << v2;
    EXPECT_NE(a, std::vector<uint8_t>(kOSize, 0));
  }
}

TEST_P(Mpi, CropResizePasteGivesTheV1Bytes) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 8));
  const std::vector<uint8_t> canvas = dvt::nv_noise(kOw, kOh, 9);
  void *out1 = dvpp_buffer(kOSize, canvas), *out2 = dvpp_buffer(kOSize, canvas);
  // Crop [20, 219] x [10, 149], resize to 96x64, paste at (32, 16).
  ASSERT_NO_FATAL_FAILURE(v1_crop_resize_paste(in, out1, {20, 219, 10, 149}, {32, 127, 16, 79}));
  VpcChannel ch(0);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  hi_vpc_crop_resize_paste_region r{};
  r.dest_pic_info = vpc_pic(out2, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
  r.crop_region = {10, 20, 200, 140};  // top, left, width, height
  r.resize_info = {96, 64, 0};
  r.dest_top_offset = 16;
  r.dest_left_offset = 32;
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_crop_resize_paste(ch.id, &src, &r, 1, &task, -1), HI_SUCCESS)
      << recent_msg();
  ch.finish(task);
  auto a = read_back(out1, kOSize), b = read_back(out2, kOSize);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, canvas);
}

// Two regions pasted into one picture by one call: the task's views of that picture are one
// view (on the staging device each is a copy), so neither paste is lost.
TEST_P(Mpi, TwoPastesIntoOnePictureKeepBoth) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 21));
  const std::vector<uint8_t> canvas = dvt::nv_noise(kOw, kOh, 22);
  void *out1 = dvpp_buffer(kOSize, canvas), *out2 = dvpp_buffer(kOSize, canvas);
  // Crop [20, 219] x [10, 149] to 96x64 at (32, 16), and [0, 99] x [0, 99] to 64x64 at (128, 64).
  ASSERT_NO_FATAL_FAILURE(v1_crop_resize_paste(in, out1, {20, 219, 10, 149}, {32, 127, 16, 79}));
  ASSERT_NO_FATAL_FAILURE(v1_crop_resize_paste(in, out1, {0, 99, 0, 99}, {128, 191, 64, 127}));
  VpcChannel ch(1);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  hi_vpc_crop_resize_paste_region r[2]{};
  for (auto &region : r)
    region.dest_pic_info =
        vpc_pic(out2, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
  r[0].crop_region = {10, 20, 200, 140};  // top, left, width, height
  r[0].resize_info = {96, 64, 0};
  r[0].dest_top_offset = 16;
  r[0].dest_left_offset = 32;
  r[1].crop_region = {0, 0, 100, 100};
  r[1].resize_info = {64, 64, 0};
  r[1].dest_top_offset = 64;
  r[1].dest_left_offset = 128;
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_crop_resize_paste(ch.id, &src, r, 2, &task, -1), HI_SUCCESS) << recent_msg();
  ch.finish(task);
  const auto a = read_back(out1, kOSize), b = read_back(out2, kOSize);
  EXPECT_EQ(a, b);
  // Both pastes are there: the second's luma rows differ from the canvas.
  EXPECT_NE(std::vector<uint8_t>(a.begin() + 64 * kOw + 128, a.begin() + 64 * kOw + 192),
            std::vector<uint8_t>(canvas.begin() + 64 * kOw + 128, canvas.begin() + 64 * kOw + 192));
  EXPECT_NE(std::vector<uint8_t>(a.begin() + 16 * kOw + 32, a.begin() + 16 * kOw + 128),
            std::vector<uint8_t>(canvas.begin() + 16 * kOw + 32, canvas.begin() + 16 * kOw + 128));
}

TEST_P(Mpi, CropResizeIntoRgbIsTheNv12ResizeConverted) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 13));
  VpcChannel ch(2);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  // Reference: crop [20, 219] x [10, 149] resized into NV12, then converted to BGR888.
  void *nv12 = dvpp_buffer(kOSize, std::vector<uint8_t>(kOSize, 0));
  hi_vpc_crop_resize_region r{};
  r.dest_pic_info = vpc_pic(nv12, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
  r.crop_region = {10, 20, 200, 140};  // top, left, width, height
  r.resize_info = {kOw, kOh, 1};
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_crop_resize(ch.id, &src, &r, 1, &task, -1), HI_SUCCESS) << recent_msg();
  ch.finish(task);
  const uint32_t rws = kOw * 3, rsize = rws * kOh;
  void *want = dvpp_buffer(rsize, std::vector<uint8_t>(rsize, 0)),
       *got = dvpp_buffer(rsize, std::vector<uint8_t>(rsize, 0));
  hi_vpc_pic_info bgr = vpc_pic(want, rsize, HI_PIXEL_FORMAT_BGR_888, kOw, kOh, rws, kOh);
  ASSERT_EQ(hi_mpi_vpc_convert_color(ch.id, &r.dest_pic_info, &bgr, &task, -1), HI_SUCCESS)
      << recent_msg();
  ch.finish(task);
  // In one call, as the official vdec_vpc sample asks for it.
  r.dest_pic_info = vpc_pic(got, rsize, HI_PIXEL_FORMAT_BGR_888, kOw, kOh, rws, kOh);
  ASSERT_EQ(hi_mpi_vpc_crop_resize(ch.id, &src, &r, 1, &task, -1), HI_SUCCESS) << recent_msg();
  ch.finish(task);
  const auto a = read_back(want, rsize);
  EXPECT_EQ(read_back(got, rsize), a);
  EXPECT_NE(a, std::vector<uint8_t>(rsize, 0));
  // Only the whole destination: a resize smaller than it is refused, with the reason.
  r.resize_info = {kOw / 2, kOh, 1};
  EXPECT_EQ(hi_mpi_vpc_crop_resize(ch.id, &src, &r, 1, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("RGB destination"), std::string::npos) << recent_msg();
}

// A filter of one plane of c interleaved channels, written the plain way: each sample from its
// kw x kh window (outside the picture: the nearest edge sample, or fill[channel] when given).
// correlate: sum(weights[i] * sample i) + delta, samples in rows of kw, rounded to nearest.
enum class Op { median, min, max, mean, correlate };
struct Weights {
  const double *w = nullptr;
  double delta = 0;
};
void reference_filter(const uint8_t *src, uint8_t *dst, uint32_t w, uint32_t h, uint32_t stride,
                      int c, Op op, int kw, int kh, const int *fill = nullptr,
                      Weights weights = {}) {
  for (int y = 0; y < int(h); ++y)
    for (int x = 0; x < int(w); ++x)
      for (int ch = 0; ch < c; ++ch) {
        std::vector<int> v;
        for (int dy = -kh / 2; dy <= kh / 2; ++dy)
          for (int dx = -kw / 2; dx <= kw / 2; ++dx) {
            const int yy = y + dy, xx = x + dx;
            const bool outside = yy < 0 || yy >= int(h) || xx < 0 || xx >= int(w);
            v.push_back(fill && outside ? fill[ch]
                                        : src[std::clamp(yy, 0, int(h) - 1) * stride +
                                              std::clamp(xx, 0, int(w) - 1) * c + ch]);
          }
        double correlation = weights.delta;
        for (size_t i = 0; i < v.size(); ++i) correlation += weights.w ? weights.w[i] * v[i] : 0;
        if (op == Op::correlate) {
          dst[y * stride + x * c + ch] =
              uint8_t(std::clamp(std::nearbyint(correlation), 0.0, 255.0));
          continue;
        }
        std::sort(v.begin(), v.end());
        int sum = 0;
        for (int e : v) sum += e;
        const int n = int(v.size());
        dst[y * stride + x * c + ch] = uint8_t(op == Op::median ? v[n / 2]
                                               : op == Op::min  ? v.front()
                                               : op == Op::max  ? v.back()
                                                                : std::lround(double(sum) / n));
      }
}

// Pictures for the filters: odd sizes (the chroma grid rounds up), and luma rows enough for two
// bands of AI cores.
struct FilterPicture {
  hi_pixel_format format;
  uint32_t bpp;
  static constexpr uint32_t w = 45, h = 69, hs = h + 1;  // height strides are even
  uint32_t ws() const { return (w * bpp + 15) / 16 * 16; }
  bool nv() const { return format == HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420; }
  uint32_t size() const { return nv() ? ws() * hs * 3 / 2 : ws() * hs; }
  // The reference of every plane; fill by component (Y/R, U/G, V/B) when given. The padding
  // is 0, or src's with `in_place`.
  std::vector<uint8_t> reference(const std::vector<uint8_t> &src, Op op, int kw, int kh,
                                 const int *fill = nullptr, int passes = 1, bool in_place = false,
                                 Weights weights = {}) const {
    std::vector<uint8_t> in = src, out = in_place ? src : std::vector<uint8_t>(size(), 0);
    for (int i = 0; i < passes; ++i) {
      const int bgr[3] = {fill ? fill[2] : 0, fill ? fill[1] : 0, fill ? fill[0] : 0};
      const int vu[2] = {fill ? fill[2] : 0, fill ? fill[1] : 0};
      reference_filter(in.data(), out.data(), w, h, ws(), int(bpp), op, kw, kh,
                       fill ? (bpp == 3 ? bgr : fill) : nullptr, weights);
      if (nv())  // the interleaved V and U on the half-size grid
        reference_filter(&in[ws() * hs], &out[ws() * hs], (w + 1) / 2, (h + 1) / 2, ws(), 2, op, kw,
                         kh, fill ? vu : nullptr, weights);
      in = out;
    }
    return out;
  }
};

constexpr FilterPicture kFilterPictures[] = {{HI_PIXEL_FORMAT_YUV_400, 1},
                                             {HI_PIXEL_FORMAT_BGR_888, 3},
                                             {HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420, 1}};

TEST_P(Mpi, MedianBlurIsTheMedianOfEachNeighbourhood) {
  VpcChannel ch(5);
  for (const FilterPicture &f : kFilterPictures) {
    std::vector<uint8_t> src_bytes = dvt::nv_noise(f.ws(), f.hs, 31);
    src_bytes.resize(f.size());
    void *src = dvpp_buffer(f.size(), src_bytes);
    for (uint32_t k : {1u, 3u, 5u}) {
      void *dst = dvpp_buffer(f.size(), std::vector<uint8_t>(f.size(), 0));
      hi_median_blur_param p{};
      p.src = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
      p.dst = vpc_pic(dst, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
      p.median_blur_cfg.kernel_size = k;
      hi_u32 task = 0;
      ASSERT_EQ(hi_mpi_vpc_median_blur(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
      ch.finish(task);
      EXPECT_EQ(read_back(dst, f.size()), f.reference(src_bytes, Op::median, int(k), int(k)))
          << "format " << f.format << " kernel " << k;
    }
  }
}

hi_blur_param blur_param(void *src, void *dst, const FilterPicture &f, uint32_t kw, uint32_t kh,
                         hi_vpc_bord_type border, uint32_t iterations) {
  hi_blur_param p{};
  p.src = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
  p.dst = vpc_pic(dst, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
  p.blur_cfg.kernel_size = {kw, kh};
  p.blur_cfg.morph_shapes = MORPH_RECT;
  p.blur_cfg.anchor = {-1, -1};
  p.blur_cfg.iterations = iterations;
  p.blur_cfg.border_type = border;
  p.blur_cfg.scalar_value = {{10.2, 200.0, 99.0, 0.0}};
  return p;
}

TEST_P(Mpi, ErodeDilateAndBlurAreTheMinMaxAndMeanOfEachWindow) {
  VpcChannel ch(7);
  const int fill[3] = {10, 200, 99};  // scalar_value rounded
  for (const FilterPicture &f : kFilterPictures) {
    std::vector<uint8_t> src_bytes = dvt::nv_noise(f.ws(), f.hs, 41);
    src_bytes.resize(f.size());
    void *src = dvpp_buffer(f.size(), src_bytes);
    void *dst = dvpp_buffer(f.size(), std::vector<uint8_t>(f.size(), 0));
    hi_u32 task = 0;
    hi_blur_param p = blur_param(src, dst, f, 3, 5, HI_BORDER_REPLICATE, 2);
    ASSERT_EQ(hi_mpi_vpc_erode(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
    ch.finish(task);
    EXPECT_EQ(read_back(dst, f.size()), f.reference(src_bytes, Op::min, 3, 5, nullptr, 2))
        << "erode, format " << f.format;
    p = blur_param(src, dst, f, 5, 3, HI_BORDER_CONSTANT, 1);
    ASSERT_EQ(hi_mpi_vpc_dilate(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
    ch.finish(task);
    EXPECT_EQ(read_back(dst, f.size()), f.reference(src_bytes, Op::max, 5, 3, fill))
        << "dilate, format " << f.format;
    p = blur_param(src, dst, f, 5, 5, HI_BORDER_CONSTANT, 1);
    ASSERT_EQ(hi_mpi_vpc_blur(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
    ch.finish(task);
    EXPECT_EQ(read_back(dst, f.size()), f.reference(src_bytes, Op::mean, 5, 5, fill))
        << "blur, format " << f.format;
    // In place: the same bytes as into another buffer (the padding untouched).
    p = blur_param(src, src, f, 3, 3, HI_BORDER_REPLICATE, 1);
    ASSERT_EQ(hi_mpi_vpc_blur(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
    ch.finish(task);
    EXPECT_EQ(read_back(src, f.size()),
              f.reference(src_bytes, Op::mean, 3, 3, nullptr, 1, /*in_place=*/true))
        << "blur in place, format " << f.format;
  }
}

TEST_P(Mpi, Filter2dCorrelatesWithTheCentreOfTheKernelArray) {
  VpcChannel ch(9);
  const int fill[3] = {10, 200, 99};
  struct Kernel {
    uint32_t kw, kh;
    std::vector<double> weights;  // rows of kw
    double delta;
    hi_vpc_bord_type border;
  };
  // A sharpening cross (results past 0 and 255: saturated) and an asymmetric 5 x 1 row.
  const Kernel kernels[] = {{3, 3, {0, -1, 0.5, -1, 5, -1, 0, -1, 0}, 0.4, HI_BORDER_CONSTANT},
                            {5, 1, {0.1, 0.2, 0.4, 0.3, -0.1}, -3.5, HI_BORDER_REPLICATE}};
  for (const FilterPicture &f : kFilterPictures) {
    std::vector<uint8_t> src_bytes = dvt::nv_noise(f.ws(), f.hs, 51);
    src_bytes.resize(f.size());
    void *src = dvpp_buffer(f.size(), src_bytes);
    void *dst = dvpp_buffer(f.size(), std::vector<uint8_t>(f.size(), 0));
    for (const Kernel &k : kernels) {
      hi_filter_2d_param p{};
      p.src = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
      p.dst = vpc_pic(dst, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
      hi_filter_2d_config &c = p.filter_2d_cfg;
      for (auto &row : c.filter) std::fill(std::begin(row), std::end(row), 1000.0);  // unused
      for (uint32_t r = 0; r < k.kh; ++r)
        for (uint32_t col = 0; col < k.kw; ++col)
          c.filter[2 - k.kh / 2 + r][2 - k.kw / 2 + col] = k.weights[r * k.kw + col];
      c.kernel_size = {k.kw, k.kh};
      c.anchor = {-1, -1};
      c.delta = k.delta;
      c.border_type = k.border;
      c.scalar_value = {{10.0, 200.0, 99.0, 0.0}};
      hi_u32 task = 0;
      ASSERT_EQ(hi_mpi_vpc_filter2d(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
      ch.finish(task);
      const bool constant = k.border == HI_BORDER_CONSTANT;
      EXPECT_EQ(read_back(dst, f.size()),
                f.reference(src_bytes, Op::correlate, int(k.kw), int(k.kh),
                            constant ? fill : nullptr, 1, false, {k.weights.data(), k.delta}))
          << "format " << f.format << " kernel " << k.kw << "x" << k.kh;
    }
    hi_filter_2d_param p{};
    p.src = p.dst = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
    p.filter_2d_cfg.kernel_size = {3, 3};
    p.filter_2d_cfg.anchor = {-1, -1};
    p.filter_2d_cfg.border_type = HI_BORDER_REPLICATE;
    p.filter_2d_cfg.filter[1][2] = std::nan("");
    hi_u32 task = 0;
    EXPECT_EQ(hi_mpi_vpc_filter2d(ch.id, &p, &task, -1),
              static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
    EXPECT_NE(recent_msg().find("filter[1][2] is not finite"), std::string::npos) << recent_msg();
  }
}

TEST_P(Mpi, GaussianBlurIsFilter2dWithOpenCvsGaussianKernel) {
  VpcChannel ch(10);
  // Sampled exp(-x^2 / (2 sigma^2)), normalized (OpenCV's getGaussianKernel for sigma > 0).
  auto sampled = [](int n, double sigma) {
    std::vector<double> k(n);
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      const double x = i - (n - 1) * 0.5;
      sum += k[i] = std::exp(-x * x / (2 * sigma * sigma));
    }
    for (double &v : k) v /= sum;
    return k;
  };
  struct Case {
    uint32_t kw, kh;
    double sigma_x, sigma_y;
    std::vector<double> kx, ky;
  };
  // Sigma 0: OpenCV's fixed kernels; sigma_y 0: sigma_x's.
  const Case cases[] = {{3, 5, 0, 0, {0.25, 0.5, 0.25}, {0.0625, 0.25, 0.375, 0.25, 0.0625}},
                        {5, 3, 1.5, 0, sampled(5, 1.5), sampled(3, 1.5)}};
  const FilterPicture f = kFilterPictures[2];  // NV21: both planes
  std::vector<uint8_t> src_bytes = dvt::nv_noise(f.ws(), f.hs, 61);
  src_bytes.resize(f.size());
  void *src = dvpp_buffer(f.size(), src_bytes);
  void *dst = dvpp_buffer(f.size(), std::vector<uint8_t>(f.size(), 0));
  for (const Case &c : cases) {
    hi_gaussian_blur_param p{};
    p.src = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
    p.dst = vpc_pic(dst, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
    p.gaussian_blur_cfg.kernel_size = {c.kw, c.kh};
    p.gaussian_blur_cfg.sigma_x = c.sigma_x;
    p.gaussian_blur_cfg.sigma_y = c.sigma_y;
    p.gaussian_blur_cfg.border_type = HI_BORDER_REPLICATE;
    hi_u32 task = 0;
    ASSERT_EQ(hi_mpi_vpc_gaussian_blur(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
    ch.finish(task);
    std::vector<double> weights;
    for (double y : c.ky)
      for (double x : c.kx) weights.push_back(y * x);
    EXPECT_EQ(read_back(dst, f.size()), f.reference(src_bytes, Op::correlate, int(c.kw), int(c.kh),
                                                    nullptr, 1, false, {weights.data(), 0}))
        << "kernel " << c.kw << "x" << c.kh << " sigma " << c.sigma_x;
  }
  hi_gaussian_blur_param p{};
  p.src = p.dst = vpc_pic(src, f.size(), f.format, f.w, f.h, f.ws(), f.hs);
  p.gaussian_blur_cfg.kernel_size = {3, 3};
  p.gaussian_blur_cfg.sigma_x = std::nan("");
  p.gaussian_blur_cfg.border_type = HI_BORDER_REPLICATE;
  hi_u32 task = 0;
  EXPECT_EQ(hi_mpi_vpc_gaussian_blur(ch.id, &p, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("must be finite"), std::string::npos) << recent_msg();
}

TEST_P(Mpi, ErodeDilateAndBlurRefuseWhatCannDoesNotTake) {
  VpcChannel ch(8);
  const FilterPicture f = kFilterPictures[0];
  void *grey = dvpp_buffer(f.size());
  hi_u32 task = 0;
  auto expect = [&](hi_blur_param p, hi_u32 code, const char *why) {
    EXPECT_EQ(hi_mpi_vpc_erode(ch.id, &p, &task, -1), static_cast<hi_s32>(code)) << why;
    EXPECT_NE(recent_msg().find(why), std::string::npos) << recent_msg();
  };
  const hi_blur_param ok = blur_param(grey, grey, f, 3, 3, HI_BORDER_REPLICATE, 1);
  hi_blur_param p = ok;
  p.blur_cfg.kernel_size = {4, 3};
  expect(p, HI_ERR_VPC_ILLEGAL_PARAM, "width and height must be 1, 3 or 5");
  p = ok;
  p.blur_cfg.morph_shapes = MORPH_CROSS;
  expect(p, HI_ERR_VPC_NOT_SUPPORT, "only MORPH_RECT");
  p = ok;
  p.blur_cfg.anchor = {0, 0};
  expect(p, HI_ERR_VPC_ILLEGAL_PARAM, "must be (-1, -1)");
  p = ok;
  p.blur_cfg.iterations = 101;
  expect(p, HI_ERR_VPC_ILLEGAL_PARAM, "iterations 101 is outside 1..100");
  p = ok;
  p.blur_cfg.border_type = HI_BORDER_REFLECT;
  expect(p, HI_ERR_VPC_NOT_SUPPORT, "only HI_BORDER_CONSTANT and HI_BORDER_REPLICATE");
  p = ok;
  p.blur_cfg.iterations = 2;  // erode takes it, blur does not
  EXPECT_EQ(hi_mpi_vpc_blur(ch.id, &p, &task, -1), static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("iterations 2 is outside 1..1"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_vpc_dilate(ch.id, nullptr, &task, -1), static_cast<hi_s32>(HI_ERR_VPC_NULL_PTR));
}

TEST_P(Mpi, MedianBlurRefusesOtherKernelsSizesAndFormats) {
  VpcChannel ch(6);
  void *grey = dvpp_buffer(32 * 20);
  hi_median_blur_param p{};
  p.src = vpc_pic(grey, 32 * 20, HI_PIXEL_FORMAT_YUV_400, 30, 20, 32, 20);
  p.dst = p.src;
  p.median_blur_cfg.kernel_size = 7;
  hi_u32 task = 0;
  EXPECT_EQ(hi_mpi_vpc_median_blur(ch.id, &p, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("kernel_size 7 is not 1, 3 or 5"), std::string::npos) << recent_msg();
  p.median_blur_cfg.kernel_size = 3;
  p.dst.picture_width = 28;
  EXPECT_EQ(hi_mpi_vpc_median_blur(ch.id, &p, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("source's format and size"), std::string::npos) << recent_msg();
  p.dst = p.src;
  p.src.picture_format = p.dst.picture_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_422;
  EXPECT_EQ(hi_mpi_vpc_median_blur(ch.id, &p, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  EXPECT_EQ(hi_mpi_vpc_median_blur(ch.id, nullptr, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NULL_PTR));
}

TEST_P(Mpi, RotateTurnsThePictureClockwise) {
  VpcChannel ch(4);
  struct Format {
    hi_pixel_format format;
    uint32_t bpp;
  };
  for (const Format f : {Format{HI_PIXEL_FORMAT_RGB_888, 3}, Format{HI_PIXEL_FORMAT_YUV_400, 1}}) {
    const uint32_t w = 30, h = 20, ws = (w * f.bpp + 15) / 16 * 16, size = ws * h;
    std::vector<uint8_t> src_bytes = dvt::nv_noise(ws, h, 21);
    src_bytes.resize(size);
    void *src = dvpp_buffer(size, src_bytes);
    for (hi_rotation angle : {HI_ROTATION_90, HI_ROTATION_180, HI_ROTATION_270}) {
      const bool swap = angle != HI_ROTATION_180;
      const uint32_t dw = swap ? h : w, dh = swap ? w : h, dws = (dw * f.bpp + 15) / 16 * 16;
      void *dst = dvpp_buffer(dws * dh, std::vector<uint8_t>(dws * dh, 0));
      hi_rotate_param p{};
      p.src = vpc_pic(src, size, f.format, w, h, ws, h);
      p.dst = vpc_pic(dst, dws * dh, f.format, dw, dh, dws, dh);
      p.angle = angle;
      hi_u32 task = 0;
      ASSERT_EQ(hi_mpi_vpc_rotate(ch.id, &p, &task, -1), HI_SUCCESS) << recent_msg();
      ch.finish(task);
      // Where each source pixel goes, turned clockwise.
      std::vector<uint8_t> want(dws * dh, 0);
      for (uint32_t sy = 0; sy < h; ++sy)
        for (uint32_t sx = 0; sx < w; ++sx) {
          uint32_t dx = w - 1 - sx, dy = h - 1 - sy;  // 180
          if (angle == HI_ROTATION_90) dx = h - 1 - sy, dy = sx;
          if (angle == HI_ROTATION_270) dx = sy, dy = w - 1 - sx;
          std::memcpy(&want[dy * dws + dx * f.bpp], &src_bytes[sy * ws + sx * f.bpp], f.bpp);
        }
      EXPECT_EQ(read_back(dst, dws * dh), want) << "format " << f.format << " angle " << angle;
    }
  }
  // NV12 and a destination of the wrong size are refused, with the reason.
  void *nv = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 22));
  hi_rotate_param p{};
  p.src = vpc_pic(nv, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  p.dst = p.src;
  p.angle = HI_ROTATION_180;
  hi_u32 task = 0;
  EXPECT_EQ(hi_mpi_vpc_rotate(ch.id, &p, &task, -1), static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  void *grey = dvpp_buffer(32 * 20);
  p.src = vpc_pic(grey, 32 * 20, HI_PIXEL_FORMAT_YUV_400, 30, 20, 32, 20);
  p.dst = p.src;
  p.angle = HI_ROTATION_90;
  EXPECT_EQ(hi_mpi_vpc_rotate(ch.id, &p, &task, -1), static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("the rotated picture is 20x30"), std::string::npos) << recent_msg();
}

TEST_P(Mpi, CropResizeMakeBorderIsTheResizedCropInsideTheBorder) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 10));
  void *out1 = dvpp_buffer(kOSize, std::vector<uint8_t>(kOSize, 0));
  void *out2 = dvpp_buffer(kOSize, std::vector<uint8_t>(kOSize, 0));
  // V1: the crop resized to 192x96 and pasted at (16, 16) of a 224x128 picture.
  ASSERT_NO_FATAL_FAILURE(v1_crop_resize_paste(in, out1, {0, 199, 0, 119}, {16, 207, 16, 111}));
  VpcChannel ch(1);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  hi_vpc_crop_resize_border_region r{};
  r.dest_pic_info = vpc_pic(out2, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
  r.crop_region = {0, 0, 200, 120};
  r.resize_info = {192, 96, 0};
  r.dest_top_offset = 16;
  r.dest_left_offset = 16;
  r.border_type = HI_BORDER_CONSTANT;
  r.scalar_value.val[0] = 50, r.scalar_value.val[1] = 60, r.scalar_value.val[2] = 70;
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_crop_resize_make_border(ch.id, &src, &r, 1, &task, -1), HI_SUCCESS)
      << recent_msg();
  ch.finish(task);
  auto a = read_back(out1, kOSize), b = read_back(out2, kOSize);
  for (uint32_t y = 0; y < kOh; ++y)
    for (uint32_t x = 0; x < kOw; ++x) {
      const bool inside = x >= 16 && x < 208 && y >= 16 && y < 112;
      ASSERT_EQ(b[y * kOw + x], inside ? a[y * kOw + x] : 50) << x << "," << y;
      if (y % 2 == 0 && x % 2 == 0) {
        const size_t uv = kOw * kOh + y / 2 * kOw + x;
        ASSERT_EQ(b[uv], inside ? a[uv] : 60) << x << "," << y;
        ASSERT_EQ(b[uv + 1], inside ? a[uv + 1] : 70) << x << "," << y;
      }
    }
}

TEST_P(Mpi, ConvertColorAndCopyMakeBorderGiveTheV1Bytes) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 11));
  VpcChannel ch(VPC_MAX_CHN_NUM - 1);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  // NV12 -> RGB888.
  const uint32_t rws = 912, rsize = rws * kH;  // 300 * 3 rounded up to 16
  void *rgb1 = dvpp_buffer(rsize, std::vector<uint8_t>(rsize, 0)),
       *rgb2 = dvpp_buffer(rsize, std::vector<uint8_t>(rsize, 0));
  ASSERT_EQ(acldvppVpcConvertColorAsync(
                channel_, pic(in, kSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs),
                pic(rgb1, rsize, PIXEL_FORMAT_RGB_888, kW, kH, rws, kH), stream_),
            ACL_SUCCESS)
      << recent_msg();
  hi_vpc_pic_info rgb = vpc_pic(rgb2, rsize, HI_PIXEL_FORMAT_RGB_888, kW, kH, rws, kH);
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_convert_color(ch.id, &src, &rgb, &task, -1), HI_SUCCESS) << recent_msg();
  // Border: 8 on each side, REFLECT_101.
  const uint32_t bw = kW + 16, bh = kH + 16, bws = 320, bsize = bws * bh * 3 / 2;
  void *b1 = dvpp_buffer(bsize, std::vector<uint8_t>(bsize, 0)),
       *b2 = dvpp_buffer(bsize, std::vector<uint8_t>(bsize, 0));
  acldvppBorderConfig *bc = acldvppCreateBorderConfig();
  acldvppSetBorderConfigTop(bc, 8), acldvppSetBorderConfigBottom(bc, 8);
  acldvppSetBorderConfigLeft(bc, 8), acldvppSetBorderConfigRight(bc, 8);
  acldvppSetBorderConfigBorderType(bc, BORDER_REFLECT_101);
  ASSERT_EQ(acldvppVpcMakeBorderAsync(
                channel_, pic(in, kSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs),
                pic(b1, bsize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, bw, bh, bws, bh), bc, stream_),
            ACL_SUCCESS)
      << recent_msg();
  sync();
  acldvppDestroyBorderConfig(bc);
  hi_vpc_pic_info bordered =
      vpc_pic(b2, bsize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, bw, bh, bws, bh);
  hi_vpc_make_border_info info{};
  info.top = info.bottom = info.left = info.right = 8;
  info.border_type = HI_BORDER_REFLECT_101;
  hi_u32 task2 = 0;
  ASSERT_EQ(hi_mpi_vpc_copy_make_border(ch.id, &src, &bordered, info, &task2, -1), HI_SUCCESS)
      << recent_msg();
  EXPECT_NE(task, task2);
  ch.finish(task2);  // in any order
  ch.finish(task);
  EXPECT_EQ(read_back(rgb1, rsize), read_back(rgb2, rsize));
  EXPECT_EQ(read_back(b1, bsize), read_back(b2, bsize));
  // A result is taken once.
  EXPECT_EQ(hi_mpi_vpc_get_process_result(ch.id, task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("no task"), std::string::npos) << recent_msg();
}

// A VDEC channel of type JPEG for one test.
struct JpegdChannel {
  explicit JpegdChannel(hi_vdec_chn id) : id(id) {
    hi_vdec_chn_attr attr{};
    attr.type = HI_PT_JPEG;
    attr.mode = HI_VDEC_SEND_MODE_FRAME;
    attr.pic_width = attr.pic_height = 8192;
    EXPECT_EQ(hi_mpi_vdec_create_chn(id, &attr), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(hi_mpi_vdec_start_recv_stream(id), HI_SUCCESS) << recent_msg();
  }
  ~JpegdChannel() {
    EXPECT_EQ(hi_mpi_vdec_stop_recv_stream(id), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(hi_mpi_vdec_destroy_chn(id), HI_SUCCESS) << recent_msg();
  }
  hi_vdec_chn id;
};

TEST_P(Mpi, JpegdGivesTheV1PictureAndReportsItsLayout) {
  const std::vector<uint8_t> jpeg = dvt::make_jpeg(333, 250, 2, 2);  // odd width: rounded down
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  hi_vdec_stream s{};
  s.addr = static_cast<hi_u8 *>(in);
  s.len = static_cast<hi_u32>(jpeg.size());
  s.pts = 42;
  s.end_of_frame = HI_TRUE;
  hi_img_info info{};
  ASSERT_EQ(hi_mpi_dvpp_get_image_info(HI_PT_JPEG, &s, &info), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(info.width, 333u);
  EXPECT_EQ(info.height, 250u);
  EXPECT_EQ(info.width_stride, 384u);
  EXPECT_EQ(info.height_stride, 256u);
  EXPECT_EQ(info.img_buf_size, 384u * 256 * 3 / 2);
  EXPECT_EQ(info.pixel_format, HI_JPEG_RAW_FORMAT_YUV420);
  // Newer CANN's form: the same for the output formats JPEGD writes.
  for (hi_pixel_format f : {HI_PIXEL_FORMAT_UNKNOWN, HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420}) {
    hi_img_info out{};
    ASSERT_EQ(hi_mpi_vdec_get_jpegd_output_info(&s, f, &out), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(std::memcmp(&out, &info, sizeof out), 0) << "format " << f;
  }
  EXPECT_EQ(hi_mpi_vdec_get_jpegd_output_info(&s, HI_PIXEL_FORMAT_RGB_888, &info),
            static_cast<hi_s32>(HI_ERR_VDEC_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("YUV420SP or YVU420SP, not PIXEL_FORMAT_RGB_888"), std::string::npos)
      << recent_msg();

  for (hi_pixel_format f :
       {HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420}) {
    void *out1 = dvpp_buffer(info.img_buf_size, std::vector<uint8_t>(info.img_buf_size, 0));
    void *out2 = dvpp_buffer(info.img_buf_size, std::vector<uint8_t>(info.img_buf_size, 0));
    acldvppPicDesc *d =
        pic(out1, info.img_buf_size, static_cast<acldvppPixelFormat>(f), 0, 0, 0, 0);
    ASSERT_EQ(acldvppJpegDecodeAsync(channel_, in, jpeg.size(), d, stream_), ACL_SUCCESS)
        << recent_msg();
    sync();
    JpegdChannel ch(5);
    hi_vdec_pic_info out{};
    out.width = info.width, out.height = info.height;
    out.width_stride = info.width_stride, out.height_stride = info.height_stride;
    out.buffer_size = info.img_buf_size;
    out.pixel_format = f;
    out.vir_addr = reinterpret_cast<hi_u64>(out2);
    ASSERT_EQ(hi_mpi_vdec_send_stream(ch.id, &s, &out, -1), HI_SUCCESS) << recent_msg();
    hi_vdec_chn_status status{};
    ASSERT_EQ(hi_mpi_vdec_query_status(ch.id, &status), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(status.recv_stream_frames, 1u);
    EXPECT_EQ(status.left_stream_frames + status.left_decoded_frames, 1u);  // queued or decoded
    hi_video_frame_info frame{};
    hi_vdec_supplement_info sup{};
    hi_vdec_stream back{};
    ASSERT_EQ(hi_mpi_vdec_get_frame(ch.id, &frame, &sup, &back, -1), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(frame.v_frame.frame_flag, 0u);
    EXPECT_EQ(frame.v_frame.width, 332u);
    EXPECT_EQ(frame.v_frame.height, 250u);
    EXPECT_EQ(frame.v_frame.pixel_format, f);
    EXPECT_EQ(frame.v_frame.width_stride[0], 384u);
    EXPECT_EQ(frame.v_frame.height_stride[0], 256u);
    EXPECT_EQ(frame.v_frame.virt_addr[0], out2);
    EXPECT_EQ(frame.v_frame.virt_addr[1], static_cast<uint8_t *>(out2) + 384 * 256);
    EXPECT_EQ(frame.v_frame.pts, 42u);
    EXPECT_EQ(back.addr, s.addr);
    auto a = read_back(out1, info.img_buf_size), b = read_back(out2, info.img_buf_size);
    EXPECT_EQ(a, b);
    uint32_t rw, rh;
    EXPECT_EQ(b, dvt::reference_nv12(jpeg, f == HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420, &rw, &rh));
    EXPECT_EQ(hi_mpi_vdec_release_frame(ch.id, &frame), HI_SUCCESS);
    ASSERT_EQ(hi_mpi_vdec_query_status(ch.id, &status), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(status.left_stream_frames + status.left_decoded_frames, 0u);
  }
  hi_pic_buf_attr attr{
      333, 250, 0, HI_DATA_BIT_WIDTH_8, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, HI_COMPRESS_MODE_NONE};
  EXPECT_EQ(hi_vdec_get_pic_buf_size(HI_PT_JPEG, &attr), info.img_buf_size);
  EXPECT_EQ(hi_vdec_get_pic_buf_size(HI_PT_H264, &attr), 336u * 250 * 3 / 2);  // strides 16 and 2
  EXPECT_EQ(hi_vdec_get_pic_buf_size(HI_PT_PNG, &attr), 0u);
}

// CANN's PIXEL_FORMAT_UNKNOWN (jpegd_sample's --whole_dir mode) decodes to the source's own
// format; the channel may also name that format (either chroma order), but no other.
TEST_P(Mpi, JpegdWritesTheSourcesOwnFormat) {
  struct Case {
    int h_samp, v_samp, components;
    hi_pixel_format format;
    uint32_t h_sub, v_sub;
  };
  for (Case c : {Case{2, 1, 3, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_422, 2, 1},
                 Case{1, 1, 3, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_444, 1, 1},
                 Case{1, 2, 3, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_440, 1, 2},
                 Case{1, 1, 1, HI_PIXEL_FORMAT_YUV_400, 1, 1}}) {
    SCOPED_TRACE(c.format);
    const std::vector<uint8_t> jpeg = dvt::make_jpeg(150, 70, c.h_samp, c.v_samp, c.components);
    void *in = dvpp_buffer(jpeg.size(), jpeg);
    hi_vdec_stream s{};
    s.addr = static_cast<hi_u8 *>(in);
    s.len = static_cast<hi_u32>(jpeg.size());
    hi_img_info info{};
    ASSERT_EQ(hi_mpi_dvpp_get_image_info(HI_PT_JPEG, &s, &info), HI_SUCCESS) << recent_msg();
    const size_t plane = 256 * 80;  // strides 128 and 16
    const size_t size = c.components == 1 ? plane : plane + plane * 2 / (c.h_sub * c.v_sub);
    EXPECT_EQ(info.img_buf_size, size);
    hi_img_info named{};
    ASSERT_EQ(hi_mpi_vdec_get_jpegd_output_info(&s, c.format, &named), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(named.img_buf_size, size);
    JpegdChannel ch(6);
    void *out = dvpp_buffer(size, std::vector<uint8_t>(size, 0));
    hi_vdec_pic_info pic{};
    pic.width = info.width, pic.height = info.height;
    pic.buffer_size = info.img_buf_size;
    pic.pixel_format = HI_PIXEL_FORMAT_UNKNOWN;
    pic.vir_addr = reinterpret_cast<hi_u64>(out);
    ASSERT_EQ(hi_mpi_vdec_send_stream(ch.id, &s, &pic, -1), HI_SUCCESS) << recent_msg();
    hi_video_frame_info frame{};
    hi_vdec_supplement_info sup{};
    hi_vdec_stream back{};
    ASSERT_EQ(hi_mpi_vdec_get_frame(ch.id, &frame, &sup, &back, -1), HI_SUCCESS) << recent_msg();
    EXPECT_EQ(frame.v_frame.frame_flag, 0u);
    EXPECT_EQ(frame.v_frame.pixel_format, c.format);
    EXPECT_EQ(frame.v_frame.width_stride[0], 256u);
    if (c.components == 3) {
      EXPECT_EQ(frame.v_frame.width_stride[1], 256u * 2 / c.h_sub);
      EXPECT_EQ(frame.v_frame.virt_addr[1], static_cast<uint8_t *>(out) + plane);
    }
    EXPECT_EQ(read_back(out, size), dvt::reference_native(jpeg, c.h_sub, c.v_sub, 256, 80));
    EXPECT_EQ(hi_mpi_vdec_release_frame(ch.id, &frame), HI_SUCCESS);
  }
  // A 4:2:2 picture is not written as 4:4:4.
  const std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 32, 2, 1);
  hi_vdec_stream s{};
  s.addr = static_cast<hi_u8 *>(dvpp_buffer(jpeg.size(), jpeg));
  s.len = static_cast<hi_u32>(jpeg.size());
  hi_img_info info{};
  EXPECT_EQ(hi_mpi_vdec_get_jpegd_output_info(&s, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_444, &info),
            static_cast<hi_s32>(HI_ERR_VDEC_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("or as its own PIXEL_FORMAT_YUV_SEMIPLANAR_422"), std::string::npos)
      << recent_msg();
}

TEST_P(Mpi, JpegdReportsACorruptStreamInTheFrame) {
  // A Huffman table with three 1-bit codes (the counts still add up, so the header reads
  // well): libjpeg-turbo refuses it when the decode starts ("Bogus Huffman table"), where a
  // cut scan would only warn.
  std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 64, 2, 2);
  size_t dht = 0;
  while (dht + 21 < jpeg.size() && !(jpeg[dht] == 0xFF && jpeg[dht + 1] == 0xC4)) ++dht;
  ASSERT_LT(dht + 21, jpeg.size());
  uint8_t *bits = &jpeg[dht + 4];  // bits[k]: the number of codes of k bits
  size_t k = 2;
  while (k <= 16 && bits[k] < 3) ++k;
  ASSERT_LE(k, 16u);
  bits[k] -= 3;
  bits[1] += 3;
  void *in = dvpp_buffer(jpeg.size(), jpeg);
  const uint32_t size = 128 * 64 * 3 / 2;
  void *out = dvpp_buffer(size);
  JpegdChannel ch(6);
  hi_vdec_stream s{};
  s.addr = static_cast<hi_u8 *>(in);
  s.len = static_cast<hi_u32>(jpeg.size());
  hi_vdec_pic_info pic{};
  pic.width_stride = 128, pic.height_stride = 64, pic.buffer_size = size;
  pic.pixel_format = HI_PIXEL_FORMAT_UNKNOWN;  // the source's: NV12
  pic.vir_addr = reinterpret_cast<hi_u64>(out);
  ASSERT_EQ(hi_mpi_vdec_send_stream(ch.id, &s, &pic, -1), HI_SUCCESS) << recent_msg();
  hi_video_frame_info frame{};
  hi_vdec_stream back{};
  ASSERT_EQ(hi_mpi_vdec_get_frame(ch.id, &frame, nullptr, &back, -1), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(frame.v_frame.frame_flag, 1u);
  EXPECT_EQ(frame.v_frame.pixel_format, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  EXPECT_NE(recent_msg().find("corrupt"), std::string::npos) << recent_msg();
  // Nothing left.
  EXPECT_EQ(hi_mpi_vdec_get_frame(ch.id, &frame, nullptr, &back, 0),
            static_cast<hi_s32>(HI_ERR_VDEC_BUF_EMPTY));
}

// A stream with B-frames: get_frame gives the pictures in display order (the default out_order),
// each in the buffer its own frame's send named, with that frame's stream description and pts,
// equal to libavcodec's own decode; the end of stream gives out what the decoder held.
TEST_P(Mpi, VdecGivesAReorderedStreamInDisplayOrder) {
  for (bool hevc : {false, true}) {
    std::vector<int64_t> pts;
    const std::vector<std::vector<uint8_t>> packets = dvt::encode_video(hevc, 2, &pts);
    if (packets.empty()) continue;  // libavcodec without that encoder (vdec_test says so)
    ASSERT_FALSE(std::is_sorted(pts.begin(), pts.end())) << "the encoder made no B-frames";
    const std::vector<dvt::DecodedPicture> expected = dvt::reference_decode(hevc, packets);
    ASSERT_EQ(expected.size(), packets.size());
    const uint32_t size = dvt::kVideoW * dvt::kVideoH * 3 / 2;
    hi_vdec_chn_attr attr{};
    attr.type = hevc ? HI_PT_H265 : HI_PT_H264;
    attr.mode = HI_VDEC_SEND_MODE_FRAME;
    ASSERT_EQ(hi_mpi_vdec_create_chn(11, &attr), HI_SUCCESS) << recent_msg();
    hi_vdec_chn_param param{};
    ASSERT_EQ(hi_mpi_vdec_get_chn_param(11, &param), HI_SUCCESS);
    EXPECT_EQ(param.video_param.out_order, HI_VIDEO_OUT_ORDER_DISPLAY);
    param.video_param.out_order = HI_VIDEO_OUT_ORDER_BUTT;
    EXPECT_EQ(hi_mpi_vdec_set_chn_param(11, &param),
              static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM));
    EXPECT_NE(recent_msg().find("out_order"), std::string::npos) << recent_msg();
    ASSERT_EQ(hi_mpi_vdec_start_recv_stream(11), HI_SUCCESS);
    std::vector<void *> outs;
    for (size_t i = 0; i < packets.size(); ++i) {
      hi_vdec_stream s{};
      s.addr = static_cast<hi_u8 *>(dvpp_buffer(packets[i].size(), packets[i]));
      s.len = static_cast<hi_u32>(packets[i].size());
      s.pts = 100 + i;
      s.end_of_frame = HI_TRUE;
      hi_vdec_pic_info pic{};
      pic.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
      pic.vir_addr = reinterpret_cast<hi_u64>(outs.emplace_back(dvpp_buffer(size)));
      pic.buffer_size = size;
      ASSERT_EQ(hi_mpi_vdec_send_stream(11, &s, &pic, -1), HI_SUCCESS) << recent_msg();
    }
    param.video_param.out_order = HI_VIDEO_OUT_ORDER_DEC;  // too late: frames were sent
    EXPECT_EQ(hi_mpi_vdec_set_chn_param(11, &param), static_cast<hi_s32>(HI_ERR_VDEC_NOT_PERM));
    hi_vdec_stream eos{};
    eos.end_of_stream = HI_TRUE;
    hi_vdec_pic_info none{};
    ASSERT_EQ(hi_mpi_vdec_send_stream(11, &eos, &none, -1), HI_SUCCESS) << recent_msg();
    for (size_t k = 0; k < packets.size(); ++k) {
      const int64_t sent = expected[k].pts;
      EXPECT_EQ(pts[sent], static_cast<int64_t>(k));  // libavcodec's is display order
      hi_video_frame_info frame{};
      hi_vdec_stream back{};
      ASSERT_EQ(hi_mpi_vdec_get_frame(11, &frame, nullptr, &back, -1), HI_SUCCESS) << recent_msg();
      EXPECT_EQ(frame.v_frame.frame_flag, 0u) << recent_msg();
      EXPECT_EQ(frame.v_frame.pts, static_cast<hi_u64>(100 + sent)) << "picture " << k;
      EXPECT_EQ(back.pts, static_cast<hi_u64>(100 + sent)) << "picture " << k;
      EXPECT_EQ(back.len, packets[sent].size()) << "picture " << k;
      EXPECT_EQ(frame.v_frame.virt_addr[0], outs[sent]) << "picture " << k;
      EXPECT_EQ(read_back(outs[sent], size), expected[k].nv12)
          << "picture " << k << (hevc ? " H.265" : " H.264");
    }
    hi_vdec_chn_status status{};
    ASSERT_EQ(hi_mpi_vdec_query_status(11, &status), HI_SUCCESS);
    EXPECT_EQ(status.recv_stream_frames, packets.size());
    EXPECT_EQ(status.dec_stream_frames, packets.size());
    EXPECT_EQ(status.left_decoded_frames, 0u);
    ASSERT_EQ(hi_mpi_vdec_stop_recv_stream(11), HI_SUCCESS);
    ASSERT_EQ(hi_mpi_vdec_destroy_chn(11), HI_SUCCESS);
  }
}

TEST_P(Mpi, VdecDecodesH264AndH265ToTheEncodersFrames) {
  for (bool hevc : {false, true}) {
    const std::vector<std::vector<uint8_t>> packets = dvt::encode_video(hevc);
    if (packets.empty()) continue;  // libavcodec without that encoder (vdec_test says so)
    ASSERT_EQ(packets.size(), size_t{dvt::kVideoFrames});
    const uint32_t w = dvt::kVideoW, h = dvt::kVideoH;
    hi_vdec_chn_attr attr{};
    attr.type = hevc ? HI_PT_H265 : HI_PT_H264;
    attr.mode = HI_VDEC_SEND_MODE_FRAME;
    attr.pic_width = w, attr.pic_height = h;
    ASSERT_EQ(hi_mpi_vdec_create_chn(10, &attr), HI_SUCCESS) << recent_msg();
    // Decoding order, which CANN takes for streams without B-frames: each picture at once.
    hi_vdec_chn_param param{};
    ASSERT_EQ(hi_mpi_vdec_get_chn_param(10, &param), HI_SUCCESS);
    param.video_param.out_order = HI_VIDEO_OUT_ORDER_DEC;
    ASSERT_EQ(hi_mpi_vdec_set_chn_param(10, &param), HI_SUCCESS) << recent_msg();
    ASSERT_EQ(hi_mpi_vdec_start_recv_stream(10), HI_SUCCESS);
    hi_pic_buf_attr buf{
        w, h, 0, HI_DATA_BIT_WIDTH_8, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, HI_COMPRESS_MODE_NONE};
    const uint32_t size = hi_vdec_get_pic_buf_size(attr.type, &buf);
    ASSERT_EQ(size, w * h * 3 / 2);
    std::vector<void *> outs;
    for (int i = 0; i < dvt::kVideoFrames; ++i) {
      void *in = dvpp_buffer(packets[i].size(), packets[i]);
      outs.push_back(dvpp_buffer(size));
      hi_vdec_stream s{};
      s.addr = static_cast<hi_u8 *>(in);
      s.len = static_cast<hi_u32>(packets[i].size());
      s.pts = static_cast<hi_u64>(100 + i);
      s.end_of_frame = HI_TRUE;
      s.need_display = HI_TRUE;
      hi_vdec_pic_info pic{};  // size and strides 0: the frame's
      pic.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
      pic.vir_addr = reinterpret_cast<hi_u64>(outs.back());
      pic.buffer_size = size;
      ASSERT_EQ(hi_mpi_vdec_send_stream(10, &s, &pic, -1), HI_SUCCESS) << recent_msg();
    }
    hi_vdec_stream eos{};
    eos.end_of_stream = HI_TRUE;
    hi_vdec_pic_info none{};
    ASSERT_EQ(hi_mpi_vdec_send_stream(10, &eos, &none, -1), HI_SUCCESS) << recent_msg();
    for (int i = 0; i < dvt::kVideoFrames; ++i) {
      hi_video_frame_info frame{};
      hi_vdec_stream back{};
      ASSERT_EQ(hi_mpi_vdec_get_frame(10, &frame, nullptr, &back, -1), HI_SUCCESS) << recent_msg();
      EXPECT_EQ(frame.v_frame.frame_flag, 0u) << recent_msg();
      EXPECT_EQ(frame.v_frame.width, w);
      EXPECT_EQ(frame.v_frame.height, h);
      EXPECT_EQ(frame.v_frame.width_stride[0], w);
      EXPECT_EQ(frame.v_frame.pts, static_cast<hi_u64>(100 + i));
      EXPECT_EQ(frame.v_frame.virt_addr[0], outs[i]);
      EXPECT_EQ(read_back(outs[i], size), dvt::frame_nv12(i))
          << "frame " << i << (hevc ? " H.265" : " H.264");
      EXPECT_EQ(hi_mpi_vdec_release_frame(10, &frame), HI_SUCCESS);
    }
    hi_video_frame_info frame{};
    hi_vdec_stream back{};
    EXPECT_EQ(hi_mpi_vdec_get_frame(10, &frame, nullptr, &back, 0),
              static_cast<hi_s32>(HI_ERR_VDEC_BUF_EMPTY));  // the end of stream gives no frame
    EXPECT_EQ(hi_mpi_vdec_reset_chn(10), static_cast<hi_s32>(HI_ERR_VDEC_NOT_PERM));
    ASSERT_EQ(hi_mpi_vdec_stop_recv_stream(10), HI_SUCCESS);
    EXPECT_EQ(hi_mpi_vdec_reset_chn(10), HI_SUCCESS) << recent_msg();
    // VDEC's scaler and RGB output (the vdec_sample readme's lines): frame 0 at 40x30 NV12,
    // then at its own size as RGB888, against the test's references of VPC's bilinear rule and
    // of BT.601 full range.
    ASSERT_EQ(hi_mpi_vdec_start_recv_stream(10), HI_SUCCESS);
    void *in = dvpp_buffer(packets[0].size(), packets[0]);
    hi_vdec_stream s{};
    s.addr = static_cast<hi_u8 *>(in);
    s.len = static_cast<hi_u32>(packets[0].size());
    const uint32_t sw = 40, sh = 30, sws = 48, rgb_size = w * 3 * h;
    hi_vdec_pic_info scaled{};
    scaled.width = sw, scaled.height = sh;  // strides 0: 48 (16-aligned) and 30
    scaled.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    scaled.buffer_size = sws * sh * 3 / 2;
    // Zeros, as the reference has in the stride padding, which VDEC does not write.
    void *scaled_out = dvpp_buffer(scaled.buffer_size, std::vector<uint8_t>(scaled.buffer_size, 0));
    scaled.vir_addr = reinterpret_cast<hi_u64>(scaled_out);
    ASSERT_EQ(hi_mpi_vdec_send_stream(10, &s, &scaled, -1), HI_SUCCESS) << recent_msg();
    void *rgb_out = dvpp_buffer(rgb_size);
    hi_vdec_pic_info rgb{};
    rgb.pixel_format = HI_PIXEL_FORMAT_RGB_888;  // strides 0: 96 * 3 and 64
    rgb.vir_addr = reinterpret_cast<hi_u64>(rgb_out);
    rgb.buffer_size = rgb_size;
    ASSERT_EQ(hi_mpi_vdec_send_stream(10, &s, &rgb, -1), HI_SUCCESS) << recent_msg();
    hi_vdec_pic_info too_small = scaled;
    too_small.width = 8;
    EXPECT_EQ(hi_mpi_vdec_send_stream(10, &s, &too_small, -1),
              static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM));
    EXPECT_NE(recent_msg().find("width 8"), std::string::npos) << recent_msg();

    ASSERT_EQ(hi_mpi_vdec_get_frame(10, &frame, nullptr, &back, -1), HI_SUCCESS);
    EXPECT_EQ(frame.v_frame.frame_flag, 0u) << recent_msg();
    EXPECT_EQ(frame.v_frame.width, sw);
    EXPECT_EQ(frame.v_frame.height, sh);
    EXPECT_EQ(frame.v_frame.width_stride[0], sws);
    const std::vector<uint8_t> want =
        dvt::reference_resize_nv12(dvt::frame_nv12(0), w, h, w, h, sw, sh, sws, sh);
    EXPECT_LE(dvt::max_diff(read_back(scaled_out, want.size()), want), 1);
    EXPECT_EQ(hi_mpi_vdec_release_frame(10, &frame), HI_SUCCESS);

    ASSERT_EQ(hi_mpi_vdec_get_frame(10, &frame, nullptr, &back, -1), HI_SUCCESS);
    EXPECT_EQ(frame.v_frame.frame_flag, 0u) << recent_msg();
    EXPECT_EQ(frame.v_frame.pixel_format, HI_PIXEL_FORMAT_RGB_888);
    EXPECT_EQ(frame.v_frame.width_stride[0], w * 3);
    EXPECT_EQ(frame.v_frame.virt_addr[1], nullptr);
    const std::vector<uint8_t> nv12 = dvt::frame_nv12(0), got = read_back(rgb_out, rgb_size);
    int worst = 0;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const double yy = nv12[y * w + x], u = nv12[w * h + y / 2 * w + x / 2 * 2] - 128.0,
                     v = nv12[w * h + y / 2 * w + x / 2 * 2 + 1] - 128.0;
        const double ref[3] = {yy + 1.402 * v, yy - 0.344136 * u - 0.714136 * v, yy + 1.772 * u};
        for (int k = 0; k < 3; ++k)
          worst = std::max(worst, std::abs(int(std::lround(std::clamp(ref[k], 0.0, 255.0))) -
                                           int(got[y * w * 3 + x * 3 + k])));
      }
    EXPECT_LE(worst, 1);
    EXPECT_EQ(hi_mpi_vdec_release_frame(10, &frame), HI_SUCCESS);
    EXPECT_EQ(hi_mpi_vdec_destroy_chn(10), HI_SUCCESS) << recent_msg();
  }
}

TEST_F(MpiCalls, ImageAlignInfoIsWhatEachUnitTakes) {
  hi_img_base_info nv12{};
  nv12.width = 333, nv12.height = 251;
  nv12.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  hi_img_align_info a{};
  const hi_module_type vpc_venc[] = {HI_MOD_VPC, HI_MOD_VENC};
  ASSERT_EQ(hi_mpi_sys_get_image_align_info(vpc_venc, 2, &nv12, &a), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(a.width_stride, 336u);
  EXPECT_EQ(a.height_stride, 252u);
  EXPECT_EQ(a.img_buf_size, 336u * 252 * 3 / 2);
  // With JPEGD among them its 128 / 16 win; HI_MOD_ALL takes every unit of the format.
  const hi_module_type with_jpegd[] = {HI_MOD_VPC, HI_MOD_JPEGD};
  ASSERT_EQ(hi_mpi_sys_get_image_align_info(with_jpegd, 2, &nv12, &a), HI_SUCCESS);
  EXPECT_EQ(a.width_stride, 384u);
  EXPECT_EQ(a.height_stride, 256u);
  const hi_module_type all[] = {HI_MOD_ALL};
  ASSERT_EQ(hi_mpi_sys_get_image_align_info(all, 1, &nv12, &a), HI_SUCCESS);
  EXPECT_EQ(a.width_stride, 384u);
  // RGB888: VPC's stride counts bytes; PNGD's is align(width, 128) * 3.
  hi_img_base_info rgb = nv12;
  rgb.pixel_format = HI_PIXEL_FORMAT_RGB_888;
  const hi_module_type vpc[] = {HI_MOD_VPC}, pngd[] = {HI_MOD_PNGD};
  ASSERT_EQ(hi_mpi_sys_get_image_align_info(vpc, 1, &rgb, &a), HI_SUCCESS);
  EXPECT_EQ(a.width_stride, 1008u);
  EXPECT_EQ(a.img_buf_size, 1008u * 252);
  ASSERT_EQ(hi_mpi_sys_get_image_align_info(pngd, 1, &rgb, &a), HI_SUCCESS);
  EXPECT_EQ(a.width_stride, 384u * 3);
  EXPECT_EQ(a.height_stride, 256u);
  EXPECT_EQ(hi_mpi_sys_get_image_align_info(vpc_venc, 2, &rgb, &a),
            static_cast<hi_s32>(HI_ERR_SYS_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("VENC"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_sys_get_image_align_info(vpc, 0, &nv12, &a),
            static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_sys_get_image_align_info(vpc, 1, nullptr, &a),
            static_cast<hi_s32>(HI_ERR_SYS_NULL_PTR));
}

TEST_P(Mpi, PngdGivesTheV1Picture) {
  const uint32_t w = 70, h = 40;
  std::vector<uint8_t> rgba(w * h * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>(i * 7 + i / 13);
  const std::vector<uint8_t> png = dvt::make_png(rgba, w, h, 4);
  void *in = dvpp_buffer(png.size(), png);
  hi_img_stream s{};
  s.type = HI_PT_PNG;
  s.addr = static_cast<hi_u8 *>(in);
  s.len = static_cast<hi_u32>(png.size());
  hi_img_info info{};
  ASSERT_EQ(hi_mpi_png_get_image_info(&s, &info), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(info.width, w);
  EXPECT_EQ(info.height, h);
  EXPECT_EQ(info.png_pixel_format, HI_PNG_COLOR_FORMAT_ARGB);
  EXPECT_EQ(info.width_stride, 128u * 4);
  EXPECT_EQ(info.height_stride, 48u);
  EXPECT_EQ(info.img_buf_size, 128u * 4 * 48);
  void *out1 = dvpp_buffer(info.img_buf_size, std::vector<uint8_t>(info.img_buf_size, 0));
  void *out2 = dvpp_buffer(info.img_buf_size, std::vector<uint8_t>(info.img_buf_size, 0));
  ASSERT_EQ(acldvppPngDecodeAsync(channel_, in, png.size(),
                                  pic(out1, info.img_buf_size, PIXEL_FORMAT_RGBA_8888, 0, 0, 0, 0),
                                  stream_),
            ACL_SUCCESS)
      << recent_msg();
  sync();
  hi_pngd_chn_attr attr{};
  ASSERT_EQ(hi_mpi_pngd_create_chn(2, &attr), HI_SUCCESS) << recent_msg();
  hi_pic_info p{};
  p.picture_address = out2;
  p.picture_buffer_size = info.img_buf_size;
  p.picture_width_stride = info.width_stride;
  p.picture_height_stride = info.height_stride;
  p.picture_format = HI_PIXEL_FORMAT_UNKNOWN;
  ASSERT_EQ(hi_mpi_pngd_send_stream(2, &s, &p, -1), HI_SUCCESS) << recent_msg();
  hi_pic_info got{};
  hi_img_stream back{};
  ASSERT_EQ(hi_mpi_pngd_get_image_data(2, &got, &back, -1), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(got.picture_format, HI_PIXEL_FORMAT_RGBA_8888);
  EXPECT_EQ(got.picture_width, w);
  EXPECT_EQ(got.picture_height, h);
  EXPECT_EQ(back.addr, s.addr);
  EXPECT_EQ(hi_mpi_pngd_destroy_chn(2), HI_SUCCESS) << recent_msg();
  auto a = read_back(out1, info.img_buf_size), b = read_back(out2, info.img_buf_size);
  EXPECT_EQ(a, b);
  for (uint32_t x = 0; x < w * 4; ++x) ASSERT_EQ(b[x], rgba[x]) << x;  // the first row as written
}

TEST_F(MpiCalls, GetWaitsForASendAndDestroyWakesItsWaiter) {
  std::vector<uint8_t> rgb(64 * 48 * 3, 90);
  const std::vector<uint8_t> png = dvt::make_png(rgb, 64, 48, 3);
  void *in = dvpp_buffer(png.size(), png);
  const uint32_t size = 128 * 3 * 48;
  void *out = dvpp_buffer(size);
  hi_pngd_chn_attr attr{};
  ASSERT_EQ(hi_mpi_pngd_create_chn(3, &attr), HI_SUCCESS) << recent_msg();
  hi_pic_info got{};
  hi_img_stream back{};
  hi_s32 rc = -1;
  std::thread taker(
      [&] { rc = hi_mpi_pngd_get_image_data(3, &got, &back, -1); });  // before any send
  hi_img_stream s{};
  s.addr = static_cast<hi_u8 *>(in);
  s.len = static_cast<hi_u32>(png.size());
  hi_pic_info p{};
  p.picture_address = out;
  p.picture_buffer_size = size;
  p.picture_width_stride = 128 * 3;
  p.picture_height_stride = 48;
  p.picture_format = HI_PIXEL_FORMAT_RGB_888;
  ASSERT_EQ(hi_mpi_pngd_send_stream(3, &s, &p, -1), HI_SUCCESS) << recent_msg();
  taker.join();
  EXPECT_EQ(rc, HI_SUCCESS);
  EXPECT_EQ(got.picture_address, out);
  EXPECT_EQ(read_back(out, 3), std::vector<uint8_t>(3, 90));
  EXPECT_EQ(hi_mpi_pngd_get_image_data(3, &got, &back, 0),
            static_cast<hi_s32>(HI_ERR_PNGD_BUF_EMPTY));
  // A waiter when the channel goes: woken with HI_ERR_PNGD_UNEXIST (or it finds it gone).
  std::thread waiter([&] { rc = hi_mpi_pngd_get_image_data(3, &got, &back, -1); });
  EXPECT_EQ(hi_mpi_pngd_destroy_chn(3), HI_SUCCESS) << recent_msg();
  waiter.join();
  EXPECT_EQ(rc, static_cast<hi_s32>(HI_ERR_PNGD_UNEXIST));
}

TEST_P(Mpi, JpegeGivesTheV1Jpeg) {
  const uint32_t w = 128, h = 96, size = w * h * 3 / 2;
  void *in = dvpp_buffer(size, dvt::nv_noise(w, h, 12));
  // V1 at level 85.
  uint32_t v1_size = 0;
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  ASSERT_EQ(acldvppSetJpegeConfigLevel(config, 85), ACL_SUCCESS);
  ASSERT_EQ(acldvppJpegPredictEncSize(pic(in, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h),
                                      config, &v1_size),
            ACL_SUCCESS)
      << recent_msg();
  void *v1_out = dvpp_buffer(v1_size);
  ASSERT_EQ(
      acldvppJpegEncodeAsync(channel_, pic(in, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, w, h),
                             v1_out, &v1_size, config, stream_),
      ACL_SUCCESS)
      << recent_msg();
  sync();
  acldvppDestroyJpegeConfig(config);

  hi_venc_chn_attr attr{};
  attr.venc_attr.type = HI_PT_JPEG;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = w;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = h;
  attr.venc_attr.buf_size = w * h * 2;
  attr.venc_attr.is_by_frame = HI_TRUE;
  ASSERT_EQ(hi_mpi_venc_create_chn(4, &attr), HI_SUCCESS) << recent_msg();
  hi_venc_start_param start{};
  start.recv_pic_num = -1;
  ASSERT_EQ(hi_mpi_venc_start_chn(4, &start), HI_SUCCESS) << recent_msg();
  hi_venc_jpeg_param param{};
  ASSERT_EQ(hi_mpi_venc_get_jpeg_param(4, &param), HI_SUCCESS) << recent_msg();
  param.qfactor = 85;
  ASSERT_EQ(hi_mpi_venc_set_jpeg_param(4, &param), HI_SUCCESS) << recent_msg();
  hi_video_frame_info frame{};
  frame.v_frame.width = w;
  frame.v_frame.height = h;
  frame.v_frame.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  frame.v_frame.width_stride[0] = frame.v_frame.width_stride[1] = w;
  frame.v_frame.virt_addr[0] = in;
  frame.v_frame.virt_addr[1] =
      static_cast<uint8_t *>(in) + w * h;  // height_stride[0] left 0, as samples do
  frame.v_frame.pts = 7;
  hi_u32 predicted = 0;
  ASSERT_EQ(hi_mpi_venc_get_jpege_predicted_size(&frame, &param, &predicted), HI_SUCCESS)
      << recent_msg();
  EXPECT_GE(predicted, v1_size);
  ASSERT_EQ(hi_mpi_venc_send_frame(4, &frame, -1), HI_SUCCESS) << recent_msg();
  hi_venc_pack pack{};
  hi_venc_stream stream{};
  stream.pack = &pack;
  stream.pack_cnt = 1;
  ASSERT_EQ(hi_mpi_venc_get_stream(4, &stream, -1), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(stream.pack_cnt, 1u);
  EXPECT_EQ(pack.pts, 7u);
  EXPECT_EQ(pack.data_type.jpeg_type, HI_VENC_JPEG_PACK_PIC);
  EXPECT_EQ(pack.input_addr, reinterpret_cast<hi_u64>(in));  // the frame's buffer
  EXPECT_EQ(stream.jpeg_info.qfactor, 85u);
  ASSERT_EQ(pack.len - pack.offset, v1_size);
  EXPECT_EQ(read_back(pack.addr + pack.offset, v1_size), read_back(v1_out, v1_size));
  EXPECT_EQ(hi_mpi_venc_release_stream(4, &stream), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(hi_mpi_venc_release_stream(4, &stream), static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM));

  // Into the program's buffer.
  void *mine = dvpp_buffer(predicted);
  hi_img_stream into{};
  into.addr = static_cast<hi_u8 *>(mine);
  into.len = predicted;
  ASSERT_EQ(hi_mpi_venc_send_jpege_frame(4, &frame, &into, -1), HI_SUCCESS) << recent_msg();
  ASSERT_EQ(hi_mpi_venc_get_stream(4, &stream, -1), HI_SUCCESS) << recent_msg();
  EXPECT_EQ(pack.addr, mine);
  EXPECT_EQ(read_back(mine, v1_size), read_back(v1_out, v1_size));
  EXPECT_EQ(hi_mpi_venc_release_stream(4, &stream), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_stop_chn(4), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_send_frame(4, &frame, -1), static_cast<hi_s32>(HI_ERR_VENC_NOT_PERM));
  EXPECT_EQ(hi_mpi_venc_destroy_chn(4), HI_SUCCESS) << recent_msg();
}

// jpege_sample's --in_format 9: a packed YUV422 frame (one plane, stride in bytes).
TEST_P(Mpi, JpegeTakesPackedYuv422AsV1Does) {
  const uint32_t w = 64, h = 32, ws = w * 2, size = ws * h;
  std::vector<uint8_t> packed = dvt::nv_noise(ws, h, 14);
  packed.resize(size);
  void *in = dvpp_buffer(size, packed);
  uint32_t v1_size = 0;
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  ASSERT_EQ(acldvppSetJpegeConfigLevel(config, 90), ACL_SUCCESS);
  acldvppPicDesc *d = pic(in, size, PIXEL_FORMAT_YVYU_PACKED_422, w, h, ws, h);
  ASSERT_EQ(acldvppJpegPredictEncSize(d, config, &v1_size), ACL_SUCCESS) << recent_msg();
  void *v1_out = dvpp_buffer(v1_size);
  ASSERT_EQ(acldvppJpegEncodeAsync(channel_, d, v1_out, &v1_size, config, stream_), ACL_SUCCESS)
      << recent_msg();
  sync();
  acldvppDestroyJpegeConfig(config);

  hi_venc_chn_attr attr{};
  attr.venc_attr.type = HI_PT_JPEG;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = w;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = h;
  attr.venc_attr.buf_size = size * 2;
  ASSERT_EQ(hi_mpi_venc_create_chn(5, &attr), HI_SUCCESS) << recent_msg();
  hi_venc_start_param start{};
  start.recv_pic_num = -1;
  ASSERT_EQ(hi_mpi_venc_start_chn(5, &start), HI_SUCCESS) << recent_msg();
  hi_venc_jpeg_param param{};
  param.qfactor = 90;
  ASSERT_EQ(hi_mpi_venc_set_jpeg_param(5, &param), HI_SUCCESS) << recent_msg();
  hi_video_frame_info frame{};
  frame.v_frame.width = w;
  frame.v_frame.height = h;
  frame.v_frame.pixel_format = HI_PIXEL_FORMAT_YVYU_PACKED_422;
  frame.v_frame.width_stride[0] = frame.v_frame.width_stride[1] = ws;
  frame.v_frame.virt_addr[0] = in;
  // The sample sets the second plane's address past the packed plane, as for YUV420SP.
  frame.v_frame.virt_addr[1] = static_cast<uint8_t *>(in) + size;
  ASSERT_EQ(hi_mpi_venc_send_frame(5, &frame, -1), HI_SUCCESS) << recent_msg();
  hi_venc_pack pack{};
  hi_venc_stream stream{};
  stream.pack = &pack;
  stream.pack_cnt = 1;
  ASSERT_EQ(hi_mpi_venc_get_stream(5, &stream, -1), HI_SUCCESS) << recent_msg();
  ASSERT_EQ(pack.len - pack.offset, v1_size);
  EXPECT_EQ(read_back(pack.addr + pack.offset, v1_size), read_back(v1_out, v1_size));
  EXPECT_EQ(hi_mpi_venc_release_stream(5, &stream), HI_SUCCESS);
  // A stride of the width (too short for two bytes a pixel) is refused at the send.
  frame.v_frame.width_stride[0] = frame.v_frame.width_stride[1] = w;
  frame.v_frame.virt_addr[1] = nullptr;
  EXPECT_EQ(hi_mpi_venc_send_frame(5, &frame, -1), static_cast<hi_s32>(HI_ERR_VENC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("(width * 2)"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_venc_stop_chn(5), HI_SUCCESS);
  EXPECT_EQ(hi_mpi_venc_destroy_chn(5), HI_SUCCESS) << recent_msg();
}

TEST_P(Mpi, PyrdownHistogramsAndRemapGiveTheV1Results) {
  const uint32_t w = 96, h = 64, size = w * h;  // YUV400
  std::vector<uint8_t> grey = dvt::nv_noise(w, h, 13);
  grey.resize(size);
  void *in = dvpp_buffer(size, grey);
  hi_vpc_chn id = -1;
  hi_vpc_chn_attr attr{};
  ASSERT_EQ(hi_mpi_vpc_sys_create_chn(&id, &attr), HI_SUCCESS) << recent_msg();
  ASSERT_GE(id, 0);
  hi_vpc_pic_info src = vpc_pic(in, size, HI_PIXEL_FORMAT_YUV_400, w, h, w, h);

  // Two pyramid levels: the first equals V1's one level (reflect-101), the second is the first
  // level's own level down.
  const std::vector<uint8_t> zero(48 * 32, 0),
      zero2(32 * 16, 0);  // the stride padding is not written
  void *v1 = dvpp_buffer(48 * 32, zero), *v1b = dvpp_buffer(32 * 16, zero2);
  ASSERT_EQ(acldvppVpcPyrDownAsync(channel_, pic(in, size, PIXEL_FORMAT_YUV_400, w, h, w, h),
                                   pic(v1, 48 * 32, PIXEL_FORMAT_YUV_400, 48, 32, 48, 32), nullptr,
                                   stream_),
            ACL_SUCCESS)
      << recent_msg();
  ASSERT_EQ(acldvppVpcPyrDownAsync(channel_, pic(v1, 48 * 32, PIXEL_FORMAT_YUV_400, 48, 32, 48, 32),
                                   pic(v1b, 32 * 16, PIXEL_FORMAT_YUV_400, 24, 16, 32, 16), nullptr,
                                   stream_),
            ACL_SUCCESS)
      << recent_msg();
  void *l0 = dvpp_buffer(48 * 32, zero), *l1 = dvpp_buffer(32 * 16, zero2);
  hi_vpc_pic_info levels[2] = {vpc_pic(l0, 48 * 32, HI_PIXEL_FORMAT_YUV_400, 48, 32, 48, 32),
                               vpc_pic(l1, 32 * 16, HI_PIXEL_FORMAT_YUV_400, 24, 16, 32, 16)};
  hi_s8 gauss[5][5];
  const int taps[5] = {1, 4, 6, 4, 1};
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) gauss[y][x] = static_cast<hi_s8>(taps[y] * taps[x]);
  hi_vpc_make_border_info border{};
  border.border_type = HI_BORDER_REFLECT_101;
  hi_u32 pyr = 0, hist_task = 0, remap_task = 0;
  ASSERT_EQ(hi_mpi_vpc_pyrdown(id, &src, levels, 2, gauss, 256, border, &pyr, -1), HI_SUCCESS)
      << recent_msg();

  // Histogram: V2 writes the counts; V1 adds them to a fresh histogram.
  acldvppHist *v1_hist = acldvppCreateHist();
  ASSERT_EQ(acldvppVpcCalcHistAsync(channel_, pic(in, size, PIXEL_FORMAT_YUV_400, w, h, w, h),
                                    v1_hist, nullptr, stream_),
            ACL_SUCCESS)
      << recent_msg();
  hi_vpc_histogram_config hist;
  std::memset(&hist, 0xFF, sizeof hist);
  ASSERT_EQ(hi_mpi_vpc_calc_hist(id, &src, &hist, &hist_task, -1), HI_SUCCESS) << recent_msg();

  // Remap with an inverting map, changed after the call (the call copied it).
  void *r1 = dvpp_buffer(size), *r2 = dvpp_buffer(size);
  acldvppLutMap *lut = acldvppCreateLutMap();
  uint8_t *map = nullptr;
  uint32_t len = 0;
  ASSERT_EQ(acldvppGetLutMapData(lut, 0, &map, &len), ACL_SUCCESS);
  hi_vpc_lut_remap remap;
  for (int i = 0; i < 256; ++i) {
    map[i] = static_cast<uint8_t>(255 - i);
    remap.map_value_y_or_r[i] = remap.map_value_u_or_g[i] = remap.map_value_v_or_b[i] =
        static_cast<hi_u8>(255 - i);
  }
  ASSERT_EQ(
      acldvppVpcEqualizeHistAsync(channel_, pic(in, size, PIXEL_FORMAT_YUV_400, w, h, w, h),
                                  pic(r1, size, PIXEL_FORMAT_YUV_400, w, h, w, h), lut, stream_),
      ACL_SUCCESS)
      << recent_msg();
  hi_vpc_pic_info dst = vpc_pic(r2, size, HI_PIXEL_FORMAT_YUV_400, w, h, w, h);
  ASSERT_EQ(hi_mpi_vpc_equalize_hist(id, &src, &dst, &remap, &remap_task, -1), HI_SUCCESS)
      << recent_msg();
  std::memset(&remap, 0, sizeof remap);
  sync();
  for (hi_u32 t : {pyr, hist_task, remap_task})
    ASSERT_EQ(hi_mpi_vpc_get_process_result(id, t, -1), HI_SUCCESS);

  EXPECT_EQ(read_back(l0, 48 * 32), read_back(v1, 48 * 32));
  EXPECT_EQ(read_back(l1, 32 * 16), read_back(v1b, 32 * 16));
  uint32_t *bins = nullptr;
  uint16_t n = 0;
  ASSERT_EQ(acldvppGetHistData(v1_hist, 0, &bins, &n), ACL_SUCCESS);
  EXPECT_EQ(std::vector<uint32_t>(bins, bins + 256),
            std::vector<uint32_t>(hist.histogram_y_or_r, hist.histogram_y_or_r + 256));
  EXPECT_EQ(std::vector<uint32_t>(256, 0),
            std::vector<uint32_t>(hist.histogram_u_or_g, hist.histogram_u_or_g + 256));
  EXPECT_EQ(read_back(r1, size), read_back(r2, size));
  acldvppDestroyHist(v1_hist);
  acldvppDestroyLutMap(lut);

  // A constant border (vpc_sample's --pyramid_padding_mode 0): the Gaussian of the picture
  // framed by the value, against the test's own sum.
  border.border_type = HI_BORDER_CONSTANT;
  border.scalar_value.val[0] = 200;
  ASSERT_EQ(hi_mpi_vpc_pyrdown(id, &src, levels, 1, gauss, 256, border, &pyr, -1), HI_SUCCESS)
      << recent_msg();
  ASSERT_EQ(hi_mpi_vpc_get_process_result(id, pyr, -1), HI_SUCCESS) << recent_msg();
  std::vector<uint8_t> want(48 * 32, 0);
  for (uint32_t y = 0; y < 32; ++y)
    for (uint32_t x = 0; x < 48; ++x) {
      int sum = 0;
      for (int i = 0; i < 5; ++i)
        for (int k = 0; k < 5; ++k) {
          const int64_t sx = 2 * int64_t{x} + i - 2, sy = 2 * int64_t{y} + k - 2;
          const bool inside = sx >= 0 && sx < w && sy >= 0 && sy < h;
          sum += taps[i] * taps[k] * (inside ? grey[sy * w + sx] : 200);
        }
      want[y * 48 + x] = static_cast<uint8_t>((sum + 128) >> 8);
    }
  EXPECT_EQ(read_back(l0, 48 * 32), want);

  // Only OpenCV's kernel.
  gauss[2][2] = 35;
  EXPECT_EQ(hi_mpi_vpc_pyrdown(id, &src, levels, 2, gauss, 256, border, &pyr, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  border.border_type = HI_BORDER_WRAP;
  gauss[2][2] = 36;
  EXPECT_EQ(hi_mpi_vpc_pyrdown(id, &src, levels, 2, gauss, 256, border, &pyr, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(id), HI_SUCCESS);
}

TEST_P(Mpi, ConvertColorTakesTheChannelsMatrix) {
  void *in = dvpp_buffer(kSize, dvt::nv_noise(kWs, kHs, 14));
  const uint32_t rws = 912, rsize = rws * kH;
  const std::vector<uint8_t> zero(rsize, 0);  // the stride padding is not written
  void *rgb1 = dvpp_buffer(rsize, zero), *rgb2 = dvpp_buffer(rsize, zero);
  uint32_t bt709 = ACL_DVPP_CSC_MATRIX_BT709_NARROW;
  ASSERT_EQ(acldvppSetChannelDescParam(channel_, ACL_DVPP_CSC_MATRIX_UINT32, sizeof bt709, &bt709),
            ACL_SUCCESS);
  ASSERT_EQ(acldvppVpcConvertColorAsync(
                channel_, pic(in, kSize, PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs),
                pic(rgb1, rsize, PIXEL_FORMAT_BGR_888, kW, kH, rws, kH), stream_),
            ACL_SUCCESS)
      << recent_msg();
  sync();
  VpcChannel ch(9);
  EXPECT_EQ(hi_mpi_sys_set_chn_csc_matrix(HI_ID_VPC, ch.id, HI_CSC_MATRIX_USER, nullptr),
            static_cast<hi_s32>(HI_ERR_SYS_NOT_SUPPORT));
  EXPECT_EQ(hi_mpi_sys_set_chn_csc_matrix(HI_ID_VDEC, ch.id, HI_CSC_MATRIX_BT709_NARROW, nullptr),
            static_cast<hi_s32>(HI_ERR_SYS_NOT_SUPPORT));
  ASSERT_EQ(hi_mpi_sys_set_chn_csc_matrix(HI_ID_VPC, ch.id, HI_CSC_MATRIX_BT709_NARROW, nullptr),
            HI_SUCCESS)
      << recent_msg();
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  hi_vpc_pic_info bgr = vpc_pic(rgb2, rsize, HI_PIXEL_FORMAT_BGR_888, kW, kH, rws, kH);
  hi_u32 task = 0;
  ASSERT_EQ(hi_mpi_vpc_convert_color(ch.id, &src, &bgr, &task, -1), HI_SUCCESS) << recent_msg();
  ch.finish(task);
  EXPECT_EQ(read_back(rgb1, rsize), read_back(rgb2, rsize));
}

TEST_F(MpiCalls, BadInputGetsCannsCodesAndAMessage) {
  hi_vpc_chn_attr attr{};
  EXPECT_EQ(hi_mpi_vpc_create_chn(VPC_MAX_CHN_NUM, &attr),
            static_cast<hi_s32>(HI_ERR_VPC_INVALID_CHN_ID));
  EXPECT_EQ(hi_mpi_vpc_create_chn(-1, &attr), static_cast<hi_s32>(HI_ERR_VPC_INVALID_CHN_ID));
  EXPECT_EQ(hi_mpi_vpc_create_chn(7, nullptr), static_cast<hi_s32>(HI_ERR_VPC_NULL_PTR));
  EXPECT_NE(recent_msg().find("attr is NULL"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_vpc_destroy_chn(7), static_cast<hi_s32>(HI_ERR_VPC_UNEXIST));
  VpcChannel ch(7);
  EXPECT_EQ(hi_mpi_vpc_create_chn(7, &attr), static_cast<hi_s32>(HI_ERR_VPC_EXIST));

  void *in = dvpp_buffer(kSize), *out = dvpp_buffer(kOSize);
  hi_vpc_pic_info src = vpc_pic(in, kSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kW, kH, kWs, kHs);
  hi_vpc_pic_info dst =
      vpc_pic(out, kOSize, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420, kOw, kOh, kOw, kOh);
  hi_u32 task = 0;
  EXPECT_EQ(hi_mpi_vpc_resize(ch.id, &src, &dst, 0, 0, 5, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NOT_SUPPORT));
  EXPECT_EQ(hi_mpi_vpc_resize(ch.id, &src, &dst, 0, 0, 0, nullptr, -1),
            static_cast<hi_s32>(HI_ERR_VPC_NULL_PTR));
  std::vector<uint8_t> host(kSize);
  hi_vpc_pic_info on_host = src;
  on_host.picture_address = host.data();
  EXPECT_EQ(hi_mpi_vpc_resize(ch.id, &on_host, &dst, 0, 0, 0, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("source_pic"), std::string::npos) << recent_msg();
  hi_vpc_pic_info odd_stride = dst;
  odd_stride.picture_width_stride = 230;
  EXPECT_EQ(hi_mpi_vpc_resize(ch.id, &src, &odd_stride, 0, 0, 0, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("multiple of 16"), std::string::npos) << recent_msg();
  hi_vpc_crop_region_info crop{};
  crop.dest_pic_info = dst;
  crop.crop_region = {1, 0, 100, 50};  // odd top
  EXPECT_EQ(hi_mpi_vpc_crop(ch.id, &src, &crop, 1, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("crop_info[0].crop_region"), std::string::npos) << recent_msg();
  EXPECT_EQ(hi_mpi_vpc_crop(ch.id, &src, &crop, 0, &task, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_vpc_get_process_result(ch.id, 12345, -1),
            static_cast<hi_s32>(HI_ERR_VPC_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_vpc_get_process_result(8, 0, -1), static_cast<hi_s32>(HI_ERR_VPC_UNEXIST));

  hi_vdec_chn_attr vattr{};
  vattr.type = HI_PT_MJPEG;
  EXPECT_EQ(hi_mpi_vdec_create_chn(0, &vattr), static_cast<hi_s32>(HI_ERR_VDEC_NOT_SUPPORT));
  EXPECT_NE(recent_msg().find("HI_PT_JPEG"), std::string::npos) << recent_msg();
  vattr.type = HI_PT_JPEG;
  ASSERT_EQ(hi_mpi_vdec_create_chn(0, &vattr), HI_SUCCESS) << recent_msg();
  const std::vector<uint8_t> jpeg = dvt::make_jpeg(64, 64, 2, 2);
  void *j = dvpp_buffer(jpeg.size(), jpeg), *pic_buf = dvpp_buffer(128 * 64 * 3 / 2);
  hi_vdec_stream s{};
  s.addr = static_cast<hi_u8 *>(j);
  s.len = static_cast<hi_u32>(jpeg.size());
  hi_vdec_pic_info p{};
  p.width_stride = 128, p.height_stride = 64, p.buffer_size = 128 * 64 * 3 / 2;
  p.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  p.vir_addr = reinterpret_cast<hi_u64>(pic_buf);
  EXPECT_EQ(hi_mpi_vdec_send_stream(0, &s, &p, -1), static_cast<hi_s32>(HI_ERR_VDEC_NOT_PERM));
  ASSERT_EQ(hi_mpi_vdec_start_recv_stream(0), HI_SUCCESS);
  p.buffer_size = 1000;
  EXPECT_EQ(hi_mpi_vdec_send_stream(0, &s, &p, -1), static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM));
  EXPECT_NE(recent_msg().find("buffer_size 1000"), std::string::npos) << recent_msg();
  p.buffer_size = 128 * 64 * 3 / 2;
  p.pixel_format = HI_PIXEL_FORMAT_RGB_888;
  EXPECT_EQ(hi_mpi_vdec_send_stream(0, &s, &p, -1), static_cast<hi_s32>(HI_ERR_VDEC_NOT_SUPPORT));
  std::vector<uint8_t> junk(100, 0x55);
  s.addr = junk.data();
  s.len = 100;
  hi_img_info info{};
  EXPECT_EQ(hi_mpi_dvpp_get_image_info(HI_PT_JPEG, &s, &info),
            static_cast<hi_s32>(HI_ERR_VDEC_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_dvpp_get_image_info(HI_PT_PNG, &s, &info),
            static_cast<hi_s32>(HI_ERR_VDEC_NOT_SUPPORT));
  EXPECT_EQ(hi_mpi_vdec_destroy_chn(0), HI_SUCCESS);

  void *m = nullptr;
  EXPECT_EQ(hi_mpi_dvpp_malloc(1, &m, 64), static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM));
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, nullptr, 64), static_cast<hi_s32>(HI_ERR_SYS_NULL_PTR));
  EXPECT_EQ(hi_mpi_dvpp_free(host.data()), static_cast<hi_s32>(HI_ERR_SYS_ILLEGAL_PARAM));
  ASSERT_EQ(hi_mpi_dvpp_malloc(0, &m, 64), HI_SUCCESS);
  EXPECT_EQ(aclrtMemset(m, 64, 1, 64), ACL_SUCCESS);  // device memory to the runtime too
  EXPECT_EQ(hi_mpi_dvpp_free(m), HI_SUCCESS);
}

TEST_F(MpiCalls, NothingRunsBeforeSysInit) {
  ASSERT_EQ(hi_mpi_sys_exit(), HI_SUCCESS);
  hi_vpc_chn_attr attr{};
  EXPECT_EQ(hi_mpi_vpc_create_chn(0, &attr), static_cast<hi_s32>(HI_ERR_VPC_SYS_NOT_READY));
  EXPECT_NE(recent_msg().find("hi_mpi_sys_init"), std::string::npos) << recent_msg();
  void *m = nullptr;
  EXPECT_EQ(hi_mpi_dvpp_malloc(0, &m, 64), static_cast<hi_s32>(HI_ERR_SYS_NOT_READY));
  EXPECT_EQ(hi_mpi_sys_exit(), static_cast<hi_s32>(HI_ERR_SYS_NOT_READY));
  ASSERT_EQ(hi_mpi_sys_init(), HI_SUCCESS);
}

}  // namespace
