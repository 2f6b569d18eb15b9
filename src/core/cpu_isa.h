// The host CPU's vector instruction set, capped by OPENACL_MAX_ISA (sse41, avx2, avx512), so
// that one machine can measure the paths another machine would take. The op kernels
// (ops/isa.h, which also caps oneDNN) and the sim backend's copies read it. Read once.
// Thread safe.
#pragma once

#include <cstdint>

namespace openacl {

enum class CpuIsa : uint8_t { sse41, avx2, avx512 };

// The host CPU's best, capped (an unknown OPENACL_MAX_ISA value caps nothing).
CpuIsa cpu_isa();
// Whether OPENACL_MAX_ISA names a cap, and which (in *cap).
bool cpu_isa_cap(CpuIsa *cap);
const char *cpu_isa_name(CpuIsa isa);

}  // namespace openacl
