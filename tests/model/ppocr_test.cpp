// Every output of the three PP-OCR models against ONNX Runtime on fixed seeded inputs
// (relative error <= 1e-4, float32), the det model's pre-sigmoid map, dynamic shapes on one
// loaded model, and two streams running one model at the same time.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>

#include "model_helpers.h"

using namespace model_test;

namespace {

constexpr double kTolerance = 1e-4;

class PpOcr : public DeviceSuite {
 protected:
  static void expect_match(const std::vector<TensorF> &ours, const std::vector<TensorF> &ref) {
    ASSERT_EQ(ours.size(), ref.size());
    for (size_t j = 0; j < ours.size(); ++j) {
      EXPECT_EQ(ours[j].dims, ref[j].dims) << "output " << j;
      const double err = relative_error(ours[j].data, ref[j].data);
      EXPECT_LE(err, kTolerance) << "output " << j << " relative error " << err;
    }
  }

  static void compare_with_ort(const std::string &path, std::vector<int64_t> dims, uint32_t seed) {
    AclModel model(path);
    const TensorF input = random_input(std::move(dims), seed);
    expect_match(model.run(input), ort_run(path, "x", input));
  }
};

TEST_F(PpOcr, ClsMatchesOnnxRuntime) { compare_with_ort(cls_model(), {1, 3, 48, 192}, 1); }

TEST_F(PpOcr, ClsBatch8MatchesOnnxRuntime) { compare_with_ort(cls_model(), {8, 3, 48, 192}, 2); }

TEST_F(PpOcr, RecMatchesOnnxRuntime) { compare_with_ort(rec_model(), {1, 3, 48, 320}, 3); }

// On random inputs the det sigmoid map is almost all zeros, where ONNX Runtime's fast sigmoid
// is off by up to ~1e-7 absolute (relatively large): so the map is checked against the exact
// sigmoid of ORT's pre-sigmoid map (and absolutely against ORT's), and the pre-sigmoid map,
// exposed as an extra graph output in a copy of the model, against ORT's directly.
TEST_F(PpOcr, DetMatchesOnnxRuntime) {
  onnx::ModelProto m;
  const std::string bytes = read_file(det_model());
  ASSERT_TRUE(m.ParseFromString(bytes));
  std::string pre;
  for (const auto &n : m.graph().node())
    if (n.op_type() == "Sigmoid") pre = n.input(0);
  ASSERT_FALSE(pre.empty());
  auto *out = m.mutable_graph()->add_output();
  out->set_name(pre);
  out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  const std::string model_bytes = m.SerializeAsString();
  const std::string path = write_temp("det_presigmoid.onnx", model_bytes);

  const TensorF input = random_input({1, 3, 640, 640}, 4);
  const auto ref = ort_run(path, "x", input);
  ASSERT_EQ(ref.size(), 2u);
  // The copy is loaded from memory (aclmdlLoadFromMem).
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(model_bytes.data(), model_bytes.size(), &id), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  const size_t map_bytes = input.data.size() / 3 * sizeof(float);
  DeviceIo io(desc, input, {map_bytes, map_bytes});
  ASSERT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_SUCCESS) << aclGetRecentErrMsg();
  const auto ours = io.read_outputs();
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  ASSERT_EQ(ours.size(), 2u);
  for (size_t j = 0; j < 2; ++j) EXPECT_EQ(ours[j].dims, ref[j].dims);

  const double pre_err = relative_error(ours[1].data, ref[1].data);
  EXPECT_LE(pre_err, kTolerance) << "pre-sigmoid relative error " << pre_err;
  float lo = ours[1].data[0], hi = lo;
  for (float v : ours[1].data) lo = std::min(lo, v), hi = std::max(hi, v);
  EXPECT_GT(hi - lo, 1.0f) << "the pre-sigmoid map carries no signal";

  std::vector<float> exact(ref[1].data.size());
  double max_abs = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    exact[i] = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(ref[1].data[i]))));
    max_abs = std::max(max_abs, std::fabs(double(ours[0].data[i]) - ref[0].data[i]));
  }
  const double map_err = relative_error(ours[0].data, exact);
  EXPECT_LE(map_err, kTolerance) << "sigmoid map relative error " << map_err;
  EXPECT_LE(max_abs, 1e-6) << "sigmoid map vs ORT's, absolute";

  // The unmodified model gives the same map.
  AclModel plain(det_model());
  const auto plain_out = plain.run(input);
  ASSERT_EQ(plain_out.size(), 1u);
  EXPECT_LE(relative_error(plain_out[0].data, ours[0].data), 1e-6);
}

// One loaded model, two widths: one plan per shape, both right.
TEST_F(PpOcr, RecDynamicWidths) {
  AclModel model(rec_model());
  for (int64_t w : {160, 480}) {
    const TensorF input = random_input({1, 3, 48, w}, static_cast<uint32_t>(w));
    expect_match(model.run(input), ort_run(rec_model(), "x", input));
    aclmdlIODims dims{};
    ASSERT_EQ(aclmdlGetCurOutputDims(model.desc(), 0, &dims), ACL_SUCCESS);
    ASSERT_EQ(dims.dimCount, 3u);
    EXPECT_EQ(dims.dims[1], w / 8);
  }
}

TEST_F(PpOcr, TwoStreamsRunOneModelConcurrently) {
  AclModel model(cls_model());
  const TensorF a = random_input({1, 3, 48, 192}, 10), b = random_input({1, 3, 48, 192}, 11);
  const auto ref_a = ort_run(cls_model(), "x", a), ref_b = ort_run(cls_model(), "x", b);
  aclrtStream s1 = nullptr, s2 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  constexpr int kRuns = 8;
  std::vector<std::unique_ptr<DeviceIo>> ios;
  for (int i = 0; i < 2 * kRuns; ++i)
    ios.push_back(std::make_unique<DeviceIo>(model.desc(), i % 2 ? b : a, std::vector<size_t>{8}));
  for (int i = 0; i < 2 * kRuns; ++i)
    ASSERT_EQ(aclmdlExecuteAsync(model.id(), ios[i]->in(), ios[i]->out(), i % 2 ? s2 : s1),
              ACL_SUCCESS)
        << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << aclGetRecentErrMsg();
  for (int i = 0; i < 2 * kRuns; ++i) expect_match(ios[i]->read_outputs(), i % 2 ? ref_b : ref_a);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
}

}  // namespace
