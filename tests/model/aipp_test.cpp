// Static AIPP (issue 14): a model converted with --insert_op_conf takes uint8 images and feeds
// its float input with CANN's documented pre-processing. Each case compares the model's input
// (seen through an identity model) with a reference written here from the documented formulas:
// crop, R/B or U/V swap, CSC (YUV: M(x - input_bias) >> 8; RGB: (Mx >> 8) + output_bias, both
// clipped to [0, 255]), rotation (clockwise), bilinear resizing (scf), (x - mean - min) *
// var_reci, then padding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "model_helpers.h"
#include "openacl/openacl_model.h"
#include "support/staging_device.h"

using namespace model_test;

namespace {

// y = x * 1 over [1, C, H, W], x of `elem` type (FLOAT or FLOAT16).
onnx::ModelProto identity(int64_t c, int64_t h, int64_t w,
                          int32_t elem = onnx::TensorProto::FLOAT) {
  auto m = tiny_model();
  add_input(m, "x", {1, c, h, w}, elem);
  if (elem == onnx::TensorProto::FLOAT) {
    add_initializer(m, "one", {1}, {1});
    add_node(m, "Mul", "same", {"x", "one"}, {"y"});
  } else {
    auto *n = add_node(m, "Cast", "same", {"x"}, {"y"});
    auto *a = n->add_attribute();
    a->set_name("to");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(onnx::TensorProto::FLOAT);
  }
  add_output(m, "y");
  return m;
}

std::vector<uint8_t> pixels(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<uint8_t>(seed >> 24);
  }
  return v;
}

// The documented pipeline, written per output element.
struct Reference {
  std::string format;  // YUV420SP_U8, RGB888_U8, XRGB8888_U8, YUV400_U8
  int src_w = 0, src_h = 0, crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  bool rbuv = false, ax = false, csc = false;
  int m[3][3] = {}, in_bias[3] = {}, out_bias[3] = {};
  int mean[3] = {};
  float min[3] = {}, var[3] = {1, 1, 1};
  int rotation = 0, resize_w = 0, resize_h = 0;  // resize_w 0: no resizing
  int top = 0, bottom = 0, left = 0, right = 0;
  float pad = 0;

  int channels() const { return format == "YUV400_U8" ? 1 : 3; }
  // Channel c of source pixel (x, y) before any processing.
  int raw(const std::vector<uint8_t> &img, int x, int y, int c) const {
    if (format == "YUV400_U8") return img[y * src_w + x];
    if (format == "RGB888_U8") return img[(y * src_w + x) * 3 + c];
    if (format == "XRGB8888_U8") return img[(y * src_w + x) * 4 + (ax ? c : c + 1)];
    if (c == 0) return img[y * src_w + x];                                // Y plane
    return img[src_w * src_h + (y / 2) * src_w + (x / 2) * 2 + (c - 1)];  // interleaved UV
  }
  // Pixel (x, y) of the crop window after the swap and CSC.
  std::vector<int> window_pixel(const std::vector<uint8_t> &img, int x, int y) const {
    const bool yuv = format == "YUV420SP_U8" || format == "YUV400_U8";
    int p[3] = {0, 0, 0};
    for (int c = 0; c < channels(); ++c) p[c] = raw(img, crop_x + x, crop_y + y, c);
    if (rbuv) std::swap(p[yuv ? 1 : 0], p[2]);
    if (csc) {
      int q[3];
      for (int r = 0; r < 3; ++r) {
        long acc = 0;
        for (int c = 0; c < 3; ++c)
          acc += static_cast<long>(m[r][c]) * (yuv ? p[c] - in_bias[c] : p[c]);
        const long shifted = acc >= 0 ? acc / 256 : -((-acc + 255) / 256);  // >> 8 rounds down
        q[r] = static_cast<int>(std::clamp<long>(yuv ? shifted : shifted + out_bias[r], 0, 255));
      }
      std::memcpy(p, q, sizeof q);
    }
    return {p, p + channels()};
  }
  int turned_w() const { return rotation % 180 ? crop_h : crop_w; }
  int turned_h() const { return rotation % 180 ? crop_w : crop_h; }
  // Pixel (x, y) of the window turned clockwise by `rotation`.
  std::vector<int> turned_pixel(const std::vector<uint8_t> &img, int x, int y) const {
    switch (rotation) {
      case 90:
        return window_pixel(img, y, crop_h - 1 - x);
      case 180:
        return window_pixel(img, crop_w - 1 - x, crop_h - 1 - y);
      case 270:
        return window_pixel(img, crop_w - 1 - y, x);
      default:
        return window_pixel(img, x, y);
    }
  }
  // Pixel (x, y) after resizing: bilinear between the turned window's pixels around
  // ((x + 0.5) * in / out - 0.5, likewise y), clamped to the window, rounded to an integer.
  std::vector<int> resized_pixel(const std::vector<uint8_t> &img, int x, int y) const {
    if (resize_w == 0) return turned_pixel(img, x, y);
    auto source = [](int d, int in, int out, int &i0, int &i1, double &f) {
      const double s = std::clamp((d + 0.5) * in / out - 0.5, 0.0, in - 1.0);
      i0 = static_cast<int>(std::floor(s)), i1 = std::min(i0 + 1, in - 1), f = s - i0;
    };
    int x0, x1, y0, y1;
    double fx, fy;
    source(x, turned_w(), resize_w, x0, x1, fx);
    source(y, turned_h(), resize_h, y0, y1, fy);
    const auto a = turned_pixel(img, x0, y0), b = turned_pixel(img, x1, y0),
               c = turned_pixel(img, x0, y1), d = turned_pixel(img, x1, y1);
    std::vector<int> out(a.size());
    for (size_t k = 0; k < out.size(); ++k)
      out[k] = static_cast<int>(std::floor((a[k] * (1 - fx) + b[k] * fx) * (1 - fy) +
                                           (c[k] * (1 - fx) + d[k] * fx) * fy + 0.5));
    return out;
  }
  std::vector<float> run(const std::vector<uint8_t> &img) const {
    const int iw = resize_w ? resize_w : turned_w(), ih = resize_h ? resize_h : turned_h();
    const int w = iw + left + right, h = ih + top + bottom, C = channels();
    std::vector<float> out(static_cast<size_t>(C) * h * w, pad);
    for (int y = 0; y < ih; ++y)
      for (int x = 0; x < iw; ++x) {
        const auto p = resized_pixel(img, x, y);
        for (int c = 0; c < C; ++c)
          out[(static_cast<size_t>(c) * h + top + y) * w + left + x] =
              (static_cast<float>(p[c] - mean[c]) - min[c]) * var[c];
      }
    return out;
  }
};

class Aipp : public DeviceSuite {
 protected:
  void TearDown() override {
    if (id_) aclmdlUnload(id_);
  }
  aclError convert(const onnx::ModelProto &m, const std::string &conf) {
    const std::string onnx = m.SerializeAsString();
    const char *names[] = {"insert_op_conf", "input_format"},
               *values[] = {conf.c_str(), input_format_.c_str()};
    om_ = write_temp("aipp.om", "");
    return openaclConvertModel(onnx.data(), onnx.size(), names, values,
                               input_format_.empty() ? 1 : 2, om_.c_str());
  }
  // Converts, loads, runs one image; returns the model's output (= its AIPP'd input) as floats.
  std::vector<float> run(const onnx::ModelProto &m, const std::string &conf,
                         const std::vector<uint8_t> &img, size_t out_elems) {
    EXPECT_EQ(convert(m, conf), ACL_SUCCESS) << recent();
    EXPECT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
    aclmdlDesc *desc = aclmdlCreateDesc();
    EXPECT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), img.size());
    EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_UINT8);
    EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NHWC);
    aclmdlDestroyDesc(desc);
    void *in = nullptr, *out = nullptr;
    EXPECT_EQ(aclrtMalloc(&in, img.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&out, out_elems * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtMemcpy(in, img.size(), img.data(), img.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
    aclDataBuffer *bi = aclCreateDataBuffer(in, img.size()),
                  *bo = aclCreateDataBuffer(out, out_elems * 4);
    aclmdlAddDatasetBuffer(ins, bi);
    aclmdlAddDatasetBuffer(outs, bo);
    EXPECT_EQ(aclmdlExecute(id_, ins, outs), ACL_SUCCESS) << recent();
    std::vector<float> y(out_elems);
    aclrtMemcpy(y.data(), out_elems * 4, out, out_elems * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    aclDestroyDataBuffer(bi);
    aclDestroyDataBuffer(bo);
    aclmdlDestroyDataset(ins);
    aclmdlDestroyDataset(outs);
    aclrtFree(in);
    aclrtFree(out);
    return y;
  }
  // Runs the loaded model, dynamic AIPP on input 0 for one image, with the parameters `set`;
  // y (sized by the caller) gets the output. Returns aclmdlSetInputAIPP's result: nothing runs
  // when it fails.
  aclError run_dynamic(const aclmdlAIPP *set, const std::vector<uint8_t> &img,
                       std::vector<float> &y) {
    size_t data_size = 0;
    EXPECT_EQ(aclmdlGetAippDataSize(1, &data_size), ACL_SUCCESS);
    const size_t out_bytes = y.size() * sizeof(float);
    void *in = nullptr, *params = nullptr, *out = nullptr;
    EXPECT_EQ(aclrtMalloc(&in, img.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&params, data_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&out, out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtMemcpy(in, img.size(), img.data(), img.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
    aclDataBuffer *bufs[] = {aclCreateDataBuffer(in, img.size()),
                             aclCreateDataBuffer(params, data_size),
                             aclCreateDataBuffer(out, out_bytes)};
    aclmdlAddDatasetBuffer(ins, bufs[0]);
    aclmdlAddDatasetBuffer(ins, bufs[1]);
    aclmdlAddDatasetBuffer(outs, bufs[2]);
    const aclError rc = aclmdlSetInputAIPP(id_, ins, 1, set);
    if (rc == ACL_SUCCESS) {
      EXPECT_EQ(aclmdlExecute(id_, ins, outs), ACL_SUCCESS) << recent();
      aclrtMemcpy(y.data(), out_bytes, out, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    }
    for (auto *b : bufs) aclDestroyDataBuffer(b);
    aclmdlDestroyDataset(ins);
    aclmdlDestroyDataset(outs);
    for (void *p : {in, params, out}) aclrtFree(p);
    return rc;
  }
  void whole_pipeline() {
    Reference r{"RGB888_U8", 10, 8};
    r.crop_x = 2, r.crop_y = 1, r.crop_w = 6, r.crop_h = 4, r.rbuv = true;
    r.rotation = 90, r.resize_w = 7, r.resize_h = 3;  // 6x4 turned to 4x6, resized to 7x3
    r.top = 1, r.left = 1, r.mean[1] = 20, r.var[2] = 0.5f;
    const std::string conf =
        "aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 10 "
        "src_image_size_h: 8 crop: true load_start_pos_w: 2 load_start_pos_h: 1 crop_size_w: 6 "
        "crop_size_h: 4 rbuv_swap_switch: true rotation_angle: 90 resize: true resize_output_w: 7 "
        "resize_output_h: 3 padding: true top_padding_size: 1 left_padding_size: 1 mean_chn_1: 20 "
        "var_reci_chn_2: 0.5 }";
    const auto img = pixels(10 * 8 * 3, 9);
    EXPECT_EQ(run(identity(3, 4, 8), conf, img, 3 * 4 * 8), r.run(img));
    aclAippInfo info{};
    ASSERT_EQ(aclmdlGetFirstAippInfo(id_, 0, &info), ACL_SUCCESS) << recent();
    EXPECT_EQ(info.resizeSwitch, 1);
    EXPECT_EQ(info.resizeOutputW, 7);
    EXPECT_EQ(info.resizeOutputH, 3);
  }
  // Dynamic AIPP crops and resizes one image; the scf input must be the crop window.
  void dynamic_resize() {
    const std::string conf =
        "aipp_op { aipp_mode: dynamic related_input_rank: 0 max_src_image_size: 144 }";
    ASSERT_EQ(convert(identity(3, 4, 4), conf), ACL_SUCCESS) << recent();
    ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
    Reference r{"RGB888_U8", 8, 6};
    r.crop_x = 2, r.crop_w = 6, r.crop_h = 6, r.resize_w = 4, r.resize_h = 4;
    aclmdlAIPP *set = aclmdlCreateAIPP(1);
    ASSERT_EQ(aclmdlSetAIPPInputFormat(set, ACL_RGB888_U8), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPSrcImageSize(set, 8, 6), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPCropParams(set, 1, 2, 0, 6, 6, 0), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPScfParams(set, 1, 6, 6, 4, 4, 0), ACL_SUCCESS);
    const auto img = pixels(144, 11);
    std::vector<float> y(48);
    ASSERT_EQ(run_dynamic(set, img, y), ACL_SUCCESS) << recent();
    EXPECT_EQ(y, r.run(img));
    // The scf input must be the crop window.
    ASSERT_EQ(aclmdlSetAIPPScfParams(set, 1, 8, 6, 4, 4, 0), ACL_SUCCESS);
    EXPECT_EQ(run_dynamic(set, img, y), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("scfInputSize 8x6 (WxH) is not the size of the crop window, 6x6"),
              std::string::npos)
        << recent();
    aclmdlDestroyAIPP(set);
  }
  std::string om_;
  std::string input_format_;  // atc --input_format, when set
  uint32_t id_ = 0;
};

TEST_F(Aipp, Yuv420spToRgbWithCropAndNormalization) {
  Reference r{"YUV420SP_U8", 8, 6};
  r.crop_x = 2, r.crop_y = 2, r.crop_w = 6, r.crop_h = 4;
  r.csc = true;
  const int bt601[3][3] = {{298, 0, 409}, {298, -100, -208}, {298, 516, 0}};
  std::memcpy(r.m, bt601, sizeof bt601);
  r.in_bias[0] = 16, r.in_bias[1] = 128, r.in_bias[2] = 128;
  r.mean[0] = 104, r.mean[1] = 117, r.mean[2] = 123;
  r.min[0] = 0.5f, r.min[1] = -1.25f, r.min[2] = 2.0f;
  r.var[0] = 0.017f, r.var[1] = 0.0175f, r.var[2] = 0.0171f;
  const std::string conf = R"(# BT.601 narrow, NV12 to RGB
aipp_op {
  aipp_mode: static
  related_input_rank: 0
  input_format: YUV420SP_U8
  src_image_size_w: 8
  src_image_size_h: 6
  crop: true
  load_start_pos_w: 2
  load_start_pos_h: 2
  csc_switch: true
  rbuv_swap_switch: false
  matrix_r0c0: 298
  matrix_r0c1: 0
  matrix_r0c2: 409
  matrix_r1c0: 298
  matrix_r1c1: -100
  matrix_r1c2: -208
  matrix_r2c0: 298
  matrix_r2c1: 516
  matrix_r2c2: 0
  input_bias_0: 16
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 104
  mean_chn_1: 117
  mean_chn_2: 123
  min_chn_0: 0.5
  min_chn_1: -1.25
  min_chn_2: 2.0
  var_reci_chn_0: 0.017
  var_reci_chn_1: 0.0175
  var_reci_chn_2: 0.0171
})";
  const auto img = pixels(8 * 6 * 3 / 2, 1);
  EXPECT_EQ(run(identity(3, 4, 6), conf, img, 3 * 4 * 6), r.run(img));

  aclmdlInputAippType type{};
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id_, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITH_STATIC_AIPP);
  aclAippInfo info{};
  ASSERT_EQ(aclmdlGetFirstAippInfo(id_, 0, &info), ACL_SUCCESS) << recent();
  EXPECT_EQ(info.inputFormat, ACL_YUV420SP_U8);
  EXPECT_EQ(info.srcImageSizeW, 8);
  EXPECT_EQ(info.cropSizeW, 6);
  EXPECT_EQ(info.matrixR2C1, 516);
  EXPECT_EQ(info.meanChn2, 123);
  EXPECT_FLOAT_EQ(info.varReciChn1, 0.0175f);
  EXPECT_EQ(info.outDims[0].aippOutdims.dims[1], 3);
  EXPECT_EQ(info.outDims[0].srcSize, img.size());
}

TEST_F(Aipp, Rgb888SwapAndPaddingIntoAFloat16Input) {
  Reference r{"RGB888_U8", 5, 4};
  r.crop_w = 5, r.crop_h = 4, r.rbuv = true;
  r.top = 1, r.bottom = 2, r.left = 3, r.right = 0, r.pad = -0.5f;
  r.mean[0] = 10, r.var[0] = r.var[1] = r.var[2] = 0.25f;
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: RGB888_U8 rbuv_swap_switch: true\n"
      " padding: true top_padding_size: 1 bottom_padding_size: 2 left_padding_size: 3\n"
      " padding_value: -0.5 mean_chn_0: 10 var_reci_chn_0: 0.25 var_reci_chn_1: 0.25\n"
      " var_reci_chn_2: 0.25 }";
  const auto img = pixels(5 * 4 * 3, 2);
  auto want = r.run(img);
  // The float16 input rounds the documented values; the model casts them back to float.
  for (auto &v : want) v = aclFloat16ToFloat(aclFloatToFloat16(v));
  EXPECT_EQ(run(identity(3, 7, 8, onnx::TensorProto::FLOAT16), conf, img, 3 * 7 * 8), want);
}

// A TensorFlow model's input (kept by its ONNX export) is NHWC: with --input_format=NHWC, AIPP
// writes each pixel's channels together.
TEST_F(Aipp, NhwcModelInputTakesInterleavedChannels) {
  Reference r{"YUV420SP_U8", 8, 6};
  r.crop_x = 2, r.crop_y = 2, r.crop_w = 4, r.crop_h = 4, r.csc = true;
  r.m[0][0] = r.m[1][0] = r.m[2][0] = 256, r.m[0][2] = 359, r.m[1][1] = -88, r.m[1][2] = -183,
  r.m[2][1] = 454;
  r.in_bias[1] = r.in_bias[2] = 128;
  r.mean[0] = 104, r.mean[1] = 117, r.mean[2] = 123, r.var[2] = 0.5f;
  r.top = 1, r.left = 2, r.pad = 7;
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 8 src_image_size_h: "
      "6\n"
      " crop: true load_start_pos_w: 2 load_start_pos_h: 2 crop_size_w: 4 crop_size_h: 4 "
      "csc_switch: true\n"
      " matrix_r0c0: 256 matrix_r0c1: 0 matrix_r0c2: 359 matrix_r1c0: 256 matrix_r1c1: -88 "
      "matrix_r1c2: -183\n"
      " matrix_r2c0: 256 matrix_r2c1: 454 matrix_r2c2: 0 input_bias_1: 128 input_bias_2: 128\n"
      " mean_chn_0: 104 mean_chn_1: 117 mean_chn_2: 123 var_reci_chn_2: 0.5\n"
      " padding: true top_padding_size: 1 left_padding_size: 2 padding_value: 7 }";
  const auto img = pixels(8 * 6 * 3 / 2, 5);
  const auto planar = r.run(img);  // [3, 5, 6]
  std::vector<float> want;
  for (int p = 0; p < 5 * 6; ++p)
    for (int c = 0; c < 3; ++c) want.push_back(planar[c * 30 + p]);
  auto m = tiny_model();
  add_input(m, "x", {1, 5, 6, 3});
  add_initializer(m, "one", {1}, {1});
  add_node(m, "Mul", "same", {"x", "one"}, {"y"});
  add_output(m, "y");
  input_format_ = "NHWC";
  EXPECT_EQ(run(m, conf, img, want.size()), want);
  // The same input read as NCHW has 5 channels, which RGB does not fill.
  input_format_.clear();
  EXPECT_EQ(convert(m, conf), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("the model input has 5"), std::string::npos) << recent();
}

TEST_F(Aipp, Xrgb8888AxSwapAndRgbToYuv) {
  Reference r{"XRGB8888_U8", 4, 4};
  r.crop_w = 4, r.crop_h = 4, r.ax = true, r.csc = true;
  const int to_yuv[3][3] = {{66, 129, 25}, {-38, -74, 112}, {112, -94, -18}};
  std::memcpy(r.m, to_yuv, sizeof to_yuv);
  r.out_bias[0] = 16, r.out_bias[1] = 128, r.out_bias[2] = 128;
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: XRGB8888_U8 ax_swap_switch: true csc_switch: "
      "true\n"
      " matrix_r0c0: 66 matrix_r0c1: 129 matrix_r0c2: 25 matrix_r1c0: -38 matrix_r1c1: -74\n"
      " matrix_r1c2: 112 matrix_r2c0: 112 matrix_r2c1: -94 matrix_r2c2: -18\n"
      " output_bias_0: 16 output_bias_1: 128 output_bias_2: 128 }";
  const auto img = pixels(4 * 4 * 4, 3);
  EXPECT_EQ(run(identity(3, 4, 4), conf, img, 48), r.run(img));
}

TEST_F(Aipp, Yuv400IsOneChannel) {
  Reference r{"YUV400_U8", 6, 3};
  r.crop_w = 4, r.crop_h = 2, r.crop_x = 1, r.crop_y = 1;
  r.mean[0] = 128, r.var[0] = 1.0f / 128;
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: YUV400_U8 src_image_size_w: 6 src_image_size_h: "
      "3\n"
      " crop: true load_start_pos_w: 1 load_start_pos_h: 1 crop_size_w: 4 crop_size_h: 2\n"
      " mean_chn_0: 128 var_reci_chn_0: 0.0078125 }";
  const auto img = pixels(6 * 3, 4);
  EXPECT_EQ(run(identity(1, 2, 4), conf, img, 8), r.run(img));
}

// Rotation turns the window clockwise: a 3x2 picture, written out.
TEST_F(Aipp, RotationTurnsTheWindowClockwise) {
  const std::vector<uint8_t> img = {1, 2, 3, 4, 5, 6};  // rows {1 2 3}, {4 5 6}
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: YUV400_U8 src_image_size_w: 3 "
      "src_image_size_h: 2 rotation_angle: ";
  EXPECT_EQ(run(identity(1, 3, 2), conf + "90 }", img, 6), (std::vector<float>{4, 1, 5, 2, 6, 3}));
  ASSERT_EQ(aclmdlUnload(std::exchange(id_, 0)), ACL_SUCCESS);
  EXPECT_EQ(run(identity(1, 2, 3), conf + "180 }", img, 6), (std::vector<float>{6, 5, 4, 3, 2, 1}));
  ASSERT_EQ(aclmdlUnload(std::exchange(id_, 0)), ACL_SUCCESS);
  EXPECT_EQ(run(identity(1, 3, 2), conf + "270 }", img, 6), (std::vector<float>{3, 6, 2, 5, 1, 4}));
}

// Resizing is bilinear with pixel centres at +0.5, written out: [0, 100] to 4 pixels.
TEST_F(Aipp, ResizeIsBilinearWithHalfPixelCentres) {
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: YUV400_U8 src_image_size_w: 2 "
      "src_image_size_h: 1 resize: true resize_output_w: 4 resize_output_h: 1 }";
  EXPECT_EQ(run(identity(1, 1, 4), conf, {0, 100}, 4), (std::vector<float>{0, 25, 75, 100}));
}

// The whole pipeline: crop, swap, rotation, resize, normalization and padding of an RGB image.
TEST_F(Aipp, CropRotateResizeAndPadAnRgbImage) { whole_pipeline(); }

// YUV420SP converted to RGB, then shrunk to odd sizes.
TEST_F(Aipp, Yuv420spResizedAfterCsc) {
  Reference r{"YUV420SP_U8", 8, 6};
  r.crop_w = 8, r.crop_h = 6, r.csc = true, r.resize_w = 5, r.resize_h = 3;
  const int bt601[3][3] = {{298, 0, 409}, {298, -100, -208}, {298, 516, 0}};
  std::memcpy(r.m, bt601, sizeof bt601);
  r.in_bias[0] = 16, r.in_bias[1] = 128, r.in_bias[2] = 128;
  const std::string conf =
      "aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 8 "
      "src_image_size_h: 6 csc_switch: true matrix_r0c0: 298 matrix_r0c2: 409 matrix_r1c0: 298 "
      "matrix_r1c1: -100 matrix_r1c2: -208 matrix_r2c0: 298 matrix_r2c1: 516 input_bias_0: 16 "
      "input_bias_1: 128 input_bias_2: 128 resize: true }";  // output size: the model's
  const auto img = pixels(8 * 6 * 3 / 2, 10);
  EXPECT_EQ(run(identity(3, 3, 5), conf, img, 3 * 3 * 5), r.run(img));
}

TEST_F(Aipp, BatchGearsTakeOneImagePerBatchEntry) {
  Reference r{"RGB888_U8", 3, 2};
  r.crop_w = 3, r.crop_h = 2, r.mean[1] = 7;
  const std::string conf = "aipp_op { aipp_mode: static input_format: RGB888_U8 mean_chn_1: 7 }";
  const std::string onnx = identity(3, 2, 3).SerializeAsString();
  const char *names[] = {"insert_op_conf", "input_shape", "dynamic_batch_size"};
  const char *values[] = {conf.c_str(), "x:-1,3,2,3", "1,2"};
  om_ = write_temp("aipp_gears.om", "");
  ASSERT_EQ(openaclConvertModel(onnx.data(), onnx.size(), names, values, 3, om_.c_str()),
            ACL_SUCCESS)
      << recent();
  ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
  const size_t image = 3 * 2 * 3;
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 2 * image);  // the largest gear's two images
  aclmdlDestroyDesc(desc);
  const auto img = pixels(2 * image, 5);
  void *in = nullptr, *gear = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, img.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&gear, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 2 * 18 * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(in, img.size(), img.data(), img.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclDataBuffer *bufs[] = {aclCreateDataBuffer(in, img.size()), aclCreateDataBuffer(gear, 8),
                           aclCreateDataBuffer(out, 2 * 18 * 4)};
  aclmdlAddDatasetBuffer(ins, bufs[0]);
  aclmdlAddDatasetBuffer(ins, bufs[1]);
  aclmdlAddDatasetBuffer(outs, bufs[2]);
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, ins, 1, 2), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlExecute(id_, ins, outs), ACL_SUCCESS) << recent();
  std::vector<float> y(36);
  aclrtMemcpy(y.data(), 144, out, 144, ACL_MEMCPY_DEVICE_TO_HOST);
  auto want = r.run({img.begin(), img.begin() + image});
  const auto second = r.run({img.begin() + image, img.end()});
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_EQ(y, want);
  for (auto *b : bufs) aclDestroyDataBuffer(b);
  aclmdlDestroyDataset(ins);
  aclmdlDestroyDataset(outs);
  for (void *p : {in, gear, out}) aclrtFree(p);
}

// With image size gears each gear's image is of the gear's size (src_image_size left 0).
TEST_F(Aipp, ImageSizeGearsTakeImagesOfTheGearsSize) {
  const std::string conf = "aipp_op { aipp_mode: static input_format: RGB888_U8 mean_chn_2: 20 }";
  const std::string onnx = identity(3, 4, 4).SerializeAsString();
  const char *names[] = {"insert_op_conf", "input_shape", "dynamic_image_size"};
  const char *values[] = {conf.c_str(), "x:1,3,-1,-1", "2,3;4,4"};
  om_ = write_temp("aipp_hw.om", "");
  ASSERT_EQ(openaclConvertModel(onnx.data(), onnx.size(), names, values, 3, om_.c_str()),
            ACL_SUCCESS)
      << recent();
  ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 4u * 4 * 3);  // the largest gear's image
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[1], -1);
  EXPECT_EQ(dims.dims[3], 3);
  aclmdlDestroyDesc(desc);
  Reference r{"RGB888_U8", 3, 2};
  r.crop_w = 3, r.crop_h = 2, r.mean[2] = 20;
  const auto img = pixels(3 * 2 * 3, 8);
  void *in = nullptr, *gear = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 48, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&gear, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(in, img.size(), img.data(), img.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclDataBuffer *bufs[] = {aclCreateDataBuffer(in, 48), aclCreateDataBuffer(gear, 16),
                           aclCreateDataBuffer(out, 192)};
  aclmdlAddDatasetBuffer(ins, bufs[0]);
  aclmdlAddDatasetBuffer(ins, bufs[1]);
  aclmdlAddDatasetBuffer(outs, bufs[2]);
  ASSERT_EQ(aclmdlSetDynamicHWSize(id_, ins, 1, 2, 3), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlExecute(id_, ins, outs), ACL_SUCCESS) << recent();
  std::vector<float> y(18);
  aclrtMemcpy(y.data(), 72, out, 72, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_EQ(y, r.run(img));
  for (auto *b : bufs) aclDestroyDataBuffer(b);
  aclmdlDestroyDataset(ins);
  aclmdlDestroyDataset(outs);
  for (void *p : {in, gear, out}) aclrtFree(p);
}

TEST_F(Aipp, ConfigurationErrorsNameTheKey) {
  const auto m = identity(3, 4, 4);
  struct Case {
    std::string conf, words;
  } cases[] = {
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 colour: 1 }",
       "'colour' is not an AIPP parameter"},
      {"aipp_op { aipp_mode: static input_format: NV12 }", "input_format: 'NV12' is not one of"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 single_line_mode: true }",
       "single_line_mode: true is not supported"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 rotation_angle: 45 }",
       "rotation_angle 45 is not 0, 90, 180 or 270"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 resize: true }",
       "resize without a crop_size needs src_image_size_w/h"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 resize: true src_image_size_w: 80 "
       "src_image_size_h: 4 }",
       "resizing 80x4 to 4x4 (WxH) leaves the scale range [1/16, 16]"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 rotation_angle: 90 "
       "src_image_size_w: 4 src_image_size_h: 4 crop: true crop_size_w: 4 crop_size_h: 2 }",
       "crop_size 2x4 (WxH, turned by the rotation) plus padding is not the model input's 4x4"},
      {"aipp_op { aipp_mode: dynamic }", "aipp_mode: dynamic needs max_src_image_size"},
      {"aipp_op { aipp_mode: static input_format: YUV400_U8 }",
       "gives 1 channels; the model input has 3"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 4 src_image_size_h: "
       "4 crop: true "
       "load_start_pos_w: 2 }",
       "leaves the 4x4 source image"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }",
       "related_input_rank 1 is out of range"},
      {"aipp_op { aipp_mode: static csc_switch: maybe }",
       "csc_switch: 'maybe' is not true or false"},
      {"aipp_op { aipp_mode: static", "no closing '}'"},
      {"aipp { }", "expected 'aipp_op {'"},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(convert(m, c.conf), ACL_ERROR_PARSE_MODEL) << c.conf;
    EXPECT_NE(recent().find("--insert_op_conf"), std::string::npos) << recent();
    EXPECT_NE(recent().find(c.words), std::string::npos) << c.conf << "\n" << recent();
  }
}

// Dynamic AIPP: the parameters come per execution, per image, through aclmdlSetInputAIPP.
TEST_F(Aipp, DynamicParametersPerImage) {
  const std::string conf =
      "aipp_op { aipp_mode: dynamic related_input_rank: 0 max_src_image_size: 200 }";
  const std::string onnx = identity(3, 4, 4).SerializeAsString();
  const char *names[] = {"insert_op_conf", "input_shape"}, *values[] = {conf.c_str(), "x:2,3,4,4"};
  om_ = write_temp("aipp_dynamic.om", "");
  ASSERT_EQ(openaclConvertModel(onnx.data(), onnx.size(), names, values, 2, om_.c_str()),
            ACL_SUCCESS)
      << recent();
  ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetNumInputs(desc), 2u);
  size_t index = 0;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_AIPP_NAME, &index), ACL_SUCCESS);
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 200u);
  size_t data_size = 0;
  ASSERT_EQ(aclmdlGetAippDataSize(2, &data_size), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), data_size);
  aclmdlDestroyDesc(desc);
  aclmdlInputAippType type{};
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id_, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITH_DYNAMIC_AIPP);
  EXPECT_EQ(attached, 1u);
  ASSERT_EQ(aclmdlGetAippType(id_, 1, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DYNAMIC_AIPP_NODE);

  // Two 6x5 RGB images: the first cropped at (1, 1) and mean-shifted, the second padded on top.
  Reference first{"RGB888_U8", 6, 5}, second{"RGB888_U8", 6, 5};
  first.crop_x = 1, first.crop_y = 1, first.crop_w = 4, first.crop_h = 4, first.mean[0] = 10;
  first.var[2] = 0.5f;
  second.crop_w = 4, second.crop_h = 3, second.top = 1;
  aclmdlAIPP *set = aclmdlCreateAIPP(2);
  ASSERT_NE(set, nullptr);
  ASSERT_EQ(aclmdlSetAIPPInputFormat(set, ACL_RGB888_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(set, 6, 5), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPRbuvSwapSwitch(set, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPCropParams(set, 1, 1, 1, 4, 4, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPDtcPixelMean(set, 10, 0, 0, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPPixelVarReci(set, 1, 1, 0.5f, 1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPPaddingParams(set, 1, 1, 0, 0, 0, 1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPPixelVarReci(set, 1, 1, 1, 1, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPCropParams(set, 1, 0, 0, 4, 4, 2), ACL_ERROR_INVALID_PARAM);  // batchIndex
  EXPECT_EQ(aclmdlSetAIPPScfParams(set, 2, 6, 5, 4, 4, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("scfSwitch is 2"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlSetAIPPScfParams(set, 1, 0, 5, 4, 4, 0), ACL_ERROR_INVALID_PARAM);

  const auto img = pixels(2 * 6 * 5 * 3, 6);
  void *in = nullptr, *params = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 200, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&params, data_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 2 * 48 * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemset(params, data_size, 0, data_size);
  aclrtMemcpy(in, img.size(), img.data(), img.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclDataBuffer *bufs[] = {aclCreateDataBuffer(in, 200), aclCreateDataBuffer(params, data_size),
                           aclCreateDataBuffer(out, 2 * 48 * 4)};
  aclmdlAddDatasetBuffer(ins, bufs[0]);
  aclmdlAddDatasetBuffer(ins, bufs[1]);
  aclmdlAddDatasetBuffer(outs, bufs[2]);
  // Nothing set yet: the execution fails and says why.
  EXPECT_NE(aclmdlExecute(id_, ins, outs), ACL_SUCCESS);
  EXPECT_NE(recent().find("aclmdlSetInputAIPP"), std::string::npos) << recent();

  EXPECT_EQ(aclmdlSetInputAIPP(id_, ins, 0, set),
            ACL_ERROR_INVALID_PARAM);  // not the parameter input
  ASSERT_EQ(aclmdlSetInputAIPP(id_, ins, 1, set), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlExecute(id_, ins, outs), ACL_SUCCESS) << recent();
  std::vector<float> y(96);
  aclrtMemcpy(y.data(), 384, out, 384, ACL_MEMCPY_DEVICE_TO_HOST);
  auto want = first.run({img.begin(), img.begin() + 90});
  const auto b = second.run({img.begin() + 90, img.end()});
  want.insert(want.end(), b.begin(), b.end());
  EXPECT_EQ(y, want);
  EXPECT_EQ(aclmdlSetAIPPByInputIndex(id_, ins, 0, set), ACL_SUCCESS) << recent();

  // What does not fit the model is refused when the parameters are set.
  aclmdlAIPP *one = aclmdlCreateAIPP(1);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, ins, 1, one), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("for 1 images"), std::string::npos) << recent();
  ASSERT_EQ(aclmdlSetAIPPCropParams(set, 1, 4, 0, 4, 4, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, ins, 1, set), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("dynamic AIPP of image 0: the crop window"), std::string::npos)
      << recent();
  EXPECT_EQ(aclmdlDestroyAIPP(one), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyAIPP(one), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyAIPP(set), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPInputFormat(set, ACL_RGB888_U8), ACL_ERROR_INVALID_PARAM);
  for (auto *buf : bufs) aclDestroyDataBuffer(buf);
  aclmdlDestroyDataset(ins);
  aclmdlDestroyDataset(outs);
  for (void *p : {in, params, out}) aclrtFree(p);
}

// Dynamic AIPP into an NHWC input: the parameters set per execution, the layout the model's.
TEST_F(Aipp, DynamicParametersIntoAnNhwcInput) {
  const std::string conf =
      "aipp_op { aipp_mode: dynamic related_input_rank: 0 max_src_image_size: 48 }";
  auto m = tiny_model();
  add_input(m, "x", {1, 4, 4, 3});
  add_initializer(m, "one", {1}, {1});
  add_node(m, "Mul", "same", {"x", "one"}, {"y"});
  add_output(m, "y");
  input_format_ = "NHWC";
  ASSERT_EQ(convert(m, conf), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
  Reference r{"RGB888_U8", 4, 4};
  r.crop_w = r.crop_h = 4, r.mean[0] = 20, r.mean[2] = 5, r.var[1] = 0.5f;
  aclmdlAIPP *set = aclmdlCreateAIPP(1);
  ASSERT_EQ(aclmdlSetAIPPInputFormat(set, ACL_RGB888_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(set, 4, 4), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPDtcPixelMean(set, 20, 0, 5, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPPixelVarReci(set, 1, 0.5f, 1, 1, 0), ACL_SUCCESS);
  const auto img = pixels(48, 8);
  std::vector<float> y(48);
  ASSERT_EQ(run_dynamic(set, img, y), ACL_SUCCESS) << recent();
  const auto planar = r.run(img);  // [3, 4, 4]
  std::vector<float> want;
  for (int p = 0; p < 16; ++p)
    for (int c = 0; c < 3; ++c) want.push_back(planar[c * 16 + p]);
  EXPECT_EQ(y, want);
  aclmdlDestroyAIPP(set);
}

// Dynamic resizing: aclmdlSetAIPPScfParams per image, its input size checked against the window.
TEST_F(Aipp, DynamicResizePerImage) { dynamic_resize(); }

TEST_F(Aipp, ModelWithoutAippSaysSo) {
  const std::string onnx = identity(3, 2, 2).SerializeAsString();
  ASSERT_EQ(aclmdlLoadFromMem(onnx.data(), onnx.size(), &id_), ACL_SUCCESS);
  aclmdlInputAippType type{};
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id_, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITHOUT_AIPP);
  EXPECT_EQ(aclmdlGetAippType(id_, 5, &type, &attached), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetAippType(id_, 0, nullptr, &attached), ACL_ERROR_INVALID_PARAM);
  aclAippInfo info{};
  EXPECT_EQ(aclmdlGetFirstAippInfo(id_, 0, &info), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("has no AIPP"), std::string::npos) << recent();
}

// The same pipelines on a backend whose device memory the host cannot address
// (support/staging_device.h): the weights go up through the backend's copies, AIPP reads the
// images and writes the graph's input through host views, and the results are those above.
class AippOnStagingDevice : public Aipp {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(openacl::api::init_with(nullptr, staging::parts()), ACL_SUCCESS) << recent();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};

TEST_F(AippOnStagingDevice, CropRotateResizeAndPadThroughHostViews) {
  const int copies = staging::counts().copies, views = staging::counts().views,
            kernels = staging::counts().kernels;
  whole_pipeline();
  // The weight, the image in and the result out; the image read and the graph input written.
  EXPECT_GE(staging::counts().copies - copies, 3);
  EXPECT_GE(staging::counts().views - views, 2);
  EXPECT_GE(staging::counts().kernels - kernels, 1);
}

TEST_F(AippOnStagingDevice, DynamicParametersGoThroughTheBackend) { dynamic_resize(); }

}  // namespace
