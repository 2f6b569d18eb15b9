// Model load errors (docs/RULES.md R18, R19): every way a model file can be wrong gives the
// documented error code and a message that says what was wrong.
#include <gtest/gtest.h>

#include <string>

#include "model_helpers.h"

using namespace model_test;

namespace {

std::string recent() { return aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""; }

// Runs first (suites run in declaration order): nothing is initialized yet.
TEST(ModelBeforeInit, LoadFailsUninitialized) {
  const std::string bytes = tiny_model().SerializeAsString();
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_ERROR_UNINITIALIZE);
}

class ModelLoad : public DeviceSuite {
 protected:
  static aclError load(const onnx::ModelProto &m, uint32_t *id) {
    const std::string bytes = m.SerializeAsString();
    return aclmdlLoadFromMem(bytes.data(), bytes.size(), id);
  }
  // x [1, 4] -> Relu -> y
  static onnx::ModelProto relu_model(int64_t opset = 13) {
    auto m = tiny_model(opset);
    add_input(m, "x", {1, 4});
    add_node(m, "Relu", "relu_1", {"x"}, {"y"});
    add_output(m, "y");
    return m;
  }
};

TEST_F(ModelLoad, MissingFileIsReadFailure) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/dir/model.onnx", &id), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_NE(recent().find("/nonexistent/dir/model.onnx"), std::string::npos) << recent();
  size_t work = 0, weight = 0;
  EXPECT_EQ(aclmdlQuerySize("/nonexistent/dir/model.onnx", &work, &weight),
            ACL_ERROR_READ_MODEL_FAILURE);
}

TEST_F(ModelLoad, TruncatedFileIsParseError) {
  const std::string bytes = read_file(cls_model());
  const std::string path = write_temp("truncated.onnx", bytes.substr(0, bytes.size() / 2));
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("truncated"), std::string::npos) << recent();
}

TEST_F(ModelLoad, NotAnOnnxFileIsParseError) {
  const std::string path = write_temp("text.onnx", "this is not a model\n");
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("not a valid ONNX model"), std::string::npos) << recent();
}

TEST_F(ModelLoad, UnsupportedOpNamesTheOpAndTheNode) {
  auto m = tiny_model();
  add_input(m, "x", {1, 4});
  add_node(m, "Relu", "relu_1", {"x"}, {"r"});
  add_node(m, "NonMaxSuppression", "my_nms", {"r"}, {"y"});
  add_output(m, "y");
  uint32_t id = 0;
  EXPECT_EQ(load(m, &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("'NonMaxSuppression'"), std::string::npos) << recent();
  EXPECT_NE(recent().find("'my_nms'"), std::string::npos) << recent();
}

TEST_F(ModelLoad, OpOfAnotherDomainIsUnsupported) {
  auto m = tiny_model();
  m.add_opset_import()->set_domain("com.microsoft");
  add_input(m, "x", {1, 4});
  add_node(m, "FusedGemm", "fused", {"x"}, {"y"})->set_domain("com.microsoft");
  add_output(m, "y");
  uint32_t id = 0;
  EXPECT_EQ(load(m, &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("com.microsoft::FusedGemm"), std::string::npos) << recent();
}

TEST_F(ModelLoad, OpsetOutOfRangeIsParseError) {
  uint32_t id = 0;
  EXPECT_EQ(load(relu_model(99), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("opset 99"), std::string::npos) << recent();
  EXPECT_EQ(load(relu_model(3), &id), ACL_ERROR_PARSE_MODEL);
}

TEST_F(ModelLoad, UndefinedTensorIsParseError) {
  auto m = tiny_model();
  add_input(m, "x", {1, 4});
  add_node(m, "Add", "add_1", {"x", "nowhere"}, {"y"});
  add_output(m, "y");
  uint32_t id = 0;
  EXPECT_EQ(load(m, &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("'nowhere'"), std::string::npos) << recent();
}

TEST_F(ModelLoad, WeightWithTooFewBytesIsParseError) {
  auto m = relu_model();
  add_initializer(m, "w", {2, 3}, {1, 2, 3});  // 3 values for 6 elements
  m.mutable_graph()->mutable_node(0)->set_input(0, "x");
  add_node(m, "Identity", "keep_w", {"w"}, {"w_out"});
  add_output(m, "w_out");
  uint32_t id = 0;
  EXPECT_EQ(load(m, &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("initializer 'w'"), std::string::npos) << recent();
}

TEST_F(ModelLoad, UnsupportedFeatureOfAKnownOpIsNamed) {
  auto m = tiny_model();
  add_input(m, "x", {1, 2, 4, 4, 4});  // a 3-D convolution
  add_initializer(m, "w", {2, 2, 3, 3, 3}, std::vector<float>(108, 0.5f));
  add_node(m, "Conv", "conv3d", {"x", "w"}, {"y"});
  add_output(m, "y");
  uint32_t id = 0;
  EXPECT_EQ(load(m, &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("'conv3d'"), std::string::npos) << recent();
}

TEST_F(ModelLoad, UnsupportedRnnFeaturesAreNamed) {
  auto lstm = [](const std::string &feature) {
    auto m = tiny_model(14);
    add_input(m, "x", {3, 1, 2});
    add_initializer(m, "w", {1, 8, 2}, std::vector<float>(16, 0.1f));
    add_initializer(m, "r", {1, 8, 2}, std::vector<float>(16, 0.1f));
    auto *n = add_node(m, "LSTM", "lstm_" + feature, {"x", "w", "r"}, {"y"});
    auto *hs = n->add_attribute();
    hs->set_name("hidden_size");
    hs->set_type(onnx::AttributeProto::INT);
    hs->set_i(2);
    auto *a = n->add_attribute();
    a->set_name(feature);
    if (feature == "clip") {
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(1.0f);
    } else {
      a->set_type(onnx::AttributeProto::STRINGS);
      for (const char *act : {"Relu", "Tanh", "Tanh"}) a->add_strings(act);
    }
    add_output(m, "y");
    return m;
  };
  uint32_t id = 0;
  EXPECT_EQ(load(lstm("clip"), &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("'lstm_clip'"), std::string::npos) << recent();
  EXPECT_NE(recent().find("clip"), std::string::npos) << recent();
  EXPECT_EQ(load(lstm("activations"), &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("activation 'Relu'"), std::string::npos) << recent();
}

TEST_F(ModelLoad, UnsupportedEinsumFormsAreNamed) {
  auto einsum = [](const std::string &equation) {
    auto m = tiny_model(12);
    add_input(m, "x", {3, 3});
    auto *n = add_node(m, "Einsum", "einsum", {"x"}, {"y"});
    auto *a = n->add_attribute();
    a->set_name("equation");
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(equation);
    add_output(m, "y");
    return m;
  };
  uint32_t id = 0;
  EXPECT_EQ(load(einsum("ii->i"), &id), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recent().find("diagonal"), std::string::npos) << recent();
  EXPECT_EQ(load(einsum("ij->ik"), &id),
            ACL_ERROR_MODEL_INPUT_NOT_MATCH);  // as other bad attributes
  EXPECT_NE(recent().find("'k' is in no operand"), std::string::npos) << recent();
}

TEST_F(ModelLoad, NullArguments) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFile(cls_model().c_str(), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromMem(nullptr, 10, &id), ACL_ERROR_INVALID_PARAM);
  const std::string bytes = relu_model().SerializeAsString();
  EXPECT_EQ(aclmdlLoadFromMem(bytes.data(), 0, &id), ACL_ERROR_INVALID_PARAM);
  size_t work = 0;
  EXPECT_EQ(aclmdlQuerySize(cls_model().c_str(), &work, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelLoad, UnloadTwiceIsInvalidModelId) {
  uint32_t id = 0;
  ASSERT_EQ(load(relu_model(), &id), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlUnload(987654), ACL_ERROR_INVALID_MODEL_ID);
}

TEST_F(ModelLoad, EachLoadGetsItsOwnId) {
  uint32_t a = 0, b = 0;
  ASSERT_EQ(aclmdlLoadFromFile(cls_model().c_str(), &a), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlLoadFromFile(cls_model().c_str(), &b), ACL_SUCCESS) << recent();
  EXPECT_NE(a, b);
  EXPECT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(b), ACL_SUCCESS);
}

TEST_F(ModelLoad, WeightsLiveInDeviceMemoryUntilUnload) {
  size_t free0 = 0, total = 0, free1 = 0, free2 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(rec_model().c_str(), &id), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), ACL_SUCCESS);
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(rec_model().c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_GT(weight, 1u << 20);
  EXPECT_EQ(free0 - free1, weight);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), ACL_SUCCESS);
  EXPECT_EQ(free2, free0);
}

}  // namespace
