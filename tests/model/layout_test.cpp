// Which tensors the plan stores channels-last (model/layout.h), and how steps are restated.
// The numbers these layouts compute are checked against ONNX Runtime in lowering_test.cpp
// (conv_chain_channels_last) and ppocr_test.cpp.
#include <gtest/gtest.h>

#include "model/layout.h"

namespace openacl::model {
namespace {

using ops::DType;
using ops::TensorDesc;

class Layout : public ::testing::Test {
 protected:
  int value(std::vector<int64_t> dims, bool candidate = true) {
    descs_.push_back({DType::f32, std::move(dims), ops::Format::nd, {}});
    candidate_.push_back(candidate);
    return static_cast<int>(descs_.size() - 1);
  }
  void step(const char *type, std::vector<int> in, std::vector<int> out, ops::Attrs attrs = {}) {
    types_.push_back(std::make_unique<std::string>(type));
    attrs_.push_back(std::make_unique<ops::Attrs>(std::move(attrs)));
    steps_.push_back({types_.back().get(), std::move(in), std::move(out), attrs_.back().get()});
  }
  std::vector<bool> choose() { return choose_channels_last(steps_, descs_, candidate_); }

  std::vector<TensorDesc> descs_;
  std::vector<bool> candidate_;
  std::vector<std::unique_ptr<std::string>> types_;
  std::vector<std::unique_ptr<ops::Attrs>> attrs_;
  std::vector<LayoutStep> steps_;
};

TEST_F(Layout, TensorsBetweenConvolutionsGoChannelsLast) {
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false), c = value({1, 4, 8, 8}),
            r = value({1, 4, 8, 8}), w2 = value({4, 4, 1, 1}, false),
            y = value({1, 4, 8, 8}, false);
  step("Conv2D", {x, w}, {c});
  step("Relu", {c}, {r});
  step("Conv2D", {r, w2}, {y});
  const auto cl = choose();
  EXPECT_TRUE(cl[c]);
  EXPECT_TRUE(cl[r]);
  EXPECT_FALSE(cl[x]);
  EXPECT_FALSE(cl[y]);
}

// PP-OCR rec's last block: conv, activation, average pool, conv. A pooling takes either
// storage, so it no longer keeps the tensors around it NCHW (the conv before it then ran a
// blocked kernel with reorders, on one core).
TEST_F(Layout, PoolingBetweenConvolutionsKeepsChannelsLast) {
  const int x = value({1, 3, 6, 8}, false), w = value({4, 3, 1, 1}, false), c = value({1, 4, 6, 8}),
            r = value({1, 4, 6, 8}), p = value({1, 4, 3, 4}), w2 = value({4, 4, 1, 1}, false),
            y = value({1, 4, 3, 4}, false);
  step("Conv2D", {x, w}, {c});
  step("HardSwish", {c}, {r});
  step("AvgPoolV2", {r}, {p});
  step("Conv2D", {p, w2}, {y});
  const auto cl = choose();
  EXPECT_TRUE(cl[c]);
  EXPECT_TRUE(cl[r]);
  EXPECT_TRUE(cl[p]);
  std::vector<TensorDesc> in = {descs_[r]}, out = {descs_[p]};
  ops::Attrs attrs;
  ASSERT_TRUE(restate_step("AvgPoolV2", attrs, in, out, steps_[2], cl));
  EXPECT_TRUE(in[0].channels_last);
  EXPECT_TRUE(out[0].channels_last);
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 4, 3, 4}));  // NCHW dims, NHWC storage
}

TEST_F(Layout, AnotherConsumerKeepsTheWholeGroupNchw) {
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false), c = value({1, 4, 8, 8}),
            r = value({1, 4, 8, 8}), z = value({1, 4, 16, 16}, false);
  step("Conv2D", {x, w}, {c});
  step("Relu", {c}, {r});
  step("Resize", {r}, {z}, {{"mode", std::string("cubic")}});  // cubic: NCHW only
  const auto cl = choose();
  EXPECT_FALSE(cl[c]);
  EXPECT_FALSE(cl[r]);
}

TEST_F(Layout, ResizeAndConcatKeepChannelsLast) {
  // An FPN: a feature map upsampled, concatenated with another along C, convolved.
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false),
            small = value({1, 4, 4, 4}), big = value({1, 4, 8, 8}), up = value({1, 4, 8, 8}),
            cat = value({1, 8, 8, 8}), scales = value({4}, false), w2 = value({4, 8, 1, 1}, false),
            y = value({1, 4, 8, 8}, false);
  step("Conv2D", {x, w}, {small});
  step("Conv2D", {x, w}, {big});
  step("Resize", {small, -1, scales}, {up}, {{"mode", std::string("nearest")}});
  step("ConcatD", {up, big}, {cat}, {{"concat_dim", int64_t{1}}, {"N", int64_t{2}}});
  step("Conv2D", {cat, w2}, {y});
  const auto cl = choose();
  for (int v : {small, big, up, cat}) EXPECT_TRUE(cl[v]) << v;

  std::vector<TensorDesc> in{descs_[small], {}, descs_[scales]}, out{descs_[up]};
  ops::Attrs attrs{{"mode", std::string("nearest")}};
  ASSERT_TRUE(restate_step("Resize", attrs, in, out, steps_[2], cl));
  EXPECT_EQ(std::get<std::string>(attrs.at("data_format")), "NHWC");
  EXPECT_EQ(in[0].dims, (std::vector<int64_t>{1, 4, 4, 4}));
  EXPECT_EQ(in[2].dims, (std::vector<int64_t>{4}));  // scales keep ONNX's order
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 8, 8, 4}));

  in = {descs_[up], descs_[big]};
  out = {descs_[cat]};
  attrs = {{"concat_dim", int64_t{-3}}, {"N", int64_t{2}}};
  ASSERT_TRUE(restate_step("ConcatD", attrs, in, out, steps_[3], cl));
  EXPECT_EQ(std::get<int64_t>(attrs.at("concat_dim")), 3);  // C, last in NHWC
  EXPECT_EQ(in[1].dims, (std::vector<int64_t>{1, 8, 8, 4}));
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 8, 8, 8}));
}

TEST_F(Layout, OnlyPerChannelBroadcastsKeepChannelsLast) {
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false), c = value({1, 4, 8, 8}),
            s = value({1, 4, 1, 1}, false), m = value({1, 4, 8, 8}),
            row = value({1, 1, 8, 8}, false), a = value({1, 4, 8, 8}),
            w2 = value({4, 4, 1, 1}, false), y1 = value({1, 4, 8, 8}, false),
            y2 = value({1, 4, 8, 8}, false);
  step("Conv2D", {x, w}, {c});
  step("Mul", {c, s}, {m});  // per channel: fine
  step("Conv2D", {m, w2}, {y1});
  step("Add", {c, row}, {a});  // [1, 1, H, W]: not a per-channel view, blocks c and its group
  step("Conv2D", {a, w2}, {y2});
  const auto cl = choose();
  EXPECT_FALSE(cl[c]);
  EXPECT_FALSE(cl[m]);
  EXPECT_FALSE(cl[a]);
}

TEST_F(Layout, NothingChangesWithoutAConvolution) {
  const int x = value({1, 4, 8, 8}), r = value({1, 4, 8, 8}), y = value({1, 4, 8, 8}, false);
  step("Relu", {x}, {r});
  step("Sigmoid", {r}, {y});
  const auto cl = choose();
  EXPECT_FALSE(cl[x]);
  EXPECT_FALSE(cl[r]);
}

TEST_F(Layout, BatchNormKeepsChannelsLastThroughItsDataFormat) {
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false), c = value({1, 4, 8, 8}),
            p = value({4}, false), bn = value({1, 4, 8, 8}), y = value({1, 4, 16, 16}, false),
            s = value({4}, false);
  step("Conv2D", {x, w}, {c});
  step("BatchNorm", {c, p, p, p, p}, {bn});
  step("Conv2DTranspose", {s, bn, w}, {y});
  const auto cl = choose();
  ASSERT_TRUE(cl[c]);
  ASSERT_TRUE(cl[bn]);
  std::vector<TensorDesc> in{descs_[c], descs_[p], descs_[p], descs_[p], descs_[p]},
      out{descs_[bn]};
  ops::Attrs attrs{{"data_format", std::string("NCHW")}};
  ASSERT_TRUE(restate_step("BatchNorm", attrs, in, out, steps_[1], cl));
  EXPECT_EQ(std::get<std::string>(attrs.at("data_format")), "NHWC");
  EXPECT_EQ(in[0].dims, (std::vector<int64_t>{1, 8, 8, 4}));
  EXPECT_EQ(in[1].dims, (std::vector<int64_t>{4}));
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 8, 8, 4}));
}

TEST_F(Layout, StepsAreRestatedForChannelsLastStorage) {
  const int x = value({1, 3, 8, 8}, false), w = value({4, 3, 3, 3}, false), c = value({1, 4, 8, 8}),
            g = value({1, 4, 1, 1}, false), m = value({1, 4, 8, 8}), b = value({4, 1, 1}, false),
            w2 = value({4, 4, 1, 1}, false), y = value({1, 4, 8, 8}, false);
  step("Conv2D", {x, w}, {c});
  step("GlobalAveragePool", {c}, {g});
  step("Mul", {c, g}, {m});
  step("Add", {m, b}, {m});
  step("Conv2D", {m, w2}, {y});
  const auto cl = choose();
  ASSERT_TRUE(cl[c]);
  ASSERT_TRUE(cl[m]);

  std::vector<TensorDesc> in, out;
  ops::Attrs attrs;
  auto restate = [&](size_t k) {
    in.clear();
    out.clear();
    attrs.clear();
    for (int v : steps_[k].in) in.push_back(descs_[v]);
    for (int v : steps_[k].out) out.push_back(descs_[v]);
    return restate_step(*steps_[k].type, attrs, in, out, steps_[k], cl);
  };
  ASSERT_TRUE(restate(0));
  EXPECT_FALSE(in[0].channels_last);
  EXPECT_TRUE(out[0].channels_last);
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 4, 8, 8}));  // a conv keeps NCHW dims

  ASSERT_TRUE(restate(1));  // global pooling reads the channels-last tensor as it is
  EXPECT_TRUE(in[0].channels_last);
  EXPECT_EQ(in[0].dims, (std::vector<int64_t>{1, 4, 8, 8}));
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 4, 1, 1}));

  ASSERT_TRUE(restate(2));
  EXPECT_EQ(in[0].dims, (std::vector<int64_t>{1, 8, 8, 4}));
  EXPECT_EQ(in[1].dims, (std::vector<int64_t>{1, 1, 1, 4}));
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 8, 8, 4}));

  ASSERT_TRUE(restate(3));
  EXPECT_EQ(in[1].dims, (std::vector<int64_t>{1, 1, 4}));

  ASSERT_TRUE(restate(4));
  EXPECT_TRUE(in[0].channels_last);
  EXPECT_FALSE(out[0].channels_last);
}

}  // namespace
}  // namespace openacl::model
