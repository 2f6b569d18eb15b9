#include "ops/isa.h"

#include <oneapi/dnnl/dnnl.h>
#include <strings.h>

#include <cstdlib>
#include <initializer_list>

namespace openacl::ops {
namespace {

Isa detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c"))
    return Isa::avx2;
#endif
  return Isa::sse41;
}

bool parse(const char *text, Isa &out) {
  if (text == nullptr) return false;
  for (Isa i : {Isa::sse41, Isa::avx2, Isa::avx512})
    if (strcasecmp(text, isa_name(i)) == 0) return out = i, true;
  return false;
}

// oneDNN's own cap has to be in place before its first primitive; every kernel path reaches
// isa() (dnnl_engine() calls it) before it creates one.
void cap_dnnl(Isa cap) {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") || std::getenv("DNNL_MAX_CPU_ISA")) return;
  const dnnl_cpu_isa_t to = cap == Isa::sse41  ? dnnl_cpu_isa_sse41
                            : cap == Isa::avx2 ? dnnl_cpu_isa_avx2
                                               : dnnl_cpu_isa_avx512_core_bf16;
  dnnl_set_max_cpu_isa(to);
}

Isa init() {
  const Isa cpu = detect();
  Isa cap = Isa::avx512;
  if (!parse(std::getenv("OPENACL_MAX_ISA"), cap)) return cpu;
  cap_dnnl(cap);
  return cpu < cap ? cpu : cap;
}

}  // namespace

Isa isa() {
  static const Isa chosen = init();
  return chosen;
}

const char *isa_name(Isa i) {
  switch (i) {
    case Isa::sse41:
      return "sse41";
    case Isa::avx2:
      return "avx2";
    default:
      return "avx512";
  }
}

const char *dnnl_isa_name() {
  isa();
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_sse41:
      return "sse41";
    case dnnl_cpu_isa_avx:
      return "avx";
    case dnnl_cpu_isa_avx2:
      return "avx2";
    case dnnl_cpu_isa_avx2_vnni:
      return "avx2_vnni";
    case dnnl_cpu_isa_avx512_core:
      return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "other";
  }
}

}  // namespace openacl::ops
