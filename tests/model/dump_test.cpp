// Model dump (aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump, acl.json "dump"): the
// dumped layers' tensors as .npy files in CANN's directory layout, filters by model and layer,
// and the dump error codes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "model_helpers.h"
#include "support/staging_device.h"

using namespace model_test;
namespace fs = std::filesystem;

namespace {

// x [1, 6] -> add_layer (+1) -> mul_layer (x2) -> relu_layer -> y
std::string three_layer_model() {
  auto m = tiny_model();
  add_input(m, "x", {1, 6});
  add_initializer(m, "one", {}, {1.0f});
  add_initializer(m, "two", {}, {2.0f});
  add_node(m, "Add", "add_layer", {"x", "one"}, {"a"});
  add_node(m, "Mul", "mul_layer", {"a", "two"}, {"b"});
  add_node(m, "Relu", "relu_layer", {"b"}, {"y"});
  add_output(m, "y");
  return write_temp("dumped_net.onnx", m.SerializeAsString());
}

// The .npy files under dir by file name (without the timestamp part), with their floats.
std::map<std::string, std::vector<float>> dumped(const fs::path &dir) {
  std::map<std::string, std::vector<float>> out;
  if (!fs::exists(dir)) return out;
  for (const auto &e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string bytes = read_file(e.path().string());
    EXPECT_EQ(bytes.compare(0, 6, "\x93NUMPY"), 0) << e.path();
    const size_t header =
        10 + static_cast<uint8_t>(bytes[8]) + 256 * static_cast<uint8_t>(bytes[9]);
    EXPECT_NE(bytes.find("'descr': '<f4'"), std::string::npos) << e.path();
    std::vector<float> v((bytes.size() - header) / 4);
    std::memcpy(v.data(), bytes.data() + header, v.size() * 4);
    // <type>.<layer>.<step>.<us>.<input|output>.<k>.npy -> <type>.<layer>.<input|output>.<k>
    std::string name = e.path().filename().string();
    std::vector<std::string> parts;
    for (size_t p = 0, q; p <= name.size(); p = q + 1) {
      q = name.find('.', p);
      if (q == std::string::npos) q = name.size();
      parts.push_back(name.substr(p, q - p));
    }
    EXPECT_EQ(parts.size(), 7u) << name;
    if (parts.size() == 7) out[parts[0] + "." + parts[1] + "." + parts[4] + "." + parts[5]] = v;
    // .../<model name>/<model id>/<iteration>/<file>
    EXPECT_EQ(e.path().parent_path().parent_path().parent_path().filename(), "dumped_net")
        << e.path();
  }
  return out;
}

class ModelDump : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("openacl_dump_test_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    aclrtResetDevice(0);
    aclFinalize();
    fs::remove_all(root_);
  }
  std::string config(const std::string &dump_json) {
    const std::string path = (root_ / "dump.json").string();
    std::ofstream(path) << "{\"dump\": " << dump_json << "}";
    return path;
  }
  std::string dump_dir() const { return (root_ / "out").string(); }
  fs::path root_;
};

TEST_F(ModelDump, AclJsonDumpsEveryLayerOutputOfTheListedModel) {
  ASSERT_EQ(aclInit(config("{\"dump_path\": \"" + dump_dir() +
                           "\", \"dump_list\": [{\"model_name\": \"dumped_net\"}]}")
                        .c_str()),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  AclModel model(three_layer_model());
  TensorF x{{1, 6}, {-3, -2, -1, 0, 1, 2}};
  const auto y = model.run(x);
  const auto files = dumped(dump_dir());
  ASSERT_EQ(files.size(), 3u) << "one output per layer";
  EXPECT_EQ(files.at("Add.add_layer.output.0"), (std::vector<float>{-2, -1, 0, 1, 2, 3}));
  EXPECT_EQ(files.at("Mul.mul_layer.output.0"), (std::vector<float>{-4, -2, 0, 2, 4, 6}));
  EXPECT_EQ(files.at("Relu.relu_layer.output.0"), y[0].data);
}

// On a backend whose device memory the host cannot address (support/staging_device.h), the
// dump reads each tensor through a host view: the same files.
TEST_F(ModelDump, TensorsOfAStagingBackendAreReadThroughHostViews) {
  ASSERT_EQ(openacl::api::init_with(config("{\"dump_path\": \"" + dump_dir() +
                                           "\", \"dump_mode\": \"all\", \"dump_list\": "
                                           "[{\"model_name\": \"dumped_net\"}]}")
                                        .c_str(),
                                    staging::parts()),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  AclModel model(three_layer_model());
  const int views = staging::counts().views;
  const auto y = model.run(TensorF{{1, 6}, {-3, -2, -1, 0, 1, 2}});
  EXPECT_GE(staging::counts().views - views, 6) << "two inputs and an output per layer";
  const auto files = dumped(dump_dir());
  ASSERT_EQ(files.size(), 8u);
  EXPECT_EQ(files.at("Add.add_layer.input.0"), (std::vector<float>{-3, -2, -1, 0, 1, 2}));
  EXPECT_EQ(files.at("Mul.mul_layer.input.1"), (std::vector<float>{2}));
  EXPECT_EQ(files.at("Mul.mul_layer.output.0"), (std::vector<float>{-4, -2, 0, 2, 4, 6}));
  EXPECT_EQ(files.at("Relu.relu_layer.output.0"), y[0].data);
}

TEST_F(ModelDump, SetDumpFiltersLayersAndFinalizeStopsIt) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const std::string cfg =
      config("{\"dump_path\": \"" + dump_dir() +
             "\", \"dump_mode\": \"all\", \"dump_list\": [{\"model_name\": \"dumped_net\", "
             "\"layer\": [\"mul_layer\"]}, {\"model_name\": \"another\"}]}");
  EXPECT_EQ(aclmdlSetDump(cfg.c_str()), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
  ASSERT_EQ(aclmdlSetDump(cfg.c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
  AclModel model(three_layer_model());
  model.run(TensorF{{1, 6}, {1, 2, 3, 4, 5, 6}});
  auto files = dumped(dump_dir());
  ASSERT_EQ(files.size(), 3u) << "mul_layer's two inputs and its output";
  EXPECT_EQ(files.at("Mul.mul_layer.input.0"), (std::vector<float>{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(files.at("Mul.mul_layer.input.1"), (std::vector<float>{2}));
  EXPECT_EQ(files.at("Mul.mul_layer.output.0"), (std::vector<float>{4, 6, 8, 10, 12, 14}));
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  fs::remove_all(dump_dir());
  model.run(TensorF{{1, 6}, {1, 2, 3, 4, 5, 6}});
  EXPECT_TRUE(dumped(dump_dir()).empty());
}

TEST_F(ModelDump, BadConfigurationsAreRefusedWithTheDumpCodes) {
  const std::string bad_mode =
      config("{\"dump_path\": \"/tmp\", \"dump_mode\": \"everything\", \"dump_list\": []}");
  EXPECT_EQ(aclInit(bad_mode.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dump_mode"), std::string::npos)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetDump(bad_mode.c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_EQ(aclmdlSetDump(config("{\"dump_list\": []}").c_str()), ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dump_path"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclmdlSetDump((root_ / "missing.json").c_str()), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(aclmdlSetDump(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
}

}  // namespace

namespace {

TEST_F(ModelDump, OpSwitchDumpsEachSingleOpCall) {
  ASSERT_EQ(aclInit(config("{\"dump_path\": \"" + dump_dir() +
                           "\", \"dump_mode\": \"all\", \"dump_op_switch\": \"on\"}")
                        .c_str()),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const int64_t dims[] = {2, 3};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{10, 20, 30, 40, 50, 60};
  void *da = nullptr, *db = nullptr, *dy = nullptr;
  for (void **p : {&da, &db, &dy})
    ASSERT_EQ(aclrtMalloc(p, 24, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(da, 24, a.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(db, 24, b.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclDataBuffer *ins[] = {aclCreateDataBuffer(da, 24), aclCreateDataBuffer(db, 24)};
  aclDataBuffer *outs[] = {aclCreateDataBuffer(dy, 24)};
  const aclTensorDesc *in_descs[] = {desc, desc};
  const aclTensorDesc *out_descs[] = {desc};
  aclopAttr *attr = aclopCreateAttr();
  ASSERT_EQ(aclopExecuteV2("Add", 2, const_cast<aclTensorDesc **>(in_descs), ins, 1,
                           const_cast<aclTensorDesc **>(out_descs), outs, attr, nullptr),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::map<std::string, std::vector<float>> files;
  for (const auto &e : fs::recursive_directory_iterator(dump_dir())) {
    if (!e.is_regular_file()) continue;
    EXPECT_EQ(e.path().parent_path().filename(), "op") << e.path();
    const std::string bytes = read_file(e.path().string());
    const size_t header =
        10 + static_cast<uint8_t>(bytes[8]) + 256 * static_cast<uint8_t>(bytes[9]);
    std::vector<float> v((bytes.size() - header) / 4);
    std::memcpy(v.data(), bytes.data() + header, v.size() * 4);
    const std::string name =
        e.path().filename().string();  // Add.<call>.<us>.<input|output>.<k>.npy
    const size_t kind =
        name.find(".input.") != std::string::npos ? name.find(".input.") : name.find(".output.");
    files[name.substr(0, name.find('.')) + name.substr(kind)] = v;
  }
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files.at("Add.input.0.npy"), a);
  EXPECT_EQ(files.at("Add.input.1.npy"), b);
  EXPECT_EQ(files.at("Add.output.0.npy"), (std::vector<float>{11, 22, 33, 44, 55, 66}));
  aclopDestroyAttr(attr);
  for (auto *d : ins) aclDestroyDataBuffer(d);
  aclDestroyDataBuffer(outs[0]);
  aclDestroyTensorDesc(desc);
  for (void *p : {da, db, dy}) aclrtFree(p);
}

}  // namespace
