#include "ops/reduce_into.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/half.h"

namespace openacl::ops {
namespace {

template <class T>
T combine(ReduceOp op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (op != ReduceOp::sum && (std::isnan(a) || std::isnan(b)))
      return std::numeric_limits<T>::quiet_NaN();
  }
  switch (op) {
    case ReduceOp::sum:
      if constexpr (std::is_integral_v<T>) {  // wraps, as the engine's adders do
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
      } else {
        return a + b;
      }
    case ReduceOp::max:
      return std::max(a, b);
    case ReduceOp::min:
      return std::min(a, b);
  }
  return a;
}

// Elements are copied in and out with memcpy: device buffers carry no alignment promise.
template <class T>
void reduce_plain(uint8_t *dst, const uint8_t *src, size_t n, ReduceOp op) {
  for (size_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, dst + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    T r = combine(op, a, b);
    std::memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void reduce_16bit_float(uint8_t *dst, const uint8_t *src, size_t n, ReduceOp op) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t a, b;
    std::memcpy(&a, dst + i * 2, 2);
    std::memcpy(&b, src + i * 2, 2);
    uint16_t r = FromFloat(combine(op, ToFloat(a), ToFloat(b)));
    std::memcpy(dst + i * 2, &r, 2);
  }
}

}  // namespace

size_t reduce_element_size(aclDataType type) {
  switch (type) {
    case ACL_INT8:
      return 1;
    case ACL_INT16:
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    case ACL_INT32:
    case ACL_FLOAT:
      return 4;
    default:
      return 0;
  }
}

void reduce_into(void *dst, const void *src, size_t n, ReduceOp op, aclDataType type) {
  auto *d = static_cast<uint8_t *>(dst);
  const auto *s = static_cast<const uint8_t *>(src);
  switch (type) {
    case ACL_INT8:
      return reduce_plain<int8_t>(d, s, n, op);
    case ACL_INT16:
      return reduce_plain<int16_t>(d, s, n, op);
    case ACL_INT32:
      return reduce_plain<int32_t>(d, s, n, op);
    case ACL_FLOAT:
      return reduce_plain<float>(d, s, n, op);
    case ACL_FLOAT16:
      return reduce_16bit_float<half_to_float, float_to_half>(d, s, n, op);
    case ACL_BF16:
      return reduce_16bit_float<bf16_to_float, float_to_bf16>(d, s, n, op);
    default:
      return;
  }
}

}  // namespace openacl::ops
