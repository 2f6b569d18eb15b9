#include "model/dump.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/npy.h"
#include "core/status.h"

namespace openacl::model {
namespace {

const char *npy_descr(ops::DType t) {
  switch (t) {
    case ops::DType::f32: return "<f4";
    case ops::DType::f16: return "<f2";
    case ops::DType::f64: return "<f8";
    case ops::DType::bf16: return "<u2";
    case ops::DType::i8: return "|i1";
    case ops::DType::u8: return "|u1";
    case ops::DType::boolean: return "|b1";
    case ops::DType::i16: return "<i2";
    case ops::DType::u16: return "<u2";
    case ops::DType::i32: return "<i4";
    case ops::DType::u32: return "<u4";
    case ops::DType::i64: return "<i8";
    case ops::DType::u64: return "<u8";
    default: return nullptr;
  }
}

// Node names such as "/backbone/conv1/Conv" become one path component, as CANN does.
std::string file_safe(std::string s) {
  for (char &ch : s)
    if (ch == '/' || ch == '\\' || ch == ' ' || ch == ':') ch = '_';
  return s;
}

// The tensor's bytes in its logical order (channels-last storage back to NCHW).
std::vector<char> logical_bytes(const ops::Tensor &t) {
  const size_t bytes = t.desc.byte_size();
  const char *src = static_cast<const char *>(t.data);
  if (!t.desc.channels_last || t.desc.dims.size() != 4) return std::vector<char>(src, src + bytes);
  const size_t e = ops::dtype_size(t.desc.dtype);
  const auto &d = t.desc.dims;
  const int64_t n = d[0], c = d[1], hw = d[2] * d[3];
  std::vector<char> out(bytes);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < hw; ++p)
        std::memcpy(out.data() + ((i * c + k) * hw + p) * static_cast<int64_t>(e),
                    src + ((i * hw + p) * c + k) * static_cast<int64_t>(e), e);
  return out;
}

}  // namespace

void write_dump_tensor(const std::string &path, const ops::Tensor &t) {
  const char *descr = npy_descr(t.desc.dtype);
  if (descr == nullptr || t.data == nullptr) return;  // an omitted optional input
  std::ofstream f(path, std::ios::binary);
  if (!f) fail(Errc::task_failure, "model dump: cannot write '" + path + "'");
  f << npy_header(descr, t.desc.dims);
  const auto bytes = logical_bytes(t);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) fail(Errc::task_failure, "model dump: writing '" + path + "' failed");
}


std::function<void(const std::string &, const std::vector<ops::Tensor> &, const std::vector<ops::Tensor> &)>
single_op_dumper(std::shared_ptr<const DumpConfig> config, int32_t device) {
  if (!config || !config->single_ops) return nullptr;
  const std::string dir = config->path + "/" + config->started + "/" + std::to_string(device) + "/op";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail(Errc::task_failure, "single-op dump: cannot create '" + dir + "': " + ec.message());
  static std::atomic<uint64_t> calls{0};
  const uint64_t call = calls.fetch_add(1, std::memory_order_relaxed);
  return [config = std::move(config), dir, call](const std::string &op_type, const std::vector<ops::Tensor> &in,
                                                  const std::vector<ops::Tensor> &out) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string base = dir + "/" + op_type + "." + std::to_string(call) + "." + std::to_string(us);
    if (config->inputs)
      for (size_t k = 0; k < in.size(); ++k) write_dump_tensor(base + ".input." + std::to_string(k) + ".npy", in[k]);
    if (config->outputs)
      for (size_t k = 0; k < out.size(); ++k) write_dump_tensor(base + ".output." + std::to_string(k) + ".npy", out[k]);
  };
}

std::unique_ptr<StepDumper> StepDumper::create(std::shared_ptr<const DumpConfig> config,
                                               std::vector<std::string> model_names, uint32_t model_id,
                                               int32_t device, uint64_t iteration) {
  if (!config || !config->wants_model(model_names)) return nullptr;
  auto d = std::make_unique<StepDumper>();
  d->dir_ = config->path + "/" + config->started + "/" + std::to_string(device) + "/" +
            file_safe(model_names.front()) + "/" + std::to_string(model_id) + "/" + std::to_string(iteration);
  d->config_ = std::move(config);
  d->model_names_ = std::move(model_names);
  std::error_code ec;
  std::filesystem::create_directories(d->dir_, ec);
  if (ec) fail(Errc::task_failure, "model dump: cannot create '" + d->dir_ + "': " + ec.message());
  return d;
}

void StepDumper::operator()(size_t index, const PlanStep &step, const std::vector<ops::Tensor> &in,
                            const std::vector<ops::Tensor> &out) const {
  if (!config_->wants(model_names_, step.node)) return;
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count();
  const std::string base = dir_ + "/" + step.type + "." + file_safe(step.node) + "." + std::to_string(index) + "." +
                           std::to_string(us);
  if (config_->inputs)
    for (size_t k = 0; k < in.size(); ++k) write_dump_tensor(base + ".input." + std::to_string(k) + ".npy", in[k]);
  if (config_->outputs)
    for (size_t k = 0; k < out.size(); ++k) write_dump_tensor(base + ".output." + std::to_string(k) + ".npy", out[k]);
}

}  // namespace openacl::model
