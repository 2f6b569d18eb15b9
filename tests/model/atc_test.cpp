// The model converter (issue 14): `atc` turns an ONNX model into openacl's .om, which every
// aclmdlLoad* call and `openacl run` load with the same results as the ONNX; what it cannot
// convert (other frameworks, Huawei's .om, bad options, unsupported nodes) fails with a
// message that names the option or node and says what to do.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model_helpers.h"
#include "openacl/openacl_model.h"

using namespace model_test;
namespace fs = std::filesystem;

namespace {

std::string recent() { return aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""; }

struct Result {
  int status;
  std::string out;
};

Result run(const std::string &command) {
  FILE *p = popen((command + " 2>&1").c_str(), "r");
  Result r{-1, ""};
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  r.status = pclose(p);
  return r;
}

Result atc(const std::string &args) { return run(std::string(OPENACL_ATC) + " " + args); }

// x [1, 3, 2, 2] -> Mul(x, s) with s = [1, 2, 3] per channel -> Relu -> y
onnx::ModelProto scale_relu(std::vector<int64_t> dims = {1, 3, 2, 2}) {
  auto m = tiny_model();
  add_input(m, "x", dims);
  add_initializer(m, "s", {1, 3, 1, 1}, {1, 2, 3});
  add_node(m, "Mul", "scale", {"x", "s"}, {"t"});
  add_node(m, "Relu", "relu", {"t"}, {"y"});
  add_output(m, "y");
  return m;
}

std::vector<float> expected(const std::vector<float> &x, int64_t hw) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float s = static_cast<float>((i / hw) % 3 + 1);
    y[i] = std::max(0.0f, x[i] * s);
  }
  return y;
}

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) - static_cast<float>(n) / 3;
  return v;
}

class Atc : public DeviceSuite {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("openacl_atc_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }
  std::string write(const std::string &name, const std::string &bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  fs::path dir_;
};

// Runs model `id` once on one float input with aclmdlExecute; returns output 0 as floats.
std::vector<float> execute(uint32_t id, const std::vector<float> &x) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  const size_t out_bytes = aclmdlGetOutputSizeByIndex(desc, 0);
  aclmdlDestroyDesc(desc);
  void *in = nullptr, *out = nullptr;
  EXPECT_EQ(aclrtMalloc(&in, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&out, out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(in, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(ins, aclCreateDataBuffer(in, x.size() * 4));
  aclmdlAddDatasetBuffer(outs, aclCreateDataBuffer(out, out_bytes));
  EXPECT_EQ(aclmdlExecute(id, ins, outs), ACL_SUCCESS) << recent();
  std::vector<float> y(out_bytes / 4);
  EXPECT_EQ(aclrtMemcpy(y.data(), out_bytes, out, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (auto *d : {ins, outs}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i));
    aclmdlDestroyDataset(d);
  }
  aclrtFree(in);
  aclrtFree(out);
  return y;
}

TEST_F(Atc, ConvertedModelLoadsFromFileAndMemoryWithTheOnnxResults) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  const Result r =
      atc("--model=" + onnx + " --framework=5 --output=" + path("m") +
          " --soc_version=Ascend310P3 --input_format=NCHW --input_shape=x:1,3,2,2 --log=error");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("ATC run success"), std::string::npos) << r.out;
  const std::string om = read_file(path("m.om"));
  ASSERT_GT(om.size(), 8u);
  EXPECT_EQ(om.substr(0, 7), "OPENACL");

  const auto x = ramp(12);
  uint32_t from_onnx = 0, from_file = 0, from_mem = 0;
  ASSERT_EQ(aclmdlLoadFromFile(onnx.c_str(), &from_onnx), ACL_SUCCESS);
  ASSERT_EQ(aclmdlLoadFromFile(path("m.om").c_str(), &from_file), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &from_mem), ACL_SUCCESS) << recent();
  const auto want = expected(x, 4);
  EXPECT_EQ(execute(from_onnx, x), want);
  EXPECT_EQ(execute(from_file, x), want);
  EXPECT_EQ(execute(from_mem, x), want);
  size_t work = 0, weight = 0;
  EXPECT_EQ(aclmdlQuerySize(path("m.om").c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_GT(weight, 0u);
  for (uint32_t id : {from_onnx, from_file, from_mem}) aclmdlUnload(id);
}

TEST_F(Atc, InputShapeFixesADynamicInput) {
  const std::string onnx = write("d.onnx", scale_relu({-1, 3, -1, -1}).SerializeAsString());
  ASSERT_EQ(atc("--model=" + onnx + " --framework=5 --output=" + path("d") +
                " --soc_version=Ascend310 --input_shape=x:1,3,2,2")
                .status,
            0);
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDescFromFile(desc, path("d.om").c_str()), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 12u * 4);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 12u * 4);
  aclmdlDestroyDesc(desc);
}

TEST_F(Atc, OutputTypeAndOutNodes) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  ASSERT_EQ(atc("--model=" + onnx + " --framework=5 --output=" + path("h") +
                " --soc_version=Ascend310 --out_nodes=scale:0 -output_type=FP16 "
                "--precision_mode=force_fp16"
                " --op_select_implmode=high_precision --save_original_model=true")
                .status,
            0);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path("h.om").c_str(), &id), ACL_SUCCESS) << recent();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetNumOutputs(desc), 1u);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT16);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 12u * 2);
  // The output is the Mul's (before the Relu): negative values stay.
  const auto x = ramp(12);
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 48, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 24, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(in, 48, x.data(), 48, ACL_MEMCPY_HOST_TO_DEVICE);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclDataBuffer *bi = aclCreateDataBuffer(in, 48), *bo = aclCreateDataBuffer(out, 24);
  aclmdlAddDatasetBuffer(ins, bi);
  aclmdlAddDatasetBuffer(outs, bo);
  ASSERT_EQ(aclmdlExecute(id, ins, outs), ACL_SUCCESS) << recent();
  std::vector<uint16_t> y(12);
  aclrtMemcpy(y.data(), 24, out, 24, ACL_MEMCPY_DEVICE_TO_HOST);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(aclFloat16ToFloat(y[i]), x[i] * float(i / 4 + 1)) << i;
  aclDestroyDataBuffer(bi);
  aclDestroyDataBuffer(bo);
  aclmdlDestroyDataset(ins);
  aclmdlDestroyDataset(outs);
  aclrtFree(in);
  aclrtFree(out);
  aclmdlDestroyDesc(desc);
  aclmdlUnload(id);
}

TEST_F(Atc, InputFp16NodesTakeHalfData) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  ASSERT_EQ(atc("--model=" + onnx + " --framework=5 --output=" + path("f") +
                " --soc_version=Ascend310 --input_fp16_nodes=x")
                .status,
            0);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path("f.om").c_str(), &id), ACL_SUCCESS) << recent();
  aclmdlDesc *desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT16);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 12u * 2);
  aclmdlDestroyDesc(desc);
  aclmdlUnload(id);
  const Result r = atc("--model=" + onnx + " --framework=5 --output=" + path("f") +
                       " --soc_version=Ascend310 --input_fp16_nodes=y");
  EXPECT_NE(r.out.find("--input_fp16_nodes: the model has no input named 'y'"), std::string::npos)
      << r.out;
}

TEST_F(Atc, OtherFrameworksAreRefusedWithWhatToDo) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  for (const char *fw : {"0", "1", "3"}) {
    const Result r = atc("--model=" + onnx + " --framework=" + fw + " --output=" + path("x") +
                         " --soc_version=Ascend310 --weight=w.caffemodel");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.out.find("export the model to ONNX"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--framework=5"), std::string::npos) << r.out;
  }
  EXPECT_FALSE(fs::exists(path("x.om")));
}

TEST_F(Atc, HuaweiOmIsRecognisedEverywhere) {
  std::string huawei = "IMOD";
  huawei.resize(256, '\0');
  const std::string om = write("huawei.om", huawei);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("Huawei's ATC"), std::string::npos) << recent();
  EXPECT_NE(recent().find("ONNX"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlLoadFromMem(huawei.data(), huawei.size(), &id), ACL_ERROR_PARSE_MODEL);
  const Result r =
      atc("--model=" + om + " --framework=5 --output=" + path("y") + " --soc_version=Ascend310");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("already a .om"), std::string::npos) << r.out;
}

TEST_F(Atc, BadOptionsNameTheOptionAndTheInput) {
  const std::string onnx = write("m.onnx", scale_relu({-1, 3, 2, 2}).SerializeAsString());
  const std::string base =
      "--model=" + onnx + " --framework=5 --output=" + path("z") + " --soc_version=Ascend310 ";
  struct Case {
    std::string args, words;
  } cases[] = {
      {"--input_shape=img:1,3,2,2",
       "--input_shape: the model has no input named 'img' (its inputs: x)"},
      {"--input_shape=x:1,3,2", "has 4 dims in the model; 3 given"},
      {"--input_shape=x:1,4,2,2", "'scale'"},  // the Mul's [1, 3, 1, 1] operand no longer fits
      {"--input_shape=x:1~4,3,2,2", "shape range"},
      {"--input_shape=x:-1,3,2,2 --dynamic_batch_size=1", "1 gears given"},
      {"--input_shape=x:-1,3,2,2 --dynamic_batch_size=1,0", "value <= 0"},
      {"--input_shape=x:-1,3,2,2 --dynamic_image_size='2,2;4,4'", "an image size gear sets two"},
      {"--dynamic_batch_size=1,2", "gears need --input_shape"},
      {"--input_shape=x:-1,3,2,2 --dynamic_batch_size=1,2 --dynamic_dims='1;2'", "only one of"},
      {"--out_nodes=nope:0", "--out_nodes: the model has no node named 'nope'"},
      {"--out_nodes=relu:1", "node 'relu' (Relu) has no output 1"},
      {"--output_type=INT4", "--output_type: 'INT4' is not FP32, FP16 or UINT8"},
      {"--precision_mode=fastest", "--precision_mode: 'fastest' is not one of"},
      {"--op_select_implmode=fast", "--op_select_implmode: 'fast' is not one of"},
      {"--save_original_model=yes", "--save_original_model: 'yes' is not one of"},
      {"--input_format=NC1HWC0", "--input_format"},
      {"--mode=1", "--mode=1"},
  };
  for (const auto &c : cases) {
    const Result r = atc(base + c.args);
    EXPECT_NE(r.status, 0) << c.args;
    EXPECT_NE(r.out.find(c.words), std::string::npos) << c.args << "\n" << r.out;
  }
  EXPECT_NE(atc("--model=" + onnx + " --framework=5 --output=" + path("z")).status,
            0);  // --soc_version
}

// --singleop (the single-operator samples' step before aclopSetModelDir): every op of the list
// is checked like aclopCompile, and gets its op model file, named as CANN names it.
TEST_F(Atc, SingleOpListWritesOneOpModelPerOp) {
  const std::string list = write("ops.json", R"([
    {"op": "Add",
     "input_desc": [{"format": "ND", "shape": [8, 16], "type": "float32"},
                    {"format": "ND", "shape": [8, 16], "type": "float32"}],
     "output_desc": [{"format": "ND", "shape": [8, 16], "type": "float32"}]},
    {"op": "Conv2D",
     "input_desc": [{"format": "NHWC", "shape": [1, 5, 5, 3], "type": "float16", "name": "x"},
                    {"format": "NCHW", "shape": [2, 3, 3, 3], "type": "float16"}],
     "output_desc": [{"format": "NHWC", "shape": [1, 5, 5, 2], "type": "float16"}],
     "attr": [{"name": "strides", "type": "list_int", "value": [1, 1, 1, 1]},
              {"name": "pads", "type": "list_int", "value": [1, 1, 1, 1]}]},
    {"op": "ReduceSum",
     "input_desc": [{"format": "ND", "shape": [4, 6], "type": "float32"},
                    {"format": "ND", "shape": [1], "type": "int32", "is_const": true, "const_value": [1]}],
     "output_desc": [{"format": "ND", "shape": [4, 1], "type": "float32"}],
     "attr": [{"name": "keep_dims", "type": "bool", "value": true}]}
  ])");
  const Result r =
      atc("--singleop=" + list + " --soc_version=Ascend310 --output=" + path("op_models"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("ATC run success"), std::string::npos) << r.out;
  for (const char *file :
       {"0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om", "1_Conv2D_1_1_1_5_5_3_1_0_2_3_3_3_1_1_1_5_5_2.om",
        "2_ReduceSum_0_2_4_6_3_2_1_0_2_4_1.om"})
    EXPECT_TRUE(fs::exists(path("op_models/") + file)) << file;
  EXPECT_EQ(std::distance(fs::directory_iterator(path("op_models")), fs::directory_iterator()), 3);
}

TEST_F(Atc, SingleOpErrorsNameTheOpAndTheEntry) {
  const std::string x = R"({"format": "ND", "shape": [2, 3], "type": "float32"})";
  struct Case {
    std::string json, words;
  } cases[] = {
      {"[{\"op\": \"AddDsl\", \"input_desc\": [" + x + "," + x + "], \"output_desc\": [" + x +
           "]}]",
       "op 0 (\"AddDsl\")"},
      {"[{\"op\": \"Add\", \"input_desc\": [" + x + "," + x + "], \"output_desc\": [" +
           R"({"format": "ND", "shape": [3, 2], "type": "float32"})" + "]}]",
       "output 0"},
      {R"([{"op": "Relu", "input_desc": [{"format": "ND", "shape": [2], "type": "float33"}], "output_desc": []}])",
       "\"float33\" is not a data type"},
      {R"([{"op": "Relu", "input_desc": [{"format": "NCWH", "shape": [2], "type": "float32"}], "output_desc": []}])",
       "\"NCWH\" is not a format"},
      {R"([{"op": "Relu", "input_desc": [{"format": "ND", "shape": [2], "type": "float32", "colour": 1}]}])",
       "\"colour\" is not a key"},
      {"[{\"op\": \"Relu\", \"input_desc\": [" + x + "], \"output_desc\": [" + x +
           R"(], "attr": [{"name": "a", "type": "tensor", "value": 1}]}])",
       "\"tensor\" is not an attr type"},
      {"[{\"op\": \"Relu\", \"input_desc\": [" + x + "], \"output_desc\": [" + x +
           R"(], "attr": [{"name": "a", "type": "int", "value": "one"}]}])",
       "op 0 (\"Relu\")"},
      {"[{\"op\": \"Add\"", "is not JSON"},
      {"[]", "holds no op list"},
  };
  for (const auto &c : cases) {
    const Result r = atc("--singleop=" + write("bad.json", c.json) +
                         " --soc_version=Ascend310 --output=" + path("o"));
    EXPECT_NE(r.status, 0) << c.json;
    EXPECT_NE(r.out.find(c.words), std::string::npos) << c.json << "\n" << r.out;
  }
  EXPECT_NE(
      atc("--singleop=" + path("none.json") + " --soc_version=Ascend310 --output=" + path("o"))
          .out.find("cannot read"),
      std::string::npos);
  EXPECT_NE(atc("--singleop=" + path("none.json") +
                " --model=m.onnx --framework=5 --soc_version=Ascend310 --output=" + path("o"))
                .status,
            0);
}

TEST_F(Atc, UnsupportedNodeIsNamed) {
  auto m = tiny_model();
  add_input(m, "x", {1, 4});
  add_node(m, "Relu", "relu", {"x"}, {"t"});
  add_node(m, "NoSuchOp", "the_odd_one", {"t"}, {"y"});
  add_output(m, "y");
  const std::string onnx = write("u.onnx", m.SerializeAsString());
  const Result r =
      atc("--model=" + onnx + " --framework=5 --output=" + path("u") + " --soc_version=Ascend310");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("the_odd_one"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(path("u.om")));
}

TEST_F(Atc, ConvertApiChecksItsArguments) {
  const std::string onnx = scale_relu().SerializeAsString();
  EXPECT_EQ(openaclConvertModel(nullptr, 1, nullptr, nullptr, 0, path("a.om").c_str()),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(openaclConvertModel(onnx.data(), onnx.size(), nullptr, nullptr, 0, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      openaclConvertModel(onnx.data(), onnx.size(), nullptr, nullptr, 1, path("a.om").c_str()),
      ACL_ERROR_INVALID_PARAM);
  const char *names[] = {"frobnicate"}, *values[] = {"1"};
  EXPECT_EQ(openaclConvertModel(onnx.data(), onnx.size(), names, values, 1, path("a.om").c_str()),
            ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("--frobnicate"), std::string::npos) << recent();
  EXPECT_EQ(
      openaclConvertModel(onnx.data(), onnx.size(), nullptr, nullptr, 0, "/nonexistent/dir/a.om"),
      ACL_ERROR_WRITE_FILE);
  EXPECT_EQ(openaclConvertModel("garbage", 7, nullptr, nullptr, 0, path("a.om").c_str()),
            ACL_ERROR_PARSE_MODEL);
}

TEST_F(Atc, TruncatedOrNewerOmIsAParseError) {
  const std::string onnx = scale_relu().SerializeAsString();
  ASSERT_EQ(
      openaclConvertModel(onnx.data(), onnx.size(), nullptr, nullptr, 0, path("t.om").c_str()),
      ACL_SUCCESS);
  std::string om = read_file(path("t.om"));
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size() / 2, &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("truncated"), std::string::npos) << recent();
  om[8] = 99;  // the version
  EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(recent().find("version 99"), std::string::npos) << recent();
}

// Output 0 of model `id` for input x: its shape goes through a tensor descriptor (an ONNX model
// with dynamic dims) or a gear (with gears: the batch gear for a batch > 1, else the H/W gear).
std::vector<float> run_shaped(uint32_t id, const TensorF &x, bool gears) {
  const size_t in_bytes = x.data.size() * 4, out_bytes = 64 << 20;
  void *in = nullptr, *gear = nullptr, *out = nullptr;
  EXPECT_EQ(aclrtMalloc(&in, in_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&gear, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&out, out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtMemcpy(in, in_bytes, x.data.data(), in_bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  std::vector<aclDataBuffer *> bufs = {aclCreateDataBuffer(in, in_bytes),
                                       aclCreateDataBuffer(out, out_bytes)};
  aclmdlAddDatasetBuffer(ins, bufs[0]);
  aclmdlAddDatasetBuffer(outs, bufs[1]);
  if (gears) {
    bufs.push_back(aclCreateDataBuffer(gear, 16));
    aclmdlAddDatasetBuffer(ins, bufs[2]);
    if (x.dims[0] > 1)
      EXPECT_EQ(aclmdlSetDynamicBatchSize(id, ins, 1, x.dims[0]), ACL_SUCCESS) << recent();
    else
      EXPECT_EQ(aclmdlSetDynamicHWSize(id, ins, 1, x.dims[2], x.dims[3]), ACL_SUCCESS) << recent();
  } else {
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, x.dims.data(), ACL_FORMAT_NCHW);
    aclmdlSetDatasetTensorDesc(ins, td, 0);
    aclDestroyTensorDesc(td);
  }
  EXPECT_EQ(aclmdlExecute(id, ins, outs), ACL_SUCCESS) << recent();
  const size_t n = aclGetTensorDescSize(aclmdlGetDatasetTensorDesc(outs, 0)) / 4;
  std::vector<float> y(n);
  aclrtMemcpy(y.data(), n * 4, out, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (auto *b : bufs) aclDestroyDataBuffer(b);
  aclmdlDestroyDataset(ins);
  aclmdlDestroyDataset(outs);
  for (void *p : {in, gear, out}) aclrtFree(p);
  return y;
}

// The PP-OCR models (issue 14's goal): converted with gears, they give what their ONNX gives.
TEST_F(Atc, PpOcrModelsConvertWithGearsAndMatchTheirOnnx) {
  struct Case {
    std::string onnx, options;
    std::vector<int64_t> dims;
  } cases[] = {
      {cls_model(), "--input_shape=x:-1,3,48,192 --dynamic_batch_size=1,2,4", {2, 3, 48, 192}},
      {det_model(),
       "--input_shape=x:1,3,-1,-1 --dynamic_image_size='96,96;160,128'",
       {1, 3, 160, 128}},
  };
  for (const auto &c : cases) {
    ASSERT_EQ(atc("--model=" + c.onnx + " --framework=5 --output=" + path("p") +
                  " --soc_version=Ascend310P3 " + c.options)
                  .status,
              0)
        << c.options;
    uint32_t from_onnx = 0, from_om = 0;
    ASSERT_EQ(aclmdlLoadFromFile(c.onnx.c_str(), &from_onnx), ACL_SUCCESS);
    ASSERT_EQ(aclmdlLoadFromFile(path("p.om").c_str(), &from_om), ACL_SUCCESS) << recent();
    const TensorF x = random_input(c.dims, 3);
    const auto want = run_shaped(from_onnx, x, false);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(run_shaped(from_om, x, true), want) << c.options;
    aclmdlUnload(from_onnx);
    aclmdlUnload(from_om);
  }
}

TEST_F(Atc, OpenaclRunLoadsAnOm) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  ASSERT_EQ(
      atc("--model=" + onnx + " --framework=5 --output=" + path("r") + " --soc_version=Ascend310")
          .status,
      0);
  const Result r = run(std::string(OPENACL_TOOL) + " run " + path("r.om") + " --iterations 2");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("load time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output       y float32 1x3x2x2"), std::string::npos) << r.out;
}

TEST_F(Atc, OpenaclRunPicksAGear) {
  const std::string onnx = write("m.onnx", scale_relu().SerializeAsString());
  ASSERT_EQ(atc("--model=" + onnx + " --framework=5 --output=" + path("g") +
                " --soc_version=Ascend310 --input_shape=x:-1,3,2,2 --dynamic_batch_size=1,2,4")
                .status,
            0);
  const std::string tool = std::string(OPENACL_TOOL) + " run " + path("g.om") + " --iterations 1";
  Result r = run(tool + " --batch 2");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("output       y float32 2x3x2x2"), std::string::npos) << r.out;
  r = run(tool);  // the last gear
  EXPECT_NE(r.out.find("output       y float32 4x3x2x2"), std::string::npos) << r.out;
  r = run(tool + " --batch 3");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("no gear of the model"), std::string::npos) << r.out;
}

}  // namespace
