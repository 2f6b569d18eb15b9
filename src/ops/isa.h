// The instruction set the op kernels use. The project's own loops have a baseline x86-64
// build and an AVX2+FMA build of each hot loop (kernel.h); oneDNN has its own JIT kernels up
// to AVX-512. OPENACL_MAX_ISA (sse41, avx2, avx512) caps both, so that one machine can measure
// the paths another machine would take; oneDNN follows the cap unless ONEDNN_MAX_CPU_ISA is
// set, which then wins for oneDNN alone. Read once, at the first use of any kernel.
// Thread safe.
#pragma once

#include <cstdint>

namespace openacl::ops {

enum class Isa : uint8_t { sse41, avx2, avx512 };

// The host CPU's best, capped by OPENACL_MAX_ISA (an unknown value caps nothing).
Isa isa();
const char *isa_name(Isa isa);
// oneDNN's effective ISA after the cap, in oneDNN's words ("avx2", "avx512_core_bf16", ...).
const char *dnnl_isa_name();

// True when the AVX2+FMA builds of the hot loops may run.
inline bool use_avx2() {
  static const bool yes = isa() >= Isa::avx2;
  return yes;
}

// True when hand-written AVX-512 kernels (the skinny matmul's) may run.
inline bool use_avx512() {
  static const bool yes = isa() >= Isa::avx512;
  return yes;
}

}  // namespace openacl::ops
