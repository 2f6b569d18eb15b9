// acl_rt_allocator.h: allocator descriptors and their registration per stream. A registration
// lasts until aclrtAllocatorUnregister, the stream's end, or aclFinalize.
#include "api/rt/allocator.h"

#include <memory>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;
using openacl::api::StreamAllocator;

namespace {

// A descriptor's fields, set one by one (aclrtAllocatorSet*ToDesc) while other threads may
// register it.
struct AllocatorDesc {
  std::mutex mu;
  StreamAllocator fields;
};

// What aclrtAllocatorRegister registered for a stream, under the stream's handle. Stream handles
// are never reused, so a registration of an ended stream matches nothing again; stream_allocator
// drops it when it meets it.
struct Registration {
  aclrtAllocatorDesc desc;
  StreamAllocator allocator;
};

openacl::Registry<AllocatorDesc> &descs() { return Runtime::get().tables.kept<AllocatorDesc>(); }
openacl::Registry<Registration> &registrations() {
  return Runtime::get().tables.of<Registration>();
}

std::shared_ptr<AllocatorDesc> desc_of(aclrtAllocatorDesc desc) {
  if (desc == nullptr) fail(Errc::invalid_argument, "allocatorDesc is NULL");
  auto d = descs().find(desc);
  if (!d)
    fail(Errc::invalid_argument,
         "allocatorDesc was not made by aclrtAllocatorCreateDesc, or is destroyed");
  return d;
}

// Sets one field of a descriptor.
template <class T>
aclError set_field(const char *api, aclrtAllocatorDesc desc, T StreamAllocator::*field, T value,
                   const char *name) {
  return guarded(api, [&] {
    if (value == nullptr) fail(Errc::invalid_argument, std::string(name) + " is NULL");
    auto d = desc_of(desc);
    std::lock_guard lock(d->mu);
    d->fields.*field = value;
  });
}

std::shared_ptr<Registration> registration(const void *stream) {
  auto r = registrations().find(stream);
  if (r && !Runtime::get().streams.find(stream)) {
    registrations().remove(stream);
    return nullptr;
  }
  return r;
}

}  // namespace

namespace openacl::api {

std::optional<StreamAllocator> stream_allocator(const void *stream) {
  auto r = registration(stream);
  if (!r) return std::nullopt;
  return r->allocator;
}

}  // namespace openacl::api

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc() {
  aclrtAllocatorDesc made = nullptr;
  guarded(__func__, [&] { made = descs().add(std::make_shared<AllocatorDesc>()); });
  return made;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  return guarded(__func__, [&] {
    desc_of(allocatorDesc);
    descs().remove(allocatorDesc);
  });
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::allocator, allocator, "allocator");
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::alloc, func, "func");
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::free, func, "func");
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                aclrtAllocatorAllocAdviseFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::alloc_advise, func, "func");
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  return set_field(__func__, allocatorDesc, &StreamAllocator::get_addr, func, "func");
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr)
      fail(Errc::invalid_argument, "stream is NULL: allocators are registered for created streams");
    openacl::api::stream_for_submit(stream);  // a live stream, or the error
    auto desc = desc_of(allocatorDesc);
    std::unique_lock lock(desc->mu);
    const StreamAllocator d = desc->fields;
    lock.unlock();
    if (d.allocator == nullptr || d.alloc == nullptr || d.free == nullptr || d.get_addr == nullptr)
      fail(Errc::invalid_argument,
           "the descriptor lacks the allocator object or its alloc, free or get-address "
           "function (aclrtAllocatorSet*ToDesc)");
    registrations().add(stream, std::make_shared<Registration>(Registration{allocatorDesc, d}));
  });
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                   aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                   aclrtAllocatorFreeFunc *freeFunc,
                                   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    openacl::api::stream_for_submit(stream);
    auto r = registration(stream);
    if (!r)
      fail(Errc::invalid_argument,
           "no allocator is registered for the stream (aclrtAllocatorRegister)");
    const StreamAllocator *a = &r->allocator;
    if (allocatorDesc) *allocatorDesc = r->desc;
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
    if (!registrations().remove(stream))
      fail(Errc::invalid_argument,
           "no allocator is registered for the stream (aclrtAllocatorRegister)");
  });
}

}  // extern "C"
