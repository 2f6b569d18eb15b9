// Kernel argument lists (aclrtKernelArgs*) and the launches that take them
// (aclrtLaunchKernelWithConfig, aclrtLaunchKernelWithHostArgs). Each appended parameter starts
// at an 8-byte aligned offset, as in CANN; a placeholder parameter is a pointer slot whose data
// travels with the arguments: the kernel sees the address of that data in its copy of them.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/kernel.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::ArgsFixup;
using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::function_of;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

constexpr size_t kAlign = 8;
size_t aligned(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

struct Param {
  size_t offset;
  size_t size;
  bool placeholder;
  std::vector<uint8_t> data;  // a placeholder's buffer (aclrtKernelArgsGetPlaceHolderBuffer)
};

struct ArgsList {
  std::mutex mu;  // held by with_list: calls on one handle may come from several threads
  std::weak_ptr<const openacl::Function> function;
  std::vector<uint8_t> own;  // the parameter bytes, or
  uint8_t *user = nullptr;   // the program's memory (aclrtKernelArgsInitByUserMem)
  size_t user_size = 0;
  size_t used = 0;
  std::vector<std::unique_ptr<Param>> params;  // a param handle is the Param's address
  bool finalized = false;

  uint8_t *bytes() { return user != nullptr ? user : own.data(); }
};

// Argument lists by handle: the ArgsList's address (aclrtKernelArgsInit) or the program's
// handle memory (aclrtKernelArgsInitByUserMem). They live until aclFinalize or until the handle
// memory is initialized again; their function's binary may be unloaded meanwhile.
openacl::Registry<ArgsList> &lists() { return Runtime::get().tables.of<ArgsList>(); }

// Runs fn on the argument list behind the handle, under the list's lock.
template <class Fn>
auto with_list(aclrtArgsHandle handle, Fn fn) {
  if (handle == nullptr) fail(Errc::invalid_argument, "argsHandle is NULL");
  auto list = lists().find(handle);
  if (!list)
    fail(Errc::invalid_handle, "argsHandle is not an argument list from aclrtKernelArgsInit");
  std::lock_guard lock(list->mu);
  return fn(*list);
}

Param &param_of(ArgsList &list, aclrtParamHandle handle) {
  if (handle == nullptr) fail(Errc::invalid_argument, "paramHandle is NULL");
  for (auto &p : list.params)
    if (p.get() == handle) return *p;
  fail(Errc::invalid_handle, "paramHandle is not a parameter of this argument list");
}

// Reserves the next parameter slot of `size` bytes.
Param &append(ArgsList &list, size_t size, bool placeholder) {
  if (list.finalized)
    fail(Errc::invalid_argument, "the argument list is finalized: no parameter can be appended");
  const size_t offset = aligned(list.used);
  if (list.user != nullptr) {
    if (offset + size > list.user_size) {
      fail(Errc::invalid_argument, "the parameters need more than the " +
                                       std::to_string(list.user_size) +
                                       " bytes of userHostMem (see aclrtKernelArgsGetMemSize)");
    }
  } else {
    list.own.resize(offset + size);
  }
  list.used = offset + size;
  list.params.push_back(std::make_unique<Param>(Param{offset, size, placeholder, {}}));
  return *list.params.back();
}

void add_list(const void *handle, std::shared_ptr<ArgsList> list) {
  lists().remove_if([](const ArgsList &l) { return l.function.expired(); });
  lists().add(handle, std::move(list));
}

void launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream, const uint8_t *args,
            size_t size, std::vector<ArgsFixup> fixups) {
  auto f = function_of(funcHandle);
  if (numBlocks == 0) fail(Errc::invalid_argument, "numBlocks is 0");
  openacl::api::stream_for_submit(stream)->enqueue(std::make_unique<openacl::KernelTask>(
      std::move(f), numBlocks, args, size, std::move(fixups)));
}

}  // namespace

extern "C" {

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize) {
  return guarded(__func__, [&] {
    require_initialized();
    function_of(funcHandle);
    if (memSize == nullptr) fail(Errc::invalid_argument, "memSize is NULL");
    *memSize = sizeof(void *);  // the handle is only a key: the list itself is the runtime's
  });
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                   size_t *actualArgsSize) {
  return guarded(__func__, [&] {
    require_initialized();
    function_of(funcHandle);
    if (actualArgsSize == nullptr) fail(Errc::invalid_argument, "actualArgsSize is NULL");
    *actualArgsSize = aligned(userArgsSize);
  });
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    auto f = function_of(funcHandle);
    if (argsHandle == nullptr) fail(Errc::invalid_argument, "argsHandle is NULL");
    auto list = std::make_shared<ArgsList>();
    list->function = f;
    *argsHandle = list.get();
    add_list(*argsHandle, std::move(list));
  });
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                      void *userHostMem, size_t actualArgsSize) {
  return guarded(__func__, [&] {
    require_initialized();
    auto f = function_of(funcHandle);
    if (argsHandle == nullptr || userHostMem == nullptr)
      fail(Errc::invalid_argument, "argsHandle or userHostMem is NULL");
    auto list = std::make_shared<ArgsList>();
    list->function = f;
    list->user = static_cast<uint8_t *>(userHostMem);
    list->user_size = actualArgsSize;
    add_list(argsHandle, std::move(list));
  });
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                               aclrtParamHandle *paramHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (param == nullptr || paramSize == 0)
      fail(Errc::invalid_argument, "param is NULL or paramSize is 0");
    with_list(argsHandle, [&](ArgsList &list) {
      Param &p = append(list, paramSize, false);
      std::memcpy(list.bytes() + p.offset, param, paramSize);
      if (paramHandle != nullptr) *paramHandle = &p;
      return 0;
    });
  });
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle *paramHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (paramHandle == nullptr) fail(Errc::invalid_argument, "paramHandle is NULL");
    with_list(argsHandle, [&](ArgsList &list) {
      *paramHandle = &append(list, sizeof(void *), true);
      return 0;
    });
  });
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void **bufferAddr) {
  return guarded(__func__, [&] {
    require_initialized();
    if (bufferAddr == nullptr || dataSize == 0)
      fail(Errc::invalid_argument, "bufferAddr is NULL or dataSize is 0");
    with_list(argsHandle, [&](ArgsList &list) {
      Param &p = param_of(list, paramHandle);
      if (!p.placeholder)
        fail(Errc::invalid_argument,
             "paramHandle is not a placeholder (aclrtKernelArgsAppendPlaceHolder)");
      p.data.resize(dataSize);
      *bufferAddr = p.data.data();
      return 0;
    });
  });
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void *param, size_t paramSize) {
  return guarded(__func__, [&] {
    require_initialized();
    if (param == nullptr) fail(Errc::invalid_argument, "param is NULL");
    with_list(argsHandle, [&](ArgsList &list) {
      Param &p = param_of(list, paramHandle);
      if (p.placeholder)
        fail(Errc::invalid_argument,
             "a placeholder is updated through its buffer (aclrtKernelArgsGetPlaceHolderBuffer)");
      if (paramSize != p.size) {
        fail(Errc::invalid_argument, "paramSize " + std::to_string(paramSize) +
                                         " differs from the parameter's " + std::to_string(p.size) +
                                         " bytes");
      }
      std::memcpy(list.bytes() + p.offset, param, paramSize);
      return 0;
    });
  });
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    with_list(argsHandle, [&](ArgsList &list) {
      for (const auto &p : list.params) {
        if (p->placeholder && p->data.empty())
          fail(Errc::invalid_argument,
               "a placeholder has no buffer (aclrtKernelArgsGetPlaceHolderBuffer)");
      }
      list.finalized = true;
      return 0;
    });
  });
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                     aclrtArgsHandle argsHandle, void *reserve) {
  return guarded(__func__, [&] {
    require_initialized();
    // The launch's copy: the parameters, then each placeholder's data, its slot pointing at it.
    std::vector<uint8_t> args;
    std::vector<ArgsFixup> fixups;
    with_list(argsHandle, [&](ArgsList &list) {
      if (!list.finalized)
        fail(Errc::invalid_argument,
             "the argument list is not finalized (aclrtKernelArgsFinalize)");
      if (list.function.lock().get() != Runtime::get().functions.find(funcHandle).get()) {
        fail(Errc::invalid_argument, "the argument list was made for another function");
      }
      args.assign(list.bytes(), list.bytes() + list.used);
      for (const auto &p : list.params) {
        if (!p->placeholder) continue;
        const size_t at = aligned(args.size());
        args.resize(at + p->data.size());
        std::memcpy(args.data() + at, p->data.data(), p->data.size());
        fixups.push_back({p->offset, at});
      }
      return 0;
    });
    launch(funcHandle, numBlocks, stream, args.data(), args.size(), std::move(fixups));
  });
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                       void *hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo *placeHolderArray,
                                       size_t placeHolderNum) {
  return guarded(__func__, [&] {
    require_initialized();
    if (hostArgs == nullptr && argsSize != 0)
      fail(Errc::invalid_argument, "hostArgs is NULL but argsSize is not 0");
    if (placeHolderArray == nullptr && placeHolderNum != 0)
      fail(Errc::invalid_argument, "placeHolderArray is NULL but placeHolderNum is not 0");
    std::vector<ArgsFixup> fixups;
    for (size_t i = 0; i < placeHolderNum; ++i) {
      const auto &ph = placeHolderArray[i];
      if (size_t{ph.addrOffset} + sizeof(void *) > argsSize || ph.dataOffset > argsSize) {
        fail(Errc::invalid_argument, "placeHolderArray[" + std::to_string(i) +
                                         "] points outside the " + std::to_string(argsSize) +
                                         " bytes of hostArgs");
      }
      fixups.push_back({ph.addrOffset, ph.dataOffset});
    }
    launch(funcHandle, numBlocks, stream, static_cast<const uint8_t *>(hostArgs), argsSize,
           std::move(fixups));
  });
}

}  // extern "C"
