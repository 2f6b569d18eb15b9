#include "ops/non_finite.h"

#include <cstdint>
#include <cstring>

namespace openacl::ops {
namespace {

// All exponent bits set is inf or NaN, in each IEEE-style format. Read through memcpy: device
// buffers promise no alignment.
template <class Bits>
bool any_exponent_full(const void *data, size_t n, Bits exponent) {
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t i = 0; i < n; ++i) {
    Bits v;
    std::memcpy(&v, p + i * sizeof(Bits), sizeof(Bits));
    if ((v & exponent) == exponent) return true;
  }
  return false;
}

}  // namespace

bool has_non_finite(const Tensor &t) {
  if (t.data == nullptr) return false;
  const size_t n = static_cast<size_t>(t.desc.element_count());
  switch (t.desc.dtype) {
    case DType::f32:
      return any_exponent_full<uint32_t>(t.data, n, 0x7f800000u);
    case DType::f16:
      return any_exponent_full<uint16_t>(t.data, n, 0x7c00u);
    case DType::bf16:
      return any_exponent_full<uint16_t>(t.data, n, 0x7f80u);
    case DType::f64:
      return any_exponent_full<uint64_t>(t.data, n, 0x7ff0000000000000ull);
    default:
      return false;
  }
}

}  // namespace openacl::ops
