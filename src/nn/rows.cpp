#include "nn/rows.h"

#include "nn/objects.h"

namespace openacl::nn {

bool rows_contiguous(const std::vector<int64_t> &dims, const std::vector<int64_t> &strides,
                     size_t lead) {
  int64_t expect = 1;
  for (size_t i = dims.size(); i-- > lead;) {
    if (dims[i] != 1 && strides[i] != expect) return false;
    expect *= dims[i];
  }
  return true;
}

uint8_t *row_at(const StridedTensor &t, const std::vector<int64_t> &lead, size_t r) {
  const auto &st = t.value->strides;
  int64_t off = 0, rest = static_cast<int64_t>(r);
  for (size_t i = lead.size(); i-- > 0;) {
    off += (rest % lead[i]) * st[i];
    rest /= lead[i];
  }
  return t.data + off * static_cast<int64_t>(element_size(t.value->desc.dtype));
}

float *kernel_scratch(size_t n) {
  thread_local std::vector<float> buf;
  if (buf.size() < n) buf.resize(n);
  return buf.data();
}

}  // namespace openacl::nn
