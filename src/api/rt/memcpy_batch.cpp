// Batched copies (aclrtMemcpyBatch, aclrtMemcpyBatchAsync[V2]): host-to-device or
// device-to-host copies whose directions come from per-range location attributes. Every copy
// is checked before any runs; failIndex names the copy that failed a check.
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/rt/capture.h"
#include "api/rt/copy_plan.h"
#include "core/observer.h"
#include "core/status.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::CopyPlan;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

struct Batch {
  void **dsts;
  size_t *destMaxs;
  void **srcs;
  size_t *sizes;
  size_t count;
  aclrtMemcpyBatchAttr *attrs;
  size_t *attrsIndexes;
  size_t numAttrs;
};

// The copy kind an attribute entry declares: host to device or device to host only.
int64_t kind_of(const aclrtMemcpyBatchAttr &attr, size_t k) {
  auto host = [](const aclrtMemLocation &l) {
    const int64_t t = openacl::api::enum_value(l.type);
    return t == ACL_MEM_LOCATION_TYPE_HOST || t == ACL_MEM_LOCATION_TYPE_UNREGISTERED ||
           t == ACL_MEM_LOCATION_TYPE_HOST_NUMA;
  };
  auto device = [](const aclrtMemLocation &l) {
    return openacl::api::enum_value(l.type) == ACL_MEM_LOCATION_TYPE_DEVICE;
  };
  if (host(attr.srcLoc) && device(attr.dstLoc)) return ACL_MEMCPY_HOST_TO_DEVICE;
  if (device(attr.srcLoc) && host(attr.dstLoc)) return ACL_MEMCPY_DEVICE_TO_HOST;
  fail(Errc::invalid_argument,
       "attrs[" + std::to_string(k) +
           "]: a batch copies host to device or device to host only (srcLoc.type " +
           std::to_string(openacl::api::enum_value(attr.srcLoc.type)) + ", dstLoc.type " +
           std::to_string(openacl::api::enum_value(attr.dstLoc.type)) + ")");
}

// Checks everything and plans every copy; on a copy's failure, *failIndex names it.
std::vector<CopyPlan> plan_batch(const Batch &b, size_t *failIndex) {
  if (failIndex != nullptr) *failIndex = SIZE_MAX;
  if (b.dsts == nullptr || b.destMaxs == nullptr || b.srcs == nullptr || b.sizes == nullptr) {
    fail(Errc::invalid_argument, "dsts, destMaxs, srcs and sizes must not be NULL");
  }
  if (b.attrs == nullptr || b.attrsIndexes == nullptr)
    fail(Errc::invalid_argument, "attrs and attrsIndexes must not be NULL");
  if (b.count == 0) fail(Errc::invalid_argument, "numBatches is 0");
  if (b.numAttrs == 0 || b.numAttrs > b.count) {
    fail(Errc::invalid_argument, "numAttrs " + std::to_string(b.numAttrs) +
                                     " must be in [1, numBatches " + std::to_string(b.count) + "]");
  }
  for (size_t k = 0; k < b.numAttrs; ++k) {
    const size_t first = b.attrsIndexes[k];
    const bool ok = k == 0 ? first == 0 : first > b.attrsIndexes[k - 1] && first < b.count;
    if (!ok) {
      fail(Errc::invalid_argument,
           "attrsIndexes[" + std::to_string(k) + "] = " + std::to_string(first) +
               ": the first must be 0, each must exceed the one before and be below numBatches");
    }
  }
  std::vector<CopyPlan> plans;
  plans.reserve(b.count);
  size_t k = 0;
  for (size_t i = 0; i < b.count; ++i) {
    while (k + 1 < b.numAttrs && b.attrsIndexes[k + 1] <= i) ++k;
    try {
      openacl::api::check_count(b.dsts[i], b.srcs[i], b.destMaxs[i], b.sizes[i]);
      plans.push_back(openacl::api::plan_copy(b.dsts[i], b.sizes[i], b.srcs[i], b.sizes[i],
                                              kind_of(b.attrs[k], k)));
    } catch (const openacl::Error &e) {
      if (failIndex != nullptr) *failIndex = i;
      throw openacl::Error(e.code(), "copy " + std::to_string(i) + ": " + e.what());
    }
  }
  return plans;
}

void copy_async(const Batch &b, size_t *failIndex, aclrtStream stream) {
  require_initialized();
  auto plans = plan_batch(b, failIndex);
  for (size_t i = 0; i < b.count; ++i) {
    if (b.sizes[i] == 0) continue;
    openacl::api::copy_async("aclrtMemcpyBatchAsync", stream, plans[i], b.dsts[i], b.sizes[i],
                             b.srcs[i], b.sizes[i], b.sizes[i]);
  }
}

}  // namespace

extern "C" {

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                          size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                          size_t numAttrs, size_t *failIndex) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::require_capture_safe("aclrtMemcpyBatch");
    Batch b{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs};
    const auto plans = plan_batch(b, failIndex);
    openacl::HostSpan span("aclrtMemcpyBatch");
    for (size_t i = 0; i < numBatches; ++i) {
      if (sizes[i] == 0) continue;
      openacl::notify(&openacl::TaskObserver::on_host_access, srcs[i], sizes[i], false,
                      "aclrtMemcpyBatch");
      openacl::notify(&openacl::TaskObserver::on_host_access, dsts[i], sizes[i], true,
                      "aclrtMemcpyBatch");
      openacl::api::copy_now(plans[i], dsts[i], sizes[i], srcs[i], sizes[i], sizes[i]);
    }
  });
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                               size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                               size_t numAttrs, size_t *failIndex, aclrtStream stream) {
  return guarded(__func__, [&] {
    copy_async(Batch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs},
               failIndex, stream);
  });
}

aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                 size_t *attrsIndexes, size_t numAttrs, aclrtStream stream) {
  return guarded(__func__, [&] {
    copy_async(Batch{dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs},
               nullptr, stream);
  });
}

}  // extern "C"
