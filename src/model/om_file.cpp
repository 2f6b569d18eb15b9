#include "model/om_file.h"

#include <cstring>

#include "core/status.h"

namespace openacl::model {
namespace {

constexpr char kMagic[8] = {'O', 'P', 'E', 'N', 'A', 'C', 'L', '\x1a'};
constexpr char kHuaweiMagic[4] = {'I', 'M', 'O', 'D'};  // ModelFileHeader's 0x444F4D49
constexpr const char *kOnnxKey = "onnx";

void put_bytes(std::vector<uint8_t> &out, const void *data, size_t size) {
  const size_t at = out.size();
  out.resize(at + size);
  if (size) std::memcpy(out.data() + at, data, size);
}

template <class T>
void put(std::vector<uint8_t> &out, T v) {
  put_bytes(out, &v, sizeof v);
}

class Reader {
 public:
  Reader(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}
  template <class T>
  T get(const char *what) {
    T v;
    std::memcpy(&v, take(sizeof(T), what), sizeof(T));
    return v;
  }
  const uint8_t *take(uint64_t n, const char *what) {
    if (n > static_cast<uint64_t>(end_ - p_))
      fail(Errc::parse_model, std::string("the .om file is truncated (in its ") + what + ")");
    const uint8_t *at = p_;
    p_ += n;
    return at;
  }

 private:
  const uint8_t *p_, *end_;
};

}  // namespace

bool is_openacl_om(const void *data, size_t size) {
  return size >= sizeof(kMagic) && std::memcmp(data, kMagic, sizeof(kMagic)) == 0;
}

bool is_huawei_om(const void *data, size_t size) {
  return size >= sizeof(kHuaweiMagic) && std::memcmp(data, kHuaweiMagic, sizeof(kHuaweiMagic)) == 0;
}

std::vector<uint8_t> write_om(const std::map<std::string, std::string> &options, const void *onnx,
                              size_t onnx_size) {
  std::vector<uint8_t> out;
  put_bytes(out, kMagic, sizeof kMagic);
  put<uint32_t>(out, kOmVersion);
  put<uint32_t>(out, static_cast<uint32_t>(options.size() + 1));
  auto entry = [&](const std::string &key, const void *value, size_t size) {
    put<uint32_t>(out, static_cast<uint32_t>(key.size()));
    put_bytes(out, key.data(), key.size());
    put<uint64_t>(out, size);
    put_bytes(out, value, size);
  };
  for (const auto &[k, v] : options) entry(k, v.data(), v.size());
  entry(kOnnxKey, onnx, onnx_size);
  return out;
}

OmFile read_om(const void *data, size_t size) {
  if (!is_openacl_om(data, size))
    fail(Errc::parse_model, "not an openacl .om file (no OPENACL magic)");
  Reader r(static_cast<const uint8_t *>(data) + sizeof(kMagic), size - sizeof(kMagic));
  const auto version = r.get<uint32_t>("header");
  if (version == 0 || version > kOmVersion)
    fail(Errc::parse_model, "the .om file has format version " + std::to_string(version) +
                                "; this openacl reads versions up to " +
                                std::to_string(kOmVersion) +
                                " (convert the model again with this openacl's atc)");
  const auto count = r.get<uint32_t>("header");
  OmFile om;
  for (uint32_t i = 0; i < count; ++i) {
    const auto key_size = r.get<uint32_t>("entry key");
    std::string key(reinterpret_cast<const char *>(r.take(key_size, "entry key")), key_size);
    const auto value_size = r.get<uint64_t>("entry size");
    const uint8_t *value = r.take(value_size, "entry value");
    if (key == kOnnxKey) {
      om.onnx = value;
      om.onnx_size = value_size;
    } else {
      om.options[key].assign(reinterpret_cast<const char *>(value), value_size);
    }
  }
  if (om.onnx == nullptr || om.onnx_size == 0)
    fail(Errc::parse_model, "the .om file holds no ONNX graph");
  return om;
}

}  // namespace openacl::model
