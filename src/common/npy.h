// The header of a NumPy .npy file (format 1.0, little-endian, C order), shared by the model
// dump (src/model/dump.cpp) and the `openacl` command's --output files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace openacl {

// Magic, version, header length and the padded header dict: the data follows.
inline std::string npy_header(const std::string &descr, const std::vector<int64_t> &dims) {
  std::string shape;
  for (auto d : dims) shape += std::to_string(d) + ", ";
  if (dims.size() > 1) shape.resize(shape.size() - 2);
  else if (dims.size() == 1) shape.resize(shape.size() - 1);
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  const size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  const auto n = static_cast<uint16_t>(dict.size());
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(n & 0xff));
  out.push_back(static_cast<char>(n >> 8));
  return out + dict;
}

}  // namespace openacl
