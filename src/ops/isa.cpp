#include "ops/isa.h"

#include <oneapi/dnnl/dnnl.h>
#include <cstdlib>

#include "core/cpu_isa.h"

namespace openacl::ops {
namespace {

// oneDNN's own cap has to be in place before its first primitive; every kernel path reaches
// isa() (dnnl_engine() calls it) before it creates one.
void cap_dnnl(Isa cap) {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") || std::getenv("DNNL_MAX_CPU_ISA")) return;
  const dnnl_cpu_isa_t to = cap == Isa::sse41  ? dnnl_cpu_isa_sse41
                            : cap == Isa::avx2 ? dnnl_cpu_isa_avx2
                                               : dnnl_cpu_isa_avx512_core_bf16;
  dnnl_set_max_cpu_isa(to);
}

static_assert(static_cast<int>(Isa::avx2) == static_cast<int>(CpuIsa::avx2) &&
              static_cast<int>(Isa::avx512) == static_cast<int>(CpuIsa::avx512));

Isa init() {
  if (CpuIsa cap; cpu_isa_cap(&cap)) cap_dnnl(static_cast<Isa>(cap));
  return static_cast<Isa>(cpu_isa());
}

}  // namespace

Isa isa() {
  static const Isa chosen = init();
  return chosen;
}

const char *isa_name(Isa i) { return cpu_isa_name(static_cast<CpuIsa>(i)); }

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
