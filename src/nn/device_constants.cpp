#include "nn/device_constants.h"

#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"

namespace openacl::nn {

namespace {

constexpr size_t kAlign = 64;

size_t aligned(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Device 0 when the runtime has devices and device 0 does not read host memory, else null.
Device *copying_device() {
  Runtime &rt = Runtime::get();
  if (rt.device_count() == 0) return nullptr;
  try {
    Device &device = rt.device(0);
    return device.backend().host_addressable() ? nullptr : &device;
  } catch (const Error &) {
    return nullptr;
  }
}

}  // namespace

void place_constants(Plan &plan) {
  plan.constant_at.clear();
  for (const auto &c : plan.constants) plan.constant_at.push_back(c.data());
  Device *device = copying_device();
  if (device == nullptr || plan.constants.empty()) return;
  size_t bytes = 0;
  for (const auto &c : plan.constants) bytes += aligned(c.size());
  if (bytes == 0) return;
  auto *block = static_cast<uint8_t *>(device->allocate(bytes));
  // A plan may outlive its runtime (a thread's plan cache is emptied by the next aclInit): the
  // block is released only while the runtime that allocated it lives, and went with it else.
  const uint64_t epoch = Runtime::get().epoch();
  plan.device_copy = std::shared_ptr<void>(block, [device, epoch](void *p) {
    Runtime &rt = Runtime::get();
    Allocation a;
    if (rt.epoch() != epoch || !rt.memory().find(p, a)) return;
    try {
      device->release(p);
    } catch (const Error &) {  // finalize took it meanwhile
    }
  });
  size_t at = 0;
  for (size_t i = 0; i < plan.constants.size(); ++i) {
    const auto &c = plan.constants[i];
    if (!c.empty()) device->backend().copy(block + at, c.data(), c.size());
    plan.constant_at[i] = block + at;
    at += aligned(c.size());
  }
}

}  // namespace openacl::nn
