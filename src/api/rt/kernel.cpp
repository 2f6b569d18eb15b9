// User kernels (R16): CPU kernel libraries loaded and launched through CANN's binary calls.
#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/kernel.h"
#include "core/observer.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::function_of;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

void launch(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
            aclrtStream stream) {
  require_initialized();
  auto f = function_of(funcHandle);
  if (numBlocks == 0) fail(Errc::invalid_argument, "numBlocks is 0");
  if (argsData == nullptr && argsSize != 0)
    fail(Errc::invalid_argument, "argsData is NULL but argsSize is not 0");
  std::shared_ptr<openacl::Stream> held;
  openacl::api::stream_ref_for_submit(stream, held)
      .enqueue(std::make_unique<openacl::KernelTask>(std::move(f), numBlocks, argsData, argsSize));
}

// aclrtCreateBinary descriptions: the bytes of a kernel library, until aclrtDestroyBinary.
struct BinaryBytes {
  std::vector<uint8_t> bytes;
};

openacl::Registry<BinaryBytes> &binary_bytes() { return Runtime::get().tables.kept<BinaryBytes>(); }

aclrtBinHandle add_binary(std::shared_ptr<openacl::Binary> binary) {
  aclrtBinHandle h = Runtime::get().binaries.add(std::move(binary));
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::binary, h, true);
  return h;
}

}  // namespace

extern "C" {

aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen) {
  aclrtBinary out = nullptr;
  guarded(__func__, [&] {
    if (data == nullptr || dataLen == 0)
      fail(Errc::invalid_argument, "data is NULL or dataLen is 0");
    const auto *bytes = static_cast<const uint8_t *>(data);
    out = binary_bytes().add(std::make_shared<BinaryBytes>(BinaryBytes{{bytes, bytes + dataLen}}));
  });
  return out;
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  return guarded(__func__, [&] {
    if (binary == nullptr) fail(Errc::invalid_argument, "binary is NULL");
    if (!binary_bytes().remove(binary))
      fail(Errc::invalid_handle, "unknown or destroyed binary (aclrtCreateBinary)");
  });
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (binary == nullptr || binHandle == nullptr)
      fail(Errc::invalid_argument, "binary or binHandle is NULL");
    auto b = binary_bytes().find(binary);
    if (!b) fail(Errc::invalid_handle, "unknown or destroyed binary (aclrtCreateBinary)");
    *binHandle = add_binary(openacl::Binary::from_data(b->bytes.data(), b->bytes.size()));
  });
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (binPath == nullptr || binHandle == nullptr)
      fail(Errc::invalid_argument, "binPath or binHandle is NULL");
    *binHandle = add_binary(std::make_shared<openacl::Binary>(binPath));
  });
}

// A CPU kernel library in memory (the bytes of its .so file).
aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                 const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (data == nullptr || length == 0 || binHandle == nullptr)
      fail(Errc::invalid_argument, "data, length or binHandle is NULL or 0");
    *binHandle = add_binary(openacl::Binary::from_data(data, length));
  });
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (binHandle == nullptr) fail(Errc::invalid_argument, "binHandle is NULL");
    auto bin = Runtime::get().binaries.remove(binHandle);
    if (!bin) fail(Errc::invalid_handle, "unknown or already unloaded binary");
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::binary, binHandle,
                    false);
    Runtime::get().functions.remove_if([&](const openacl::Function &f) { return f.binary == bin; });
  });
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                aclrtFuncHandle *funcHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    if (binHandle == nullptr || kernelName == nullptr || funcHandle == nullptr) {
      fail(Errc::invalid_argument, "binHandle, kernelName or funcHandle is NULL");
    }
    auto bin = Runtime::get().binaries.find(binHandle);
    if (!bin) fail(Errc::invalid_handle, "unknown or unloaded binary");
    auto f = std::make_shared<openacl::Function>();
    f->binary = bin;
    f->entry = bin->lookup(kernelName);
    f->name = kernelName;
    *funcHandle = Runtime::get().functions.add(f);
  });
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name) {
  return guarded(__func__, [&] {
    require_initialized();
    auto f = function_of(funcHandle);
    if (name == nullptr) fail(Errc::invalid_argument, "name is NULL");
    if (maxLen <= f->name.size()) fail(Errc::invalid_argument, "maxLen is too small for the name");
    std::memcpy(name, f->name.c_str(), f->name.size() + 1);
  });
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle) {
  return guarded(__func__, [&] {
    require_initialized();
    auto f = function_of(funcHandle);
    if (binHandle == nullptr) fail(Errc::invalid_argument, "binHandle is NULL");
    *binHandle = f->binary->handle();
  });
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                           size_t argsSize, aclrtStream stream) {
  return guarded(__func__, [&] { launch(funcHandle, numBlocks, argsData, argsSize, stream); });
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                             size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
  return guarded(__func__, [&] { launch(funcHandle, numBlocks, argsData, argsSize, stream); });
}

}  // extern "C"
