// JPEG decode of a 1920x1080 picture (acldvppJpegDecodeAsync + synchronize) next to libjpeg-turbo
// decoding the same file to YCbCr on its own; VPC resize of 1080p NV12 to 224x224 (and two
// other sizes) next to OpenCV's cv::resize (INTER_LINEAR, its default threading) on the same two
// planes, or, in a build without OpenCV, a plain per-pixel bilinear loop. Each figure is the
// median of samples taken alternately with its baseline in the same run.
#include <benchmark/benchmark.h>
#include <jpeglib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef OPENACL_BENCH_OPENCV
#include <opencv2/imgproc.hpp>
#endif

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp/pictures.h"

namespace {

void check(aclError e, const char *what) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "%s: %d %s\n", what, e, aclGetRecentErrMsg());
    std::exit(1);
  }
}

double now_ns() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class A, class B>
std::pair<double, double> alternating_medians(A &&a, B &&b, int samples) {
  std::vector<double> ta, tb;
  for (int i = 0; i < samples; ++i) {
    double t0 = now_ns();
    a();
    double t1 = now_ns();
    b();
    double t2 = now_ns();
    ta.push_back(t1 - t0);
    tb.push_back(t2 - t1);
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}

// libjpeg-turbo alone: the same file to interleaved YCbCr rows.
void libjpeg_decode(const std::vector<uint8_t> &jpeg, std::vector<uint8_t> &out) {
  jpeg_decompress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, jpeg.data(), jpeg.size());
  jpeg_read_header(&c, TRUE);
  c.out_color_space = JCS_YCbCr;
  jpeg_start_decompress(&c);
  out.resize(size_t{c.output_width} * c.output_height * 3);
  while (c.output_scanline < c.output_height) {
    JSAMPROW row = &out[size_t{c.output_scanline} * c.output_width * 3];
    jpeg_read_scanlines(&c, &row, 1);
  }
  jpeg_finish_decompress(&c);
  jpeg_destroy_decompress(&c);
}

struct Env {
  Env() {
    check(aclInit(nullptr), "aclInit");
    check(aclrtSetDevice(0), "aclrtSetDevice");
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    channel = acldvppCreateChannelDesc();
    check(acldvppCreateChannel(channel), "acldvppCreateChannel");
  }
  acldvppPicDesc *pic(void *data, uint32_t size, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    acldvppPicDesc *d = acldvppCreatePicDesc();
    acldvppSetPicDescData(d, data);
    acldvppSetPicDescSize(d, size);
    acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
    acldvppSetPicDescWidth(d, w);
    acldvppSetPicDescHeight(d, h);
    acldvppSetPicDescWidthStride(d, ws);
    acldvppSetPicDescHeightStride(d, hs);
    return d;
  }
  aclrtStream stream = nullptr;
  acldvppChannelDesc *channel = nullptr;
};

Env &env() {
  static Env e;
  return e;
}

void BM_JpegDecode1080p(benchmark::State &state) {
  auto &e = env();
  std::vector<uint8_t> jpeg = dvt::make_jpeg(1920, 1080, 2, 2);  // 4:2:0, as cameras write
  uint32_t size = 0;
  check(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
        "predict");
  void *in = nullptr, *out = nullptr;
  check(acldvppMalloc(&in, jpeg.size()), "acldvppMalloc");
  check(acldvppMalloc(&out, size), "acldvppMalloc");
  check(aclrtMemcpy(in, jpeg.size(), jpeg.data(), jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  acldvppPicDesc *d = e.pic(out, size, 0, 0, 0, 0);
  auto ours = [&] {
    check(acldvppJpegDecodeAsync(e.channel, in, jpeg.size(), d, e.stream),
          "acldvppJpegDecodeAsync");
    check(aclrtSynchronizeStream(e.stream), "aclrtSynchronizeStream");
  };
  std::vector<uint8_t> ycc;
  auto base = [&] { libjpeg_decode(jpeg, ycc); };
  for (auto _ : state) ours();
  auto [o, b] = alternating_medians(ours, base, 15);
  state.counters["openacl_ns"] = o;
  state.counters["baseline_ns"] = b;
  state.counters["ratio"] = b / o;
  state.SetLabel("goal: ratio>=0.9; baseline: libjpeg-turbo alone, to YCbCr");
  acldvppDestroyPicDesc(d);
  acldvppFree(in);
  acldvppFree(out);
}
BENCHMARK(BM_JpegDecode1080p)->Unit(benchmark::kMillisecond)->Iterations(5);

#ifdef OPENACL_BENCH_OPENCV
// The baseline: cv::resize of the luma plane and of the interleaved chroma plane.
void baseline_resize(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw,
                     uint32_t dh, int c) {
  const int type = c == 1 ? CV_8UC1 : CV_8UC2;
  cv::Mat in(int(sh), int(sw), type, const_cast<uint8_t *>(src));
  cv::Mat out(int(dh), int(dw), type, dst);
  cv::resize(in, out, out.size(), 0, 0, cv::INTER_LINEAR);
}
constexpr const char *kResizeLabel = "goal: ratio>=1.0; baseline: OpenCV cv::resize INTER_LINEAR";
#else
// Without OpenCV: per-pixel bilinear with pixel centres at +0.5, in float, both planes.
void baseline_resize(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw,
                     uint32_t dh, int c) {
  const float fx = float(sw) / dw, fy = float(sh) / dh;
  for (uint32_t y = 0; y < dh; ++y) {
    float sy = std::clamp((y + 0.5f) * fy - 0.5f, 0.0f, float(sh - 1));
    uint32_t y0 = uint32_t(sy), y1 = std::min(y0 + 1, sh - 1);
    float ay = sy - y0;
    for (uint32_t x = 0; x < dw; ++x) {
      float sx = std::clamp((x + 0.5f) * fx - 0.5f, 0.0f, float(sw - 1));
      uint32_t x0 = uint32_t(sx), x1 = std::min(x0 + 1, sw - 1);
      float ax = sx - x0;
      for (int k = 0; k < c; ++k) {
        auto at = [&](uint32_t xx, uint32_t yy) {
          return float(src[(size_t{yy} * sw + xx) * c + k]);
        };
        float v = (at(x0, y0) * (1 - ax) + at(x1, y0) * ax) * (1 - ay) +
                  (at(x0, y1) * (1 - ax) + at(x1, y1) * ax) * ay;
        dst[(size_t{y} * dw + x) * c + k] = uint8_t(v + 0.5f);
      }
    }
  }
}
constexpr const char *kResizeLabel =
    "goal: ratio>=1.0; baseline: a plain float bilinear loop (the issue asks cv::resize)";
#endif

// Arguments: source width and height, output width and height (even, multiples of 16 wide).
void BM_VpcResize(benchmark::State &state) {
  auto &e = env();
  const auto w = uint32_t(state.range(0)), h = uint32_t(state.range(1));
  const auto ow = uint32_t(state.range(2)), oh = uint32_t(state.range(3));
  const uint32_t in_size = w * h * 3 / 2, out_size = ow * oh * 3 / 2;
  std::vector<uint8_t> src(in_size);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 2654435761u >> 24);
  void *in = nullptr, *out = nullptr;
  check(acldvppMalloc(&in, in_size), "acldvppMalloc");
  check(acldvppMalloc(&out, out_size), "acldvppMalloc");
  check(aclrtMemcpy(in, in_size, src.data(), in_size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  acldvppPicDesc *id = e.pic(in, in_size, w, h, w, h), *od = e.pic(out, out_size, ow, oh, ow, oh);
  acldvppResizeConfig *rc = acldvppCreateResizeConfig();
  auto ours = [&] {
    check(acldvppVpcResizeAsync(e.channel, id, od, rc, e.stream), "acldvppVpcResizeAsync");
    check(aclrtSynchronizeStream(e.stream), "aclrtSynchronizeStream");
  };
  std::vector<uint8_t> dst(out_size);
  auto base = [&] {
    baseline_resize(src.data(), w, h, dst.data(), ow, oh, 1);
    baseline_resize(src.data() + w * h, w / 2, h / 2, dst.data() + ow * oh, ow / 2, oh / 2, 2);
  };
  for (auto _ : state) ours();
  auto [o, b] = alternating_medians(ours, base, 31);
  state.counters["openacl_ns"] = o;
  state.counters["baseline_ns"] = b;
  state.counters["ratio"] = b / o;
  state.SetLabel(kResizeLabel);
  acldvppDestroyResizeConfig(rc);
  acldvppDestroyPicDesc(id);
  acldvppDestroyPicDesc(od);
  acldvppFree(in);
  acldvppFree(out);
}
// The 1080p -> 224x224 first, then a shrink to 720p and an enlargement of 360p to 1080p.
BENCHMARK(BM_VpcResize)
    ->Args({1920, 1080, 224, 224})
    ->Args({1920, 1080, 1280, 720})
    ->Args({640, 360, 1920, 1080})
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
