#include "npy.h"

#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

#include "common/npy.h"

namespace openacl_tool {
namespace {

const std::map<std::string, aclDataType> kDescr = {
    {"<f4", ACL_FLOAT}, {"<f2", ACL_FLOAT16}, {"<f8", ACL_DOUBLE}, {"<i4", ACL_INT32},
    {"<i8", ACL_INT64}, {"|i1", ACL_INT8},    {"|u1", ACL_UINT8},  {"|b1", ACL_BOOL},
    {"<i2", ACL_INT16}, {"<u2", ACL_UINT16},
};

std::string descr_of(aclDataType t) {
  for (const auto &[d, dt] : kDescr)
    if (dt == t) return d;
  throw std::runtime_error("no .npy type for data type " + std::to_string(t));
}

// The value of 'key' in the header dict, up to the next top-level comma.
std::string header_field(const std::string &h, const std::string &key) {
  const size_t k = h.find("'" + key + "'");
  if (k == std::string::npos) return "";
  size_t v = h.find(':', k) + 1;
  while (v < h.size() && h[v] == ' ') ++v;
  if (h[v] == '(') return h.substr(v + 1, h.find(')', v) - v - 1);
  size_t end = v;
  while (end < h.size() && h[end] != ',' && h[end] != '}') ++end;
  std::string s = h.substr(v, end - v);
  if (!s.empty() && s.front() == '\'') s = s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

NpyArray read_npy(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw std::runtime_error(path + " is not a .npy file");
  uint32_t header_len = 0;
  if (magic[6] == 1) {
    uint16_t n = 0;
    f.read(reinterpret_cast<char *>(&n), 2);
    header_len = n;
  } else {
    f.read(reinterpret_cast<char *>(&header_len), 4);
  }
  std::string header(header_len, '\0');
  f.read(header.data(), header_len);
  NpyArray a;
  const std::string descr = header_field(header, "descr");
  auto it = kDescr.find(descr);
  if (it == kDescr.end()) throw std::runtime_error(path + ": unsupported dtype '" + descr + "'");
  a.dtype = it->second;
  if (header_field(header, "fortran_order") == "True")
    throw std::runtime_error(path + ": Fortran order is not supported");
  const std::string shape = header_field(header, "shape");
  size_t count = 1, pos = 0;
  while (pos < shape.size()) {
    size_t end = shape.find(',', pos);
    if (end == std::string::npos) end = shape.size();
    const std::string tok = shape.substr(pos, end - pos);
    if (tok.find_first_of("0123456789") != std::string::npos) {
      a.dims.push_back(std::stoll(tok));
      count *= static_cast<size_t>(a.dims.back());
    }
    pos = end + 1;
  }
  a.bytes.resize(count * aclDataTypeSize(a.dtype));
  if (!f.read(reinterpret_cast<char *>(a.bytes.data()),
              static_cast<std::streamsize>(a.bytes.size())))
    throw std::runtime_error(path + " holds fewer bytes than its shape needs");
  return a;
}

void write_npy(const std::string &path, const NpyArray &a) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << openacl::npy_header(descr_of(a.dtype), a.dims);
  f.write(reinterpret_cast<const char *>(a.bytes.data()),
          static_cast<std::streamsize>(a.bytes.size()));
}

}  // namespace openacl_tool
