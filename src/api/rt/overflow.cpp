// Float overflow detection: a stream's overflow switch (aclrtSet/GetStreamOverflowSwitch) and
// the overflow status (aclrtGetOverflowStatus / aclrtResetOverflowStatus), which the built-in
// operators queued on a stream with the switch on set when they produce an inf or a NaN
// (ops/non_finite.h). The status is the process's, as on an Atlas A2.
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

// CANN's status buffer: 64 bytes, the first 32-bit word nonzero after an overflow.
constexpr size_t kStatusBytes = 64;

void submit(aclrtStream stream, const char *label, std::function<void()> fn,
            void *written = nullptr) {
  auto s = openacl::api::stream_for_submit(stream);
  auto task = std::make_unique<openacl::FunctionTask>(openacl::TaskKind::memset, label,
                                                      [fn](openacl::ExecContext &) { fn(); });
  if (written != nullptr) task->add_range(written, kStatusBytes, true);
  s->enqueue(std::move(task));
}

}  // namespace

extern "C" {

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  return guarded(__func__, [&] {
    require_initialized();
    if (flag > 1) fail(Errc::invalid_argument, "flag " + std::to_string(flag) + " is not 0 or 1");
    openacl::api::stream_for_host(stream)->set_overflow_switch(flag == 1);
  });
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag) {
  return guarded(__func__, [&] {
    require_initialized();
    if (flag == nullptr) fail(Errc::invalid_argument, "flag is NULL");
    *flag = openacl::api::stream_for_host(stream)->overflow_switch() ? 1 : 0;
  });
}

aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (outputAddr == nullptr) fail(Errc::invalid_argument, "outputAddr is NULL");
    if (outputSize < kStatusBytes)
      fail(Errc::invalid_argument,
           "outputSize " + std::to_string(outputSize) + " is below the status's 64 bytes");
    openacl::Runtime::get().memory().check_device_range(outputAddr, kStatusBytes, "outputAddr");
    submit(
        stream, "get_overflow_status",
        [outputAddr] {
          uint8_t status[kStatusBytes] = {};
          const uint32_t overflowed = openacl::Runtime::get().overflowed() ? 1 : 0;
          std::memcpy(status, &overflowed, sizeof overflowed);
          std::memcpy(outputAddr, status, kStatusBytes);
        },
        outputAddr);
  });
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    submit(stream, "reset_overflow_status", [] { openacl::Runtime::get().clear_overflow(); });
  });
}

}  // extern "C"
