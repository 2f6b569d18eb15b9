#include "ops/dump.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/npy.h"
#include "core/status.h"

namespace openacl::ops {
namespace {

const char *npy_descr(DType t) {
  switch (t) {
    case DType::f32:
      return "<f4";
    case DType::f16:
      return "<f2";
    case DType::f64:
      return "<f8";
    case DType::bf16:
      return "<u2";
    case DType::i8:
      return "|i1";
    case DType::u8:
      return "|u1";
    case DType::boolean:
      return "|b1";
    case DType::i16:
      return "<i2";
    case DType::u16:
      return "<u2";
    case DType::i32:
      return "<i4";
    case DType::u32:
      return "<u4";
    case DType::i64:
      return "<i8";
    case DType::u64:
      return "<u8";
    default:
      return nullptr;
  }
}

// The tensor's bytes in its logical order (channels-last storage back to NCHW).
std::vector<char> logical_bytes(const Tensor &t, const char *src) {
  const size_t bytes = t.desc.byte_size();
  if (!t.desc.channels_last || t.desc.dims.size() != 4) return std::vector<char>(src, src + bytes);
  const size_t e = dtype_size(t.desc.dtype);
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

void write_dump_tensor(backend::DeviceBackend &device, const std::string &path, const Tensor &t) {
  const char *descr = npy_descr(t.desc.dtype);
  if (descr == nullptr || t.data == nullptr) return;  // an omitted optional input
  const backend::HostView view(device, t.data, t.desc.byte_size(),
                               backend::DeviceBackend::Access::read);
  std::ofstream f(path, std::ios::binary);
  if (!f) fail(Errc::task_failure, "model dump: cannot write '" + path + "'");
  f << npy_header(descr, t.desc.dims);
  const auto bytes = logical_bytes(t, static_cast<const char *>(view.data()));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) fail(Errc::task_failure, "model dump: writing '" + path + "' failed");
}

OpDumper single_op_dumper(std::shared_ptr<const DumpConfig> config, int32_t device) {
  if (!config || !config->single_ops) return nullptr;
  const std::string dir =
      config->path + "/" + config->started + "/" + std::to_string(device) + "/op";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail(Errc::task_failure, "single-op dump: cannot create '" + dir + "': " + ec.message());
  static std::atomic<uint64_t> calls{0};
  const uint64_t call = calls.fetch_add(1, std::memory_order_relaxed);
  return [config = std::move(config), dir, call](
             backend::DeviceBackend &device, const std::string &op_type,
             const std::vector<Tensor> &in, const std::vector<Tensor> &out) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    const std::string base =
        dir + "/" + op_type + "." + std::to_string(call) + "." + std::to_string(us);
    if (config->inputs)
      for (size_t k = 0; k < in.size(); ++k)
        write_dump_tensor(device, base + ".input." + std::to_string(k) + ".npy", in[k]);
    if (config->outputs)
      for (size_t k = 0; k < out.size(); ++k)
        write_dump_tensor(device, base + ".output." + std::to_string(k) + ".npy", out[k]);
  };
}

}  // namespace openacl::ops
