// Gears (issue 14): a model converted with --dynamic_batch_size, --dynamic_image_size or
// --dynamic_dims has the extra input ascend_mbatch_shape_data, reports its gears and the
// largest gear's sizes (so callers can allocate), runs the gear chosen with
// aclmdlSetDynamicBatchSize / SetDynamicHWSize / SetInputDynamicDims, and refuses the rest.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "model_helpers.h"
#include "openacl/openacl_model.h"

using namespace model_test;

namespace {

std::string recent() { return aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""; }

// x -> Mul(x, 2) -> y, and, with two inputs, z = x + w.
onnx::ModelProto doubler(std::vector<int64_t> dims) {
  auto m = tiny_model();
  add_input(m, "x", dims);
  add_initializer(m, "two", {1}, {2});
  add_node(m, "Mul", "double", {"x", "two"}, {"y"});
  add_output(m, "y");
  return m;
}

class Gears : public DeviceSuite {
 protected:
  void TearDown() override {
    for (auto *b : buffers_) aclDestroyDataBuffer(b);
    for (auto *d : datasets_) aclmdlDestroyDataset(d);
    for (void *p : device_) aclrtFree(p);
    if (desc_) aclmdlDestroyDesc(desc_);
    if (id_) aclmdlUnload(id_);
  }
  // Converts and loads; fills desc_.
  void load(const onnx::ModelProto &m, const std::map<std::string, std::string> &options) {
    std::vector<const char *> names, values;
    for (const auto &[k, v] : options) names.push_back(k.c_str()), values.push_back(v.c_str());
    const std::string onnx = m.SerializeAsString();
    om_ = write_temp("gears.om", "");
    ASSERT_EQ(openaclConvertModel(onnx.data(), onnx.size(), names.data(), values.data(),
                                  names.size(), om_.c_str()),
              ACL_SUCCESS)
        << recent();
    ASSERT_EQ(aclmdlLoadFromFile(om_.c_str(), &id_), ACL_SUCCESS) << recent();
    desc_ = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
  }
  void *device(size_t bytes) {
    void *p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    return p;
  }
  aclmdlDataset *dataset() {
    datasets_.push_back(aclmdlCreateDataset());
    return datasets_.back();
  }
  void add(aclmdlDataset *d, void *p, size_t n) {
    buffers_.push_back(aclCreateDataBuffer(p, n));
    ASSERT_EQ(aclmdlAddDatasetBuffer(d, buffers_.back()), ACL_SUCCESS);
  }
  // Input and output datasets over buffers of the sizes the description gives (the largest
  // gear's): what the CANN samples allocate.
  void make_io() {
    in_ = dataset();
    out_ = dataset();
    for (size_t i = 0; i < aclmdlGetNumInputs(desc_); ++i) {
      const size_t n = aclmdlGetInputSizeByIndex(desc_, i);
      ASSERT_GT(n, 0u) << i;
      add(in_, device(n), n);
    }
    for (size_t j = 0; j < aclmdlGetNumOutputs(desc_); ++j) {
      const size_t n = aclmdlGetOutputSizeByIndex(desc_, j);
      ASSERT_GT(n, 0u) << j;
      add(out_, device(n), n);
    }
  }
  void fill_input(size_t i, const std::vector<float> &v) {
    aclDataBuffer *b = aclmdlGetDatasetBuffer(in_, i);
    ASSERT_EQ(aclrtMemcpy(aclGetDataBufferAddr(b), aclGetDataBufferSizeV2(b), v.data(),
                          v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<float> output(size_t j, size_t n) {
    std::vector<float> v(n);
    aclDataBuffer *b = aclmdlGetDatasetBuffer(out_, j);
    EXPECT_EQ(
        aclrtMemcpy(v.data(), n * 4, aclGetDataBufferAddr(b), n * 4, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    return v;
  }
  size_t gear_index() {
    size_t index = 99;
    EXPECT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &index), ACL_SUCCESS);
    return index;
  }
  std::vector<uint64_t> gear_values(size_t n) {
    std::vector<uint64_t> v(n);
    aclDataBuffer *b = aclmdlGetDatasetBuffer(in_, gear_index());
    EXPECT_EQ(
        aclrtMemcpy(v.data(), n * 8, aclGetDataBufferAddr(b), n * 8, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    return v;
  }

  std::string om_;
  uint32_t id_ = 0;
  aclmdlDesc *desc_ = nullptr;
  aclmdlDataset *in_ = nullptr, *out_ = nullptr;
  std::vector<aclmdlDataset *> datasets_;
  std::vector<aclDataBuffer *> buffers_;
  std::vector<void *> device_;
};

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f - 3;
  return v;
}

TEST_F(Gears, BatchGearsDescribeRunAndRefuse) {
  load(doubler({-1, 3, 2, 2}), {{"input_shape", "x:-1,3,2,2"}, {"dynamic_batch_size", "1,2,4"}});
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 2u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 1), ACL_DYNAMIC_TENSOR_NAME);
  EXPECT_EQ(gear_index(), 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 4u * 12 * 4);  // the largest gear
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), 4u * 12 * 4);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[0], -1);
  ASSERT_EQ(aclmdlGetOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[0], -1);
  EXPECT_EQ(dims.dims[1], 3);
  aclmdlBatch batch{};
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  ASSERT_EQ(batch.batchCount, 3u);
  EXPECT_EQ(batch.batch[0], 1u);
  EXPECT_EQ(batch.batch[2], 4u);
  aclmdlHW hw{};
  ASSERT_EQ(aclmdlGetDynamicHW(desc_, 0, &hw), ACL_SUCCESS);
  EXPECT_EQ(hw.hwCount, 0u);
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(om_.c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_GT(work, 0u);

  make_io();
  fill_input(0, ramp(48));
  // No gear chosen yet: the dataset says nothing about the batch.
  EXPECT_EQ(aclmdlExecute(id_, in_, out_), ACL_ERROR_MODEL_INPUT_NOT_MATCH) << recent();
  EXPECT_NE(recent().find("aclmdlSetDynamicBatchSize"), std::string::npos) << recent();

  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 2), ACL_SUCCESS) << recent();
  EXPECT_EQ(gear_values(1), std::vector<uint64_t>{2});
  ASSERT_EQ(aclmdlExecute(id_, in_, out_), ACL_SUCCESS) << recent();
  const auto y = output(0, 24);
  for (size_t i = 0; i < 24; ++i) EXPECT_EQ(y[i], ramp(48)[i] * 2) << i;
  ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[0], 2);

  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("batch size 3 is no gear of the model; its gears: 1; 2; 4"),
            std::string::npos)
      << recent();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 0, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find(ACL_DYNAMIC_TENSOR_NAME), std::string::npos) << recent();
  EXPECT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 2, 2), ACL_ERROR_MODEL_NOT_DYNAMIC);
  EXPECT_NE(recent().find("--dynamic_image_size"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_ + 100, in_, 1, 2), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, nullptr, 1, 2), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 4), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclmdlExecute(id_, in_, out_), ACL_SUCCESS) << recent();
  EXPECT_EQ(output(0, 48)[47], ramp(48)[47] * 2);
  ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[0], 4);
}

TEST_F(Gears, ImageSizeGears) {
  load(doubler({1, 3, -1, -1}),
       {{"input_shape", "x:1,3,-1,-1"}, {"dynamic_image_size", "2,2;4,6"}});
  aclmdlHW hw{};
  ASSERT_EQ(aclmdlGetDynamicHW(desc_, 0, &hw), ACL_SUCCESS);
  ASSERT_EQ(hw.hwCount, 2u);
  EXPECT_EQ(hw.hw[1][0], 4u);
  EXPECT_EQ(hw.hw[1][1], 6u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 3u * 4 * 6 * 4);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 2u * 8);
  make_io();
  fill_input(0, ramp(12));
  EXPECT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 2, 4), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 2, 2), ACL_SUCCESS) << recent();
  EXPECT_EQ(gear_values(2), (std::vector<uint64_t>{2, 2}));
  ASSERT_EQ(aclmdlExecute(id_, in_, out_), ACL_SUCCESS) << recent();
  EXPECT_EQ(output(0, 12)[11], ramp(12)[11] * 2);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[2], 2);
  EXPECT_EQ(dims.dims[3], 2);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 1), ACL_ERROR_MODEL_NOT_DYNAMIC);
}

TEST_F(Gears, DimsGearsOverTwoInputs) {
  auto m = tiny_model();
  add_input(m, "x", {-1, 2});
  add_input(m, "w", {-1, 2});
  add_node(m, "Add", "add", {"x", "w"}, {"z"});
  add_output(m, "z");
  load(m, {{"input_shape", "x:-1,2;w:-1,2"}, {"dynamic_dims", "1,1;3,3"}});
  size_t count = 0;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &count), ACL_SUCCESS);
  ASSERT_EQ(count, 2u);
  aclmdlIODims gears[2]{};
  ASSERT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears, 2), ACL_SUCCESS);
  ASSERT_EQ(gears[1].dimCount, 4u);
  EXPECT_EQ(gears[1].dims[0], 3);
  EXPECT_EQ(gears[1].dims[1], 2);
  EXPECT_EQ(gears[1].dims[2], 3);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears, 1),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 2), 2u * 8);
  make_io();
  fill_input(0, ramp(6));
  fill_input(1, ramp(6));
  aclmdlIODims bad = gears[1];
  bad.dims[2] = 1;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 2, &bad), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("no gear"), std::string::npos) << recent();
  ASSERT_EQ(aclmdlSetInputDynamicDims(id_, in_, 2, &gears[1]), ACL_SUCCESS) << recent();
  EXPECT_EQ(gear_values(2), (std::vector<uint64_t>{3, 3}));
  ASSERT_EQ(aclmdlExecute(id_, in_, out_), ACL_SUCCESS) << recent();
  const auto z = output(0, 6);
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(z[i], ramp(6)[i] * 2) << i;
}

TEST_F(Gears, BadArgumentsAreRefused) {
  load(doubler({-1, 3}), {{"input_shape", "x:-1,3"}, {"dynamic_batch_size", "1,2"}});
  aclmdlBatch batch{};
  aclmdlHW hw{};
  size_t count = 0;
  aclmdlIODims dims{};
  EXPECT_EQ(aclmdlGetDynamicBatch(nullptr, &batch), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetDynamicBatch(desc_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetDynamicHW(desc_, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetDynamicHW(reinterpret_cast<aclmdlDesc *>(&hw), 0, &hw),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicGearCount(desc_, 7, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicGearCount(desc_, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  // A batch-gear model has no --dynamic_dims gears: 0 of them, and asking for 1 is refused.
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), &dims, 1),
            ACL_ERROR_INVALID_PARAM);
  in_ = dataset();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 2), ACL_ERROR_INVALID_PARAM);  // no buffer 1 yet
  EXPECT_NE(recent().find("aclmdlAddDatasetBuffer"), std::string::npos) << recent();
  add(in_, device(24), 24);
  add(in_, device(4), 4);  // too small for a uint64 gear value
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("it needs 8"), std::string::npos) << recent();
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, &dims),
            ACL_ERROR_MODEL_NOT_DYNAMIC);  // batch gears, not dims
  aclmdlDataset *host = dataset();
  add(host, device(24), 24);
  std::vector<uint64_t> on_host(1);
  add(host, on_host.data(), 8);  // host memory: the gear value goes to device memory only
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, host, 1, 2), ACL_ERROR_INVALID_PARAM);
}

TEST_F(Gears, PlainOnnxHasNoGears) {
  const std::string onnx = doubler({-1, 3}).SerializeAsString();
  ASSERT_EQ(aclmdlLoadFromMem(onnx.data(), onnx.size(), &id_), ACL_SUCCESS);
  desc_ = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
  aclmdlBatch batch{};
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  size_t index = 0;
  EXPECT_NE(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &index), ACL_SUCCESS);
  in_ = dataset();
  add(in_, device(24), 24);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 2), ACL_ERROR_MODEL_NOT_DYNAMIC);
  EXPECT_NE(recent().find("has no gears"), std::string::npos) << recent();
}

}  // namespace
