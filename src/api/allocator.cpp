// acl_rt_allocator.h: allocator descriptors and their registration per stream. A registration
// lasts until aclrtAllocatorUnregister, the stream's end, or aclFinalize.
#include "api/allocator.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::require_initialized;
using openacl::api::StreamAllocator;

namespace {

struct Registry {
  std::mutex mu;
  std::unordered_map<const void *, std::unique_ptr<StreamAllocator>> descs;
  // Stream handles are never reused, so a registration of an ended stream matches nothing
  // again; stream_allocator drops it when it meets it.
  std::unordered_map<const void *, std::pair<aclrtAllocatorDesc, StreamAllocator>> streams;
};

Registry &registry() {
  static Registry r;
  return r;
}

StreamAllocator &desc_of(aclrtAllocatorDesc desc) {
  if (desc == nullptr) fail(Errc::invalid_argument, "allocatorDesc is NULL");
  auto it = registry().descs.find(desc);
  if (it == registry().descs.end())
    fail(Errc::invalid_argument, "allocatorDesc was not made by aclrtAllocatorCreateDesc, or is destroyed");
  return *it->second;
}

// Sets one field of a descriptor.
template <class T>
aclError set_field(const char *api, aclrtAllocatorDesc desc, T StreamAllocator::*field, T value, const char *name) {
  return guarded(api, [&] {
    if (value == nullptr) fail(Errc::invalid_argument, std::string(name) + " is NULL");
    std::lock_guard lock(registry().mu);
    desc_of(desc).*field = value;
  });
}

}  // namespace

namespace openacl::api {

std::optional<StreamAllocator> stream_allocator(const void *stream) {
  std::lock_guard lock(registry().mu);
  auto it = registry().streams.find(stream);
  if (it == registry().streams.end()) return std::nullopt;
  if (!Runtime::get().streams.find(stream)) {
    registry().streams.erase(it);
    return std::nullopt;
  }
  return it->second.second;
}

}  // namespace openacl::api

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc() {
  aclrtAllocatorDesc made = nullptr;
  guarded(__func__, [&] {
    auto d = std::make_unique<StreamAllocator>();
    made = d.get();
    std::lock_guard lock(registry().mu);
    registry().descs.emplace(made, std::move(d));
  });
  return made;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  return guarded(__func__, [&] {
    std::lock_guard lock(registry().mu);
    desc_of(allocatorDesc);
    registry().descs.erase(allocatorDesc);
  });
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::allocator, allocator, "allocator");
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::alloc, func, "func");
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::free, func, "func");
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::alloc_advise, func, "func");
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::get_addr, func, "func");
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL: allocators are registered for created streams");
    openacl::api::stream_for_submit(stream);  // a live stream, or the error
    std::lock_guard lock(registry().mu);
    const StreamAllocator &d = desc_of(allocatorDesc);
    if (d.allocator == nullptr || d.alloc == nullptr || d.free == nullptr || d.get_addr == nullptr)
      fail(Errc::invalid_argument, "the descriptor lacks the allocator object or its alloc, free or get-address "
                                   "function (aclrtAllocatorSet*ToDesc)");
    registry().streams[stream] = {allocatorDesc, d};
  });
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc, aclrtAllocator *allocator,
                                   aclrtAllocatorAllocFunc *allocFunc, aclrtAllocatorFreeFunc *freeFunc,
                                   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    openacl::api::stream_for_submit(stream);
    auto a = openacl::api::stream_allocator(stream);
    if (!a) fail(Errc::invalid_argument, "no allocator is registered for the stream (aclrtAllocatorRegister)");
    if (allocatorDesc) {
      std::lock_guard lock(registry().mu);
      *allocatorDesc = registry().streams.at(stream).first;
    }
    if (allocator) *allocator = a->allocator;
    if (allocFunc) *allocFunc = a->alloc;
    if (freeFunc) *freeFunc = a->free;
    if (allocAdviseFunc) *allocAdviseFunc = a->alloc_advise;
    if (getAddrFromBlockFunc) *getAddrFromBlockFunc = a->get_addr;
  });
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    openacl::api::stream_for_submit(stream);
    std::lock_guard lock(registry().mu);
    if (registry().streams.erase(stream) == 0)
      fail(Errc::invalid_argument, "no allocator is registered for the stream (aclrtAllocatorRegister)");
  });
}

}  // extern "C"
