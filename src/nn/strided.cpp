#include "nn/strided.h"

#include <cstring>

namespace openacl::nn {

namespace {

struct Dims {
  std::vector<int64_t> n, s, d;  // size, src stride, dst stride (bytes), outermost first
};

// Drops size-1 dims and merges neighbours that are contiguous in both views, so a dense copy
// becomes one memcpy and a row copy a loop of memcpys.
Dims collapse(const std::vector<int64_t> &dims, const std::vector<int64_t> &ss,
              const std::vector<int64_t> &ds, size_t es) {
  Dims c;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    const int64_t s = ss[i] * static_cast<int64_t>(es), d = ds[i] * static_cast<int64_t>(es);
    if (!c.n.empty() && c.s.back() == s * dims[i] && c.d.back() == d * dims[i]) {
      c.n.back() *= dims[i];
      c.s.back() = s;
      c.d.back() = d;
      continue;
    }
    c.n.push_back(dims[i]);
    c.s.push_back(s);
    c.d.push_back(d);
  }
  return c;
}

template <class T>
void inner(const uint8_t *src, int64_t ss, uint8_t *dst, int64_t ds, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, src + i * ss, sizeof v);
    std::memcpy(dst + i * ds, &v, sizeof v);
  }
}

void copy_dim(const Dims &c, size_t k, const uint8_t *src, uint8_t *dst, size_t es) {
  const int64_t n = c.n[k];
  if (k + 1 < c.n.size()) {
    for (int64_t i = 0; i < n; ++i) copy_dim(c, k + 1, src + i * c.s[k], dst + i * c.d[k], es);
    return;
  }
  const int64_t e = static_cast<int64_t>(es);
  if (c.s[k] == e && c.d[k] == e) {
    std::memcpy(dst, src, static_cast<size_t>(n) * es);
    return;
  }
  switch (es) {
    case 1:
      inner<uint8_t>(src, c.s[k], dst, c.d[k], n);
      break;
    case 2:
      inner<uint16_t>(src, c.s[k], dst, c.d[k], n);
      break;
    case 4:
      inner<uint32_t>(src, c.s[k], dst, c.d[k], n);
      break;
    default:
      inner<uint64_t>(src, c.s[k], dst, c.d[k], n);
      break;
  }
}

}  // namespace

void strided_copy(const void *src, const std::vector<int64_t> &src_strides, void *dst,
                  const std::vector<int64_t> &dst_strides, const std::vector<int64_t> &dims,
                  size_t element_size) {
  for (int64_t d : dims)
    if (d == 0) return;
  const Dims c = collapse(dims, src_strides, dst_strides, element_size);
  const auto *s = static_cast<const uint8_t *>(src);
  auto *d = static_cast<uint8_t *>(dst);
  if (c.n.empty()) {  // a single element
    std::memcpy(d, s, element_size);
    return;
  }
  copy_dim(c, 0, s, d, element_size);
}

}  // namespace openacl::nn
