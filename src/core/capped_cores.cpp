#include "core/capped_cores.h"

#include <algorithm>
#include <exception>
#include <mutex>

namespace openacl {

CappedCores::CappedCores(backend::AiCores &all, unsigned limit)
    : all_(all), limit_(std::max(1u, std::min(limit, all.count()))) {}

void CappedCores::parallel_for(size_t n, const std::function<void(size_t)> &body) {
  if (n <= limit_) return all_.parallel_for(n, body);
  // A lane goes on after a block throws, as the device's own parallel_for runs every index.
  std::mutex mu;
  std::exception_ptr first;
  all_.parallel_for(limit_, [&](size_t lane) {
    for (size_t i = lane; i < n; i += limit_) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!first) first = std::current_exception();
      }
    }
  });
  if (first) std::rethrow_exception(first);
}

}  // namespace openacl
