#include "core/cpu_isa.h"

#include <strings.h>

#include <cstdlib>
#include <initializer_list>

namespace openacl {
namespace {

CpuIsa detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return CpuIsa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c"))
    return CpuIsa::avx2;
#endif
  return CpuIsa::sse41;
}

}  // namespace

bool cpu_isa_cap(CpuIsa *cap) {
  const char *text = std::getenv("OPENACL_MAX_ISA");
  if (text == nullptr) return false;
  for (CpuIsa i : {CpuIsa::sse41, CpuIsa::avx2, CpuIsa::avx512})
    if (strcasecmp(text, cpu_isa_name(i)) == 0) return *cap = i, true;
  return false;
}

CpuIsa cpu_isa() {
  static const CpuIsa chosen = [] {
    const CpuIsa cpu = detect();
    CpuIsa cap = CpuIsa::avx512;
    cpu_isa_cap(&cap);
    return cpu < cap ? cpu : cap;
  }();
  return chosen;
}

const char *cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::sse41:
      return "sse41";
    case CpuIsa::avx2:
      return "avx2";
    default:
      return "avx512";
  }
}

}  // namespace openacl
