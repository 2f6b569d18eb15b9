// Op execution time limits (aclrtSetOpExecuteTimeOut, ...WithMs, ...V2, aclrtGetOpExecuteTimeout,
// aclrtGetOpTimeOutInterval) for kernels, ops and models. As on Atlas A2 devices the default
// and the largest limit are 1091 s, and 0 asks for the largest; a simulated AI core cannot be
// stopped, so an overrun fails the stream when the task ends (src/core/failure.h).
#include <algorithm>
#include <cstdint>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/failure.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

constexpr uint64_t kLargestUs = 1091ull * 1000 * 1000;
constexpr uint64_t kIntervalUs = 1;  // the sim measures task time to the microsecond

// Sets the limit in microseconds (0: the largest) and returns the limit in force.
uint64_t set_limit_us(uint64_t us) {
  require_initialized();
  const uint64_t actual = us == 0 ? kLargestUs : std::min(us, kLargestUs);
  // The largest limit is the default: no task is timed then.
  openacl::set_task_time_limit(actual == kLargestUs ? 0 : static_cast<int64_t>(actual) * 1000);
  return actual;
}

uint64_t limit_us() {
  const int64_t ns = openacl::task_time_limit();
  return ns == 0 ? kLargestUs : static_cast<uint64_t>(ns) / 1000;
}

}  // namespace

extern "C" {

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  return guarded(__func__, [&] { set_limit_us(uint64_t{timeout} * 1000 * 1000); });
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
  return guarded(__func__, [&] { set_limit_us(uint64_t{timeout} * 1000); });
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout) {
  return guarded(__func__, [&] {
    if (actualTimeout == nullptr) fail(Errc::invalid_argument, "actualTimeout is NULL");
    *actualTimeout = set_limit_us(timeout);
  });
}

aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs) {
  return guarded(__func__, [&] {
    require_initialized();
    if (timeoutMs == nullptr) fail(Errc::invalid_argument, "timeoutMs is NULL");
    *timeoutMs = static_cast<uint32_t>(limit_us() / 1000);
  });
}

aclError aclrtGetOpTimeOutInterval(uint64_t *interval) {
  return guarded(__func__, [&] {
    require_initialized();
    if (interval == nullptr) fail(Errc::invalid_argument, "interval is NULL");
    *interval = kIntervalUs;
  });
}

}  // extern "C"
