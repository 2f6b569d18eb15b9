// NumPy .npy files (format version 1.0, little-endian, C order): enough to feed model inputs
// and write model outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace openacl_tool {

struct NpyArray {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
};

// Throws std::runtime_error naming the file and what is wrong with it.
NpyArray read_npy(const std::string &path);
void write_npy(const std::string &path, const NpyArray &array);

}  // namespace openacl_tool
