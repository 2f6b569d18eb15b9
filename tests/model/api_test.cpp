// The model description, dataset and execution API (docs/RULES.md R18, R20):
// descriptors of a dynamic and a static model, caller-given memory, execution argument
// errors, device failures during an execution, and unloading with executions in flight.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <future>

#include "model_helpers.h"

using namespace model_test;

namespace {

std::string recent() { return aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""; }

// x [1,2,4,4] -> Conv(w [3,2,3,3], b [3], pads 1) -> Mul(per-channel k [3,1,1]) -> Relu -> y
struct ConvModel {
  std::vector<float> w, b, k;
  std::string bytes;

  ConvModel() {
    for (int i = 0; i < 54; ++i) w.push_back(std::sin(0.7f * i));
    b = {0.1f, -0.2f, 0.3f};
    k = {2.0f, -1.0f, 0.5f};
    auto m = tiny_model();
    add_input(m, "x", {1, 2, 4, 4});
    add_initializer(m, "w", {3, 2, 3, 3}, w);
    add_initializer(m, "b", {3}, b);
    add_initializer(m, "k", {3, 1, 1}, k);
    auto *conv = add_node(m, "Conv", "conv", {"x", "w", "b"}, {"c"});
    set_ints(conv, "pads", {1, 1, 1, 1});
    set_ints(conv, "kernel_shape", {3, 3});
    add_node(m, "Mul", "scale", {"c", "k"}, {"s"});
    add_node(m, "Relu", "relu", {"s"}, {"y"});
    add_output(m, "y");
    bytes = m.SerializeAsString();
  }

  std::vector<float> reference(const std::vector<float> &x) const {
    std::vector<float> y(3 * 16);
    for (int o = 0; o < 3; ++o)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          float acc = b[o];
          for (int c = 0; c < 2; ++c)
            for (int u = 0; u < 3; ++u)
              for (int v = 0; v < 3; ++v) {
                const int ii = i + u - 1, jj = j + v - 1;
                if (ii < 0 || ii >= 4 || jj < 0 || jj >= 4) continue;
                acc += w[((o * 2 + c) * 3 + u) * 3 + v] * x[(c * 4 + ii) * 4 + jj];
              }
          y[(o * 4 + i) * 4 + j] = std::max(0.0f, acc * k[o]);
        }
    return y;
  }
};

class ModelApi : public DeviceSuite {};

TEST_F(ModelApi, DescribesADynamicModel) {
  AclModel m(cls_model());
  aclmdlDesc *d = m.desc();
  ASSERT_EQ(aclmdlGetNumInputs(d), 1u);
  ASSERT_EQ(aclmdlGetNumOutputs(d), 1u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(d, 0), "x");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(d, 0), "softmax_0.tmp_0");
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "x");
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[0], -1);
  EXPECT_EQ(dims.dims[1], 3);
  EXPECT_EQ(dims.dims[3], -1);
  ASSERT_EQ(aclmdlGetOutputDims(d, 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[1], 2);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(d, 0), 0u);  // X5: dynamic dims have no size
  aclmdlIODimsRange range{};
  ASSERT_EQ(aclmdlGetInputDimsRange(d, 0, &range), ACL_SUCCESS) << recent();
  ASSERT_EQ(range.rangeCount, 4u);
  EXPECT_EQ(range.range[0][0], 1);  // dynamic: [1, unbounded]
  EXPECT_EQ(range.range[0][1], -1);
  EXPECT_EQ(range.range[1][0], 3);  // static: [3, 3]
  EXPECT_EQ(range.range[1][1], 3);
  EXPECT_EQ(aclmdlGetInputDimsRange(d, 1, &range), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("aclmdlGetInputDimsRange"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlGetInputDimsRange(d, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("dimsRange is NULL"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlGetInputDataType(d, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetInputFormat(d, 0), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclmdlGetOutputFormat(d, 0), ACL_FORMAT_ND);
  size_t index = 9;
  ASSERT_EQ(aclmdlGetInputIndexByName(d, "x", &index), ACL_SUCCESS);
  EXPECT_EQ(index, 0u);
  EXPECT_EQ(aclmdlGetInputIndexByName(d, "nope", &index), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetOutputIndexByName(d, "softmax_0.tmp_0", &index), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputDims(d, 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("out of range"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlGetInputDims(d, 0, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelApi, DescribesAStaticModelAndItsSizes) {
  ConvModel cm;
  const std::string path = write_temp("conv.onnx", cm.bytes);
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(path.c_str(), &work, &weight), ACL_SUCCESS) << recent();
  EXPECT_GE(weight, (54 + 3) * sizeof(float));
  AclModel m(path);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(m.desc(), 0), 2 * 16 * sizeof(float));
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(m.desc(), 0), 3 * 16 * sizeof(float));
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetOutputDims(m.desc(), 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[1], 3);
  // The same from the file, without loading.
  aclmdlDesc *d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDescFromFile(d, path.c_str()), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(d, 0), 3 * 16 * sizeof(float));
  EXPECT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(d), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelApi, ComputesAConvModelExactly) {
  ConvModel cm;
  AclModel m(write_temp("conv.onnx", cm.bytes));
  const TensorF x = random_input({1, 2, 4, 4}, 7);
  const auto out = m.run(x);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dims, (std::vector<int64_t>{1, 3, 4, 4}));
  EXPECT_LE(relative_error(out[0].data, cm.reference(x.data)), 1e-5);
}

TEST_F(ModelApi, LoadWithCallerMemory) {
  ConvModel cm;
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(cm.bytes.data(), cm.bytes.size(), &work, &weight), ACL_SUCCESS);
  void *work_ptr = nullptr, *weight_ptr = nullptr;
  ASSERT_EQ(aclrtMalloc(&work_ptr, std::max<size_t>(work, 64), ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&weight_ptr, weight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMemWithMem(cm.bytes.data(), cm.bytes.size(), &id, work_ptr, work,
                                     weight_ptr, weight / 2),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlLoadFromMemWithMem(cm.bytes.data(), cm.bytes.size(), &id, work_ptr,
                                     std::max<size_t>(work, 64), weight_ptr, weight),
            ACL_SUCCESS)
      << recent();
  aclmdlDesc *d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  const TensorF x = random_input({1, 2, 4, 4}, 8);
  {
    DeviceIo io(d, x, {3 * 16 * sizeof(float)});
    ASSERT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_SUCCESS) << recent();
    EXPECT_LE(relative_error(io.read_outputs()[0].data, cm.reference(x.data)), 1e-5);
  }
  // Host memory is not device memory.
  std::vector<uint8_t> host(weight);
  uint32_t bad = 0;
  EXPECT_EQ(aclmdlLoadFromMemWithMem(cm.bytes.data(), cm.bytes.size(), &bad, nullptr, 0,
                                     host.data(), weight),
            ACL_ERROR_INVALID_PARAM);
  aclmdlDestroyDesc(d);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  aclrtFree(work_ptr);
  aclrtFree(weight_ptr);
}

TEST_F(ModelApi, ExecuteArgumentErrors) {
  AclModel m(cls_model());
  const TensorF x = random_input({1, 3, 48, 192}, 1);
  DeviceIo io(m.desc(), x, {8});
  EXPECT_EQ(aclmdlExecute(m.id(), nullptr, io.out()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecute(123456, io.in(), io.out()), ACL_ERROR_INVALID_MODEL_ID);
  // Output buffer too small for [1, 2] floats.
  {
    DeviceIo small(m.desc(), x, {4});
    EXPECT_EQ(aclmdlExecute(m.id(), small.in(), small.out()), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    EXPECT_NE(recent().find("needs 8 bytes"), std::string::npos) << recent();
  }
  // Wrong channel count in the dataset's shape.
  {
    const TensorF x4 = random_input({1, 4, 48, 192}, 1);
    DeviceIo wrong(m.desc(), x4, {8});
    EXPECT_EQ(aclmdlExecute(m.id(), wrong.in(), wrong.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    EXPECT_NE(recent().find("[?x3x?x?]"), std::string::npos) << recent();
  }
  // A dynamic input needs its shape.
  {
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *buf = aclmdlGetDatasetBuffer(io.in(), 0);
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, buf), ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(m.id(), in, io.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    EXPECT_NE(recent().find("aclmdlSetDatasetTensorDesc"), std::string::npos) << recent();
    // Two inputs for a one-input model.
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, buf), ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(m.id(), in, io.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    aclmdlDestroyDataset(in);
  }
  // Host memory as an input buffer.
  {
    std::vector<float> host(x.data);
    aclmdlDataset *in = aclmdlCreateDataset();
    aclDataBuffer *buf = aclCreateDataBuffer(host.data(), host.size() * sizeof(float));
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, buf), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(in, aclmdlGetDatasetTensorDesc(io.in(), 0), 0),
              ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(m.id(), in, io.out()), ACL_ERROR_INVALID_PARAM);
    aclDestroyDataBuffer(buf);
    aclmdlDestroyDataset(in);
  }
  ASSERT_EQ(aclmdlExecute(m.id(), io.in(), io.out()), ACL_SUCCESS) << recent();
}

TEST_F(ModelApi, SetInputDynamicDims) {
  AclModel m(cls_model());
  DeviceIo io(m.desc(), random_input({1, 3, 48, 192}, 4), {16});
  // Same buffer size (2*48*96 == 1*48*192 per channel): only the dims differ.
  aclmdlIODims dims{};
  dims.dimCount = 4;
  const int64_t d[4] = {2, 3, 48, 96};
  std::copy(d, d + 4, dims.dims);
  ASSERT_EQ(aclmdlSetInputDynamicDims(m.id(), io.in(), 0, &dims), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlExecute(m.id(), io.in(), io.out()), ACL_SUCCESS) << recent();
  EXPECT_EQ(io.read_outputs()[0].dims, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(aclmdlSetInputDynamicDims(m.id(), io.in(), 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetInputDynamicDims(m.id(), io.in(), 0, nullptr), ACL_ERROR_INVALID_PARAM);
  ConvModel cm;
  AclModel fixed(write_temp("conv.onnx", cm.bytes));
  EXPECT_EQ(aclmdlSetInputDynamicDims(fixed.id(), io.in(), 0, &dims), ACL_ERROR_MODEL_NOT_DYNAMIC);
}

TEST_F(ModelApi, DatasetCalls) {
  aclmdlDataset *ds = aclmdlCreateDataset();
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(ds), 0u);
  EXPECT_EQ(aclmdlAddDatasetBuffer(ds, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlAddDatasetBuffer(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  float data[4] = {};
  aclDataBuffer *buf = aclCreateDataBuffer(data, sizeof data);
  ASSERT_EQ(aclmdlAddDatasetBuffer(ds, buf), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(ds), 1u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(ds, 0), buf);
  EXPECT_EQ(aclmdlGetDatasetBuffer(ds, 1), nullptr);
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(ds, 0), nullptr);
  // The dataset keeps its own copy of the descriptor.
  const int64_t dims[2] = {2, 2};
  aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  ASSERT_EQ(aclmdlSetDatasetTensorDesc(ds, td, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(ds, td, 1), ACL_ERROR_INVALID_PARAM);
  aclDestroyTensorDesc(td);
  aclTensorDesc *kept = aclmdlGetDatasetTensorDesc(ds, 0);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(aclGetTensorDescElementCount(kept), 4u);
  EXPECT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(ds), ACL_ERROR_INVALID_PARAM);  // the buffer is the caller's
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(ds), 0u);
  EXPECT_EQ(aclDestroyDataBuffer(buf), ACL_SUCCESS);
}

// R20: bad data met during an execution fails the stream, not the call.
TEST_F(ModelApi, DeviceFailureDuringExecution) {
  auto m = tiny_model();
  add_input(m, "a", {4}, onnx::TensorProto::INT32);
  add_input(m, "d", {4}, onnx::TensorProto::INT32);
  add_node(m, "Div", "int_div", {"a", "d"}, {"q"});
  add_output(m, "q", onnx::TensorProto::INT32);
  const std::string bytes = m.SerializeAsString();
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS) << recent();
  const int32_t a[4] = {8, 9, 10, 11}, d[4] = {2, 0, 5, 1};
  void *pa = nullptr, *pd = nullptr, *pq = nullptr;
  ASSERT_EQ(aclrtMalloc(&pa, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&pd, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&pq, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(pa, 16, a, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(pd, 16, d, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  aclDataBuffer *ba = aclCreateDataBuffer(pa, 16), *bd = aclCreateDataBuffer(pd, 16),
                *bq = aclCreateDataBuffer(pq, 16);
  aclmdlAddDatasetBuffer(in, ba);
  aclmdlAddDatasetBuffer(in, bd);
  aclmdlAddDatasetBuffer(out, bq);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecuteAsync(id, in, out, s), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_NE(recent().find("int_div"), std::string::npos) << recent();
  aclrtDestroyStream(s);
  for (auto *b : {ba, bd, bq}) aclDestroyDataBuffer(b);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  for (void *p : {pa, pd, pq}) aclrtFree(p);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// Executions already queued finish correctly after the model is unloaded.
TEST_F(ModelApi, UnloadWithExecutionsInFlight) {
  ConvModel cm;
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(cm.bytes.data(), cm.bytes.size(), &id), ACL_SUCCESS);
  aclmdlDesc *d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  const TensorF x = random_input({1, 2, 4, 4}, 9);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::vector<std::unique_ptr<DeviceIo>> ios;
  for (int i = 0; i < 4; ++i) {
    ios.push_back(std::make_unique<DeviceIo>(d, x, std::vector<size_t>{3 * 16 * sizeof(float)}));
    ASSERT_EQ(aclmdlExecuteAsync(id, ios.back()->in(), ios.back()->out(), s), ACL_SUCCESS)
        << recent();
  }
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << recent();
  for (auto &io : ios)
    EXPECT_LE(relative_error(io->read_outputs()[0].data, cm.reference(x.data)), 1e-5);
  EXPECT_EQ(aclmdlExecuteAsync(id, ios[0]->in(), ios[0]->out(), s), ACL_ERROR_INVALID_MODEL_ID);
  aclrtDestroyStream(s);
  aclmdlDestroyDesc(d);
}

}  // namespace

namespace {

template <class T>
aclError set_config(aclmdlConfigHandle *h, aclmdlConfigAttr attr, T value) {
  return aclmdlSetConfigOpt(h, attr, &value, sizeof(value));
}

TEST_F(ModelApi, GearsAndRealNamesOfAnOnnxModel) {
  ConvModel cm;
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(cm.bytes.data(), cm.bytes.size(), &id), ACL_SUCCESS);
  aclmdlDesc *d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  size_t gears = 99;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(d, static_cast<size_t>(-1), &gears), ACL_SUCCESS)
      << recent();
  EXPECT_EQ(gears, 0u);
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(d, 0, &gears), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputDynamicGearCount(d, 5, &gears), ACL_ERROR_INVALID_PARAM);
  aclmdlIODims dims{};
  EXPECT_EQ(aclmdlGetInputDynamicDims(d, static_cast<size_t>(-1), &dims, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputDynamicDims(d, static_cast<size_t>(-1), &dims, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("0 gears"), std::string::npos) << recent();
  EXPECT_STREQ(aclmdlGetTensorRealName(d, "x"), "x");
  EXPECT_STREQ(aclmdlGetTensorRealName(d, "y"), "y");
  EXPECT_EQ(aclmdlGetTensorRealName(d, "nope"), nullptr);
  aclmdlDestroyDesc(d);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelApi, LoadWithConfigFromFileMemoryAndCallerMemory) {
  ConvModel cm;
  const std::string path = write_temp("conv_config.onnx", cm.bytes);
  const TensorF x = random_input({1, 2, 4, 4}, 11);
  auto check = [&](uint32_t id) {
    aclmdlDesc *d = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
    DeviceIo io(d, x, {3 * 16 * sizeof(float)});
    ASSERT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_SUCCESS) << recent();
    EXPECT_LE(relative_error(io.read_outputs()[0].data, cm.reference(x.data)), 1e-5);
    aclmdlDestroyDesc(d);
    EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  };
  uint32_t id = 0;
  aclmdlConfigHandle *file = aclmdlCreateConfigHandle();
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(aclmdlLoadWithConfig(file, &id), ACL_ERROR_INVALID_PARAM);  // no load type yet
  EXPECT_NE(recent().find("ACL_MDL_LOAD_TYPE_SIZET"), std::string::npos) << recent();
  ASSERT_EQ(set_config<size_t>(file, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE), ACL_SUCCESS);
  EXPECT_EQ(aclmdlLoadWithConfig(file, &id), ACL_ERROR_INVALID_PARAM);  // no path
  ASSERT_EQ(set_config<const char *>(file, ACL_MDL_PATH_PTR, path.c_str()), ACL_SUCCESS);
  ASSERT_EQ(set_config<int32_t>(file, ACL_MDL_PRIORITY_INT32, 1), ACL_SUCCESS);  // no effect here
  ASSERT_EQ(aclmdlLoadWithConfig(file, &id), ACL_SUCCESS) << recent();
  check(id);

  aclmdlConfigHandle *mem = aclmdlCreateConfigHandle();
  ASSERT_EQ(set_config<size_t>(mem, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM_WITH_MEM),
            ACL_SUCCESS);
  ASSERT_EQ(set_config<const void *>(mem, ACL_MDL_MEM_ADDR_PTR, cm.bytes.data()), ACL_SUCCESS);
  ASSERT_EQ(set_config<size_t>(mem, ACL_MDL_MEM_SIZET, cm.bytes.size()), ACL_SUCCESS);
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(cm.bytes.data(), cm.bytes.size(), &work, &weight), ACL_SUCCESS);
  void *work_ptr = nullptr, *weight_ptr = nullptr;
  ASSERT_EQ(aclrtMalloc(&work_ptr, std::max<size_t>(work, 64), ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&weight_ptr, weight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(set_config<void *>(mem, ACL_MDL_WORKSPACE_ADDR_PTR, work_ptr), ACL_SUCCESS);
  ASSERT_EQ(set_config<size_t>(mem, ACL_MDL_WORKSPACE_SIZET, std::max<size_t>(work, 64)),
            ACL_SUCCESS);
  ASSERT_EQ(set_config<void *>(mem, ACL_MDL_WEIGHT_ADDR_PTR, weight_ptr), ACL_SUCCESS);
  ASSERT_EQ(set_config<size_t>(mem, ACL_MDL_WEIGHT_SIZET, weight), ACL_SUCCESS);
  ASSERT_EQ(aclmdlLoadWithConfig(mem, &id), ACL_SUCCESS) << recent();
  check(id);
  aclrtFree(work_ptr);
  aclrtFree(weight_ptr);

  // Errors: sizes, values, features openacl lacks, dead handles.
  EXPECT_EQ(aclmdlSetConfigOpt(mem, ACL_MDL_MEM_SIZET, &work, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetConfigOpt(mem, ACL_MDL_MEM_SIZET, nullptr, sizeof(size_t)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(set_config<size_t>(mem, ACL_MDL_LOAD_TYPE_SIZET, 9), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(set_config<size_t>(mem, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE_WITH_Q),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(set_config<const char *>(mem, ACL_MDL_WEIGHT_PATH_PTR, "w.bin"),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(recent().find("not supported"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlLoadWithConfig(mem, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyConfigHandle(file), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyConfigHandle(file), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadWithConfig(file, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyConfigHandle(mem), ACL_SUCCESS);
}

void wait_for_release(void *gate) { static_cast<std::shared_future<void> *>(gate)->wait(); }

TEST_F(ModelApi, ExecuteV2HonoursTheStreamTimeout) {
  ConvModel cm;
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(cm.bytes.data(), cm.bytes.size(), &id), ACL_SUCCESS);
  aclmdlDesc *d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  const TensorF x = random_input({1, 2, 4, 4}, 12);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclmdlExecConfigHandle *h = aclmdlCreateExecConfigHandle();
  ASSERT_NE(h, nullptr);
  {  // defaults: a plain synchronous execution on the given stream
    DeviceIo io(d, x, {3 * 16 * sizeof(float)});
    ASSERT_EQ(aclmdlExecuteV2(id, io.in(), io.out(), s, h), ACL_SUCCESS) << recent();
    EXPECT_LE(relative_error(io.read_outputs()[0].data, cm.reference(x.data)), 1e-5);
  }
  const int32_t timeout = 50;
  ASSERT_EQ(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &timeout, sizeof(timeout)),
            ACL_SUCCESS);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  ASSERT_EQ(aclrtLaunchHostFunc(s, wait_for_release, &gate), ACL_SUCCESS);  // holds the stream
  DeviceIo io(d, x, {3 * 16 * sizeof(float)});
  EXPECT_EQ(aclmdlExecuteV2(id, io.in(), io.out(), s, h), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_NE(recent().find("50 ms"), std::string::npos) << recent();
  release.set_value();
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS)
      << recent();  // the execution stayed queued and ran
  EXPECT_LE(relative_error(io.read_outputs()[0].data, cm.reference(x.data)), 1e-5);

  DeviceIo async_io(d, x, {3 * 16 * sizeof(float)});
  ASSERT_EQ(aclmdlExecuteAsyncV2(id, async_io.in(), async_io.out(), s, h), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_LE(relative_error(async_io.read_outputs()[0].data, cm.reference(x.data)), 1e-5);

  void *work = nullptr;
  EXPECT_EQ(aclmdlSetExecConfigOpt(h, ACL_MDL_WORK_ADDR_PTR, &work, sizeof(work)),
            ACL_ERROR_API_NOT_SUPPORT);
  const int32_t zero = 0;
  EXPECT_EQ(aclmdlSetExecConfigOpt(h, ACL_MDL_STREAM_SYNC_TIMEOUT, &zero, sizeof(zero)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecuteV2(id, io.in(), io.out(), s, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyExecConfigHandle(h), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecuteAsyncV2(id, io.in(), io.out(), s, h), ACL_ERROR_INVALID_PARAM);
  aclrtDestroyStream(s);
  aclmdlDestroyDesc(d);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

}  // namespace

namespace {

// A stream-ordered pool of one device buffer, counting what the runtime asks of it.
struct CountingAllocator {
  void *device = nullptr;
  size_t capacity = 0;
  int allocs = 0, frees = 0;
  size_t last_size = 0;
  bool refuse = false;

  static void *alloc(aclrtAllocator self, size_t size) {
    auto *a = static_cast<CountingAllocator *>(self);
    ++a->allocs;
    a->last_size = size;
    return a->refuse || size > a->capacity ? nullptr : a;  // the block is the pool itself
  }
  static void free(aclrtAllocator self, aclrtAllocatorBlock) {
    ++static_cast<CountingAllocator *>(self)->frees;
  }
  static void *address(aclrtAllocatorBlock block) {
    return static_cast<CountingAllocator *>(block)->device;
  }
};

TEST_F(ModelApi, StreamAllocatorGivesTheWorkspaceOfAsyncExecutions) {
  AclModel m(cls_model());
  const TensorF x = random_input({1, 3, 48, 192}, 11);
  aclrtStream plain = nullptr, custom = nullptr;
  ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&custom), ACL_SUCCESS);
  const auto expected = m.run(x, plain);

  CountingAllocator pool;
  pool.capacity = size_t{64} << 20;
  ASSERT_EQ(aclrtMalloc(&pool.device, pool.capacity, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclrtAllocatorRegister(custom, desc), ACL_ERROR_INVALID_PARAM);  // no functions yet
  EXPECT_NE(recent().find("aclrtAllocatorSet"), std::string::npos) << recent();
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &pool), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, CountingAllocator::alloc), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, CountingAllocator::free), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, CountingAllocator::address),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorRegister(custom, desc), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);  // the registration keeps its copy

  const auto got = m.run(x, custom);
  EXPECT_EQ(pool.allocs, 1);
  EXPECT_EQ(pool.frees, 1);
  EXPECT_GT(pool.last_size, 0u);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(got[0].data, expected[0].data);

  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  ASSERT_EQ(aclrtAllocatorGetByStream(custom, nullptr, &obj, &alloc, nullptr, nullptr, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(obj, &pool);
  EXPECT_EQ(alloc, &CountingAllocator::alloc);

  pool.refuse = true;  // an allocator out of memory fails the call, not the stream
  EXPECT_THROW(m.run(x, custom), std::runtime_error);
  EXPECT_NE(recent().find("allocator"), std::string::npos) << recent();
  EXPECT_EQ(aclrtSynchronizeStream(custom), ACL_SUCCESS);

  ASSERT_EQ(aclrtAllocatorUnregister(custom), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorUnregister(custom), ACL_ERROR_INVALID_PARAM);
  const int before = pool.allocs;
  m.run(x, custom);
  EXPECT_EQ(pool.allocs, before) << "unregistered: the runtime's own workspace";
  EXPECT_EQ(aclrtAllocatorGetByStream(custom, nullptr, &obj, &alloc, nullptr, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(pool.device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(plain), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(custom), ACL_SUCCESS);
}

// aclFinalize releases the loaded models: a model id from before it is rejected with a message
// after a new aclInit. Datasets, descriptions, configuration handles and AIPP sets are the
// program's data: they stay valid until it destroys them.
TEST(ModelFinalize, ModelsAreDeadAfterReinitAndDataDescriptionsLive) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ConvModel cm;
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(cm.bytes.data(), cm.bytes.size(), &id), ACL_SUCCESS) << recent();
  aclmdlDataset *dataset = aclmdlCreateDataset();
  aclmdlDesc *desc = aclmdlCreateDesc();
  aclmdlConfigHandle *config = aclmdlCreateConfigHandle();
  aclmdlExecConfigHandle *exec_config = aclmdlCreateExecConfigHandle();
  aclmdlAIPP *aipp = aclmdlCreateAIPP(1);
  ASSERT_TRUE(dataset && desc && config && exec_config && aipp) << recent();
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const auto rejected = [](aclError err, const char *api) {
    EXPECT_NE(err, ACL_SUCCESS) << api;
    EXPECT_NE(recent().find(api), std::string::npos) << api << ": " << recent();
  };
  rejected(aclmdlUnload(id), "aclmdlUnload");
  rejected(aclmdlExecute(id, dataset, dataset), "aclmdlExecute");
  EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlDestroyExecConfigHandle(exec_config), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclmdlDestroyAIPP(aipp), ACL_SUCCESS) << recent();
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace
