#include "dvpp/channel.h"

#include <atomic>

namespace openacl::dvpp {

uint64_t open_channel() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace openacl::dvpp
