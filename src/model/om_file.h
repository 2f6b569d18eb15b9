// openacl's .om model file: what `atc` writes and every aclmdlLoad* call reads. It keeps the
// ONNX graph bytes unchanged beside the conversion options that atc was given (input shapes,
// gears, AIPP configuration, output types, precision), so that loading applies exactly what
// conversion checked. Layout, little-endian:
//   magic "OPENACL\x1a" (8 bytes) | u32 version | u32 entry count |
//   entries: u32 key size, key, u64 value size, value
// The ONNX graph is the entry "onnx"; the others are atc's option names with their text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace openacl::model {

inline constexpr uint32_t kOmVersion = 1;

// Whether the bytes start like an openacl .om / like a .om of Huawei's ATC (magic "IMOD").
bool is_openacl_om(const void *data, size_t size);
bool is_huawei_om(const void *data, size_t size);

struct OmFile {
  std::map<std::string, std::string> options;  // atc option name (without "--") -> value
  const uint8_t *onnx = nullptr;               // into the bytes given to read_om
  size_t onnx_size = 0;
};

std::vector<uint8_t> write_om(const std::map<std::string, std::string> &options, const void *onnx,
                              size_t onnx_size);
// Errc::parse_model for a truncated file or a version newer than this library reads.
OmFile read_om(const void *data, size_t size);

}  // namespace openacl::model
