// A model with weights on a backend whose device memory the host cannot address
// (support/staging_device.h): the weights go up through the backend's copies, the convolution's
// kernel is handed them as device memory when the plan binds them (PreparedOp::bind_constant,
// the backend's own code, which packs them once) and when it runs, and the result is the
// convolution's.
#include <gtest/gtest.h>

#include <vector>

#include "model_helpers.h"
#include "support/staging_device.h"

using namespace model_test;

namespace {

// x [1, 2, 4, 4] -> 3x3 convolution (3 output channels, pad 1, bias) -> y [1, 3, 4, 4]
constexpr int kC = 2, kO = 3, kS = 4;

std::vector<float> weights() {
  std::vector<float> w(kO * kC * 9);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(int(i % 7) - 3) * 0.25f;
  return w;
}

std::string conv_model() {
  auto m = tiny_model();
  add_input(m, "x", {1, kC, kS, kS});
  add_initializer(m, "w", {kO, kC, 3, 3}, weights());
  add_initializer(m, "b", {kO}, {0.5f, -1.0f, 2.0f});
  auto *conv = add_node(m, "Conv", "conv", {"x", "w", "b"}, {"y"});
  set_ints(conv, "pads", {1, 1, 1, 1});
  set_ints(conv, "kernel_shape", {3, 3});
  add_output(m, "y");
  return write_temp("staging_conv.onnx", m.SerializeAsString());
}

// The convolution in doubles.
std::vector<float> reference(const std::vector<float> &x) {
  const std::vector<float> w = weights(), b{0.5f, -1.0f, 2.0f};
  std::vector<float> y(kO * kS * kS);
  for (int o = 0; o < kO; ++o)
    for (int r = 0; r < kS; ++r)
      for (int c = 0; c < kS; ++c) {
        double acc = b[o];
        for (int i = 0; i < kC; ++i)
          for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc) {
              const int rr = r + dr, cc = c + dc;
              if (rr < 0 || rr >= kS || cc < 0 || cc >= kS) continue;
              acc +=
                  double{w[((o * kC + i) * 3 + dr + 1) * 3 + dc + 1]} * x[(i * kS + rr) * kS + cc];
            }
        y[(o * kS + r) * kS + c] = static_cast<float>(acc);
      }
  return y;
}

TEST(ModelOnStagingDevice, ConvolutionWeightsAreBoundAsDeviceMemory) {
  ASSERT_EQ(openacl::api::init_with(nullptr, staging::parts()), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  {
    const int copies = staging::counts().copies;
    AclModel model(conv_model());
    EXPECT_GE(staging::counts().copies - copies, 2) << "the weight and the bias went up";
    const TensorF x = random_input({1, kC, kS, kS}, 5);
    const int kernels = staging::counts().kernels;
    const auto y = model.run(x);
    EXPECT_GE(staging::counts().kernels - kernels, 1);
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(y[0].dims, (std::vector<int64_t>{1, kO, kS, kS}));
    EXPECT_LT(relative_error(y[0].data, reference(x.data)), 1e-5);
  }
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace
