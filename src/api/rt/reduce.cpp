// aclrtReduceAsync: dst[i] = dst[i] op src[i] as a task of the stream (ops/reduce_into.h).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "ops/reduce_into.h"

using openacl::Errc;
using openacl::fail;
using openacl::ops::ReduceOp;

namespace {

ReduceOp reduce_op(aclrtReduceKind kind) {
  switch (openacl::api::enum_value(kind)) {
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
      return ReduceOp::sum;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
      return ReduceOp::max;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
      return ReduceOp::min;
    case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL:  // CANN's runtime refuses it too
      fail(Errc::feature_not_supported, "kind ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not supported");
    default:
      fail(Errc::invalid_argument,
           "kind " + std::to_string(openacl::api::enum_value(kind)) + " is not an aclrtReduceKind");
  }
}

// [p, p + n) must be device memory of the stream's device.
void check_side(const void *p, uint64_t n, const char *what, const openacl::Stream &s) {
  auto &memory = openacl::Runtime::get().memory();
  memory.check_device_range(p, n, what);
  if (memory.find(p)->device != &s.device())
    fail(Errc::invalid_argument, std::string(what) + " is memory of device " +
                                     std::to_string(memory.find(p)->device->id()) +
                                     ", not of the stream's device " +
                                     std::to_string(s.device().id()));
}

}  // namespace

extern "C" {

aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                          aclDataType type, aclrtStream stream, void *reserve) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (dst == nullptr || src == nullptr) fail(Errc::invalid_argument, "dst or src is NULL");
    if (reserve != nullptr) fail(Errc::invalid_argument, "reserve must be NULL");
    ReduceOp op = reduce_op(kind);
    size_t size = openacl::ops::reduce_element_size(type);
    if (size == 0)
      fail(Errc::feature_not_supported,
           "type " + std::to_string(openacl::api::enum_value(type)) +
               " is not reducible: ACL_INT8, ACL_INT16, ACL_INT32, ACL_FLOAT16, ACL_BF16 and "
               "ACL_FLOAT are");
    if (count % size != 0)
      fail(Errc::invalid_argument, "count (" + std::to_string(count) +
                                       " bytes) is not a whole number of " + std::to_string(size) +
                                       "-byte elements");
    auto s = openacl::api::stream_for_submit(stream);
    if (count == 0) return;
    check_side(dst, count, "dst", *s);
    check_side(src, count, "src", *s);
    auto d = reinterpret_cast<uintptr_t>(dst), r = reinterpret_cast<uintptr_t>(src);
    if (d != r && d < r + count && r < d + count)
      fail(Errc::invalid_argument, "dst and src overlap without being the same buffer");
    auto task = std::make_unique<openacl::FunctionTask>(
        openacl::TaskKind::memcpy, "reduce_async", [=](openacl::ExecContext &) {
          openacl::ops::reduce_into(dst, src, count / size, op, type);
        });
    task->add_range(src, count, false);
    task->add_range(dst, count, true);
    s->enqueue(std::move(task));
  });
}

}  // extern "C"
