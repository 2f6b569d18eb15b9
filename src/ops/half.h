// IEEE binary16 and bfloat16 <-> float conversions, round to nearest even; used by the
// op kernels and by aclFloatToFloat16 / aclFloat16ToFloat.
#pragma once

#include <bit>
#include <cstdint>

namespace openacl::ops {

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));  // inf, nan
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
  // subnormal or zero: man * 2^-24, exact in float
  const float v = static_cast<float>(man) * 5.9604644775390625e-8f;
  return sign ? -v : v;
}

inline uint16_t float_to_half(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)  // inf or nan (keep nan quiet)
    return sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u | ((ax >> 13) & 0x3ffu) : 0u);
  if (ax >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: overflow to inf
  if (ax < 0x38800000u) {
    // result is subnormal or zero: scale by 2^24 in float arithmetic, which rounds to even
    const float v = std::bit_cast<float>(ax) * 16777216.0f;
    return sign | static_cast<uint16_t>(__builtin_nearbyintf(v));
  }
  const uint32_t rounded = ax + 0x0fffu + ((ax >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

inline float bf16_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

inline uint16_t float_to_bf16(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace openacl::ops
