// The sim device's copy engine for the copies of every size the runtime makes.
// Thread safe.
#pragma once

#include <cstddef>

namespace openacl::sim {

// memmove's contract. Between 256 bytes and 16 KiB, ranges that do not overlap are copied by a
// vector loop: glibc's memmove switches to `rep movsb` from about 2 KiB on AMD CPUs, which
// copies a cache-resident 4 KiB at half the speed of plain vector moves there (bench_core_memcpy
// BM_Memcpy measures the copies against std::memcpy). The loop uses AVX-512 or AVX2 as
// OPENACL_MAX_ISA allows (core/cpu_isa.h).
void copy_bytes(void *dst, const void *src, size_t n);

}  // namespace openacl::sim
