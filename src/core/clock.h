// The runtime clock: nanoseconds of steady_clock. Device timestamps, task spans and the
// trace all use it.
#pragma once

#include <chrono>
#include <cstdint>

namespace openacl {

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace openacl
