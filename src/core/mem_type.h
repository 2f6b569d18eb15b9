// The kinds of memory aclrtCheckMemType tells apart.
#pragma once

#include <cstdint>

namespace openacl {

// reserved: inside an aclrtReserveMemAddress range, mapped or not; other: host memory, or no
// memory of the runtime at all.
enum class MemType : uint8_t { other, device, dvpp, reserved };

MemType mem_type_of(const void *p);

}  // namespace openacl
