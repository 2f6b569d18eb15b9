// aclrtValueWrite / aclrtValueWait: streams synchronized through a 64-bit value in device
// memory (src/core/value_tasks.h).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/rt/copy_plan.h"
#include "core/stream.h"
#include "core/value_tasks.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

// The value's address: 8 aligned bytes of device memory.
uint64_t *value_at(void *devAddr) {
  if (devAddr == nullptr) fail(Errc::invalid_argument, "devAddr is NULL");
  if (reinterpret_cast<uintptr_t>(devAddr) % alignof(uint64_t) != 0) {
    fail(Errc::invalid_argument, "devAddr is not 8-byte aligned (the value is 64 bits wide)");
  }
  if (openacl::api::place_of(devAddr, sizeof(uint64_t), "devAddr") != openacl::api::Place::device) {
    fail(Errc::invalid_argument, "devAddr is not device memory (aclrtMalloc)");
  }
  return static_cast<uint64_t *>(devAddr);
}

openacl::ValueCondition condition_of(uint32_t flag) {
  switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ:
      return openacl::ValueCondition::geq;
    case ACL_STREAM_WAIT_VALUE_EQ:
      return openacl::ValueCondition::eq;
    case ACL_STREAM_WAIT_VALUE_AND:
      return openacl::ValueCondition::and_nonzero;
    case ACL_STREAM_WAIT_VALUE_NOR:
      return openacl::ValueCondition::nor_nonzero;
    default:
      break;
  }
  fail(Errc::invalid_argument, "flag " + std::to_string(flag) +
                                   " is not ACL_STREAM_WAIT_VALUE_GEQ, _EQ, _AND or _NOR (0 to 3)");
}

}  // namespace

extern "C" {

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    uint64_t *addr = value_at(devAddr);
    if (flag != 0) fail(Errc::invalid_argument, "flag must be 0");
    openacl::api::stream_for_submit(stream)->enqueue(
        std::make_unique<openacl::ValueWriteTask>(addr, value));
  });
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    uint64_t *addr = value_at(devAddr);
    auto cond = condition_of(flag);
    openacl::api::stream_for_submit(stream)->enqueue(
        std::make_unique<openacl::ValueWaitTask>(addr, value, cond));
  });
}

}  // extern "C"
