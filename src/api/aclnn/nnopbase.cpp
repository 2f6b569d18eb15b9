// libnnopbase: the aclnn argument objects and executors of aclnn/acl_meta.h and
// aclnn/aclnn_base.h, as CANN ships them, over libascendcl's aclnn layer (src/nn/).
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "api/aclnn/aclnn_call.h"
#include "nn/executor.h"
#include "nn/objects.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::aclnn_guarded;
using openacl::api::enum_value;
namespace nn = openacl::nn;

namespace {

// Runs `make` (which builds the object) under the guard; NULL on failure, as CANN's create
// calls return, with the reason in aclGetRecentErrMsg.
template <class T, class F>
T *create(const char *api, F &&make) {
  T *out = nullptr;
  aclnn_guarded(api, [&] {
    auto p = std::make_unique<T>();
    make(*p);
    out = p.release();
  });
  return out;
}

// Destroys a live object; NULL is accepted, as in CANN.
template <class T>
aclnnStatus destroy(const char *api, const T *p, const char *what) {
  return aclnn_guarded(api, [&] {
    if (p == nullptr) return;
    nn::checked(p, what);
    if constexpr (std::is_same_v<T, aclTensor>) {
      nn::TensorDeleter()(const_cast<T *>(p));
    } else if constexpr (std::is_same_v<T, aclScalar>) {
      nn::ScalarDeleter()(const_cast<T *>(p));
    } else {
      const_cast<T *>(p)->tag = nn::Tag::dead;
      delete p;
    }
  });
}

// Copies a shape-like vector into a new[] array the caller frees with delete[].
aclnnStatus get_dims(const char *api, const aclTensor *tensor, int64_t **out, uint64_t *num,
                     const std::vector<int64_t> &(*pick)(const aclTensor &)) {
  return aclnn_guarded(api, [&] {
    const aclTensor &t = nn::checked(tensor, "tensor");
    if (out == nullptr) fail(Errc::null_pointer, "the array pointer is NULL");
    if (num == nullptr) fail(Errc::null_pointer, "the count pointer is NULL");
    const auto &v = pick(t);
    *out = new int64_t[v.size()];
    std::copy(v.begin(), v.end(), *out);
    *num = v.size();
  });
}

const std::vector<int64_t> &view_dims(const aclTensor &t) { return t.view.dims; }
const std::vector<int64_t> &view_strides(const aclTensor &t) { return t.view.strides; }
const std::vector<int64_t> &storage_dims(const aclTensor &t) { return t.storage_dims; }

template <class T>
aclnnStatus get_size(const char *api, const T *p, uint64_t *size, const char *what,
                     size_t (*count)(const T &)) {
  return aclnn_guarded(api, [&] {
    const T &o = nn::checked(p, what);
    if (size == nullptr) fail(Errc::null_pointer, "size is NULL");
    *size = count(o);
  });
}

template <class F>
aclnnStatus executor_call(const char *api, F &&body) {
  return openacl::api::guarded_as<aclnnStatus>(api, openacl::api::to_aclnn_inner_status,
                                               ACLNN_ERR_INNER, std::forward<F>(body));
}

aclTensor &address_target(aclTensor *tensor) {
  if (tensor == nullptr) fail(Errc::null_pointer, "tensor is NULL");
  return const_cast<aclTensor &>(nn::checked(static_cast<const aclTensor *>(tensor), "tensor"));
}

aclTensor &list_member(aclTensorList *tensors, size_t relative) {
  if (tensors == nullptr) fail(Errc::null_pointer, "tensors is NULL");
  const aclTensorList &l = nn::checked(static_cast<const aclTensorList *>(tensors), "tensors");
  if (relative >= l.tensors.size())
    fail(Errc::invalid_argument, "relativeIndex " + std::to_string(relative) +
                                     " is out of range: tensors holds " +
                                     std::to_string(l.tensors.size()));
  return address_target(l.tensors[relative]);
}

aclnnStatus set_address(const char *api, aclOpExecutor *executor, nn::Side side, size_t index,
                        size_t relative, aclTensor &(*target)(aclTensor *, aclTensorList *, size_t),
                        aclTensor *tensor, aclTensorList *tensors, void *addr) {
  return executor_call(api, [&] {
    aclTensor &t = target(tensor, tensors, relative);
    t.data = addr;  // CANN sets the tensor's address first, whatever the executor
    nn::set_address(nn::live_executor(executor), side, index, relative, addr);
  });
}

aclTensor &single(aclTensor *tensor, aclTensorList *, size_t) { return address_target(tensor); }
aclTensor &member(aclTensor *, aclTensorList *tensors, size_t relative) {
  return list_member(tensors, relative);
}

}  // namespace

extern "C" {

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
  aclTensor *out = nullptr;
  aclnn_guarded(__func__, [&] {
    std::unique_ptr<aclTensor, nn::TensorDeleter> t(nn::new_tensor());
    nn::init_tensor(*t, viewDims, viewDimsNum, enum_value(dataType), stride, offset,
                    enum_value(format), storageDims, storageDimsNum, tensorData);
    out = t.release();
  });
  return out;
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
  aclScalar *out = nullptr;
  aclnn_guarded(__func__, [&] {
    std::unique_ptr<aclScalar, nn::ScalarDeleter> s(nn::new_scalar());
    nn::init_scalar(*s, value, enum_value(dataType));
    out = s.release();
  });
  return out;
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
  return create<aclIntArray>(__func__, [&](aclIntArray &a) {
    if (value == nullptr && size > 0)
      fail(Errc::null_pointer, "value is NULL while size is " + std::to_string(size));
    a.values.assign(value, value + size);
  });
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
  return create<aclFloatArray>(__func__, [&](aclFloatArray &a) {
    if (value == nullptr && size > 0)
      fail(Errc::null_pointer, "value is NULL while size is " + std::to_string(size));
    a.values.assign(value, value + size);
  });
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
  return create<aclBoolArray>(__func__, [&](aclBoolArray &a) {
    if (value == nullptr && size > 0)
      fail(Errc::null_pointer, "value is NULL while size is " + std::to_string(size));
    a.values.assign(value, value + size);
  });
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
  return create<aclTensorList>(__func__, [&](aclTensorList &l) {
    if (value == nullptr && size > 0)
      fail(Errc::null_pointer, "value is NULL while size is " + std::to_string(size));
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i] != nullptr) nn::checked(value[i], ("value[" + std::to_string(i) + "]").c_str());
      l.tensors.push_back(const_cast<aclTensor *>(value[i]));
    }
  });
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
  return create<aclScalarList>(__func__, [&](aclScalarList &l) {
    if (value == nullptr && size > 0)
      fail(Errc::null_pointer, "value is NULL while size is " + std::to_string(size));
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i] != nullptr) nn::checked(value[i], ("value[" + std::to_string(i) + "]").c_str());
      l.scalars.push_back(const_cast<aclScalar *>(value[i]));
    }
  });
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
  return destroy(__func__, tensor, "tensor");
}
aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
  return destroy(__func__, scalar, "scalar");
}
aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
  return destroy(__func__, array, "array");
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
  return destroy(__func__, array, "array");
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
  return destroy(__func__, array, "array");
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
  return aclnn_guarded(__func__, [&] {
    if (array == nullptr) return;
    nn::checked(array, "array");
    for (aclTensor *t : array->tensors)
      if (t != nullptr && aclDestroyTensor(t) != ACLNN_SUCCESS)
        fail(Errc::invalid_argument, "array holds a tensor that is not live");
    const_cast<aclTensorList *>(array)->tag = nn::Tag::dead;
    delete array;
  });
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
  return aclnn_guarded(__func__, [&] {
    if (array == nullptr) return;
    nn::checked(array, "array");
    for (aclScalar *s : array->scalars)
      if (s != nullptr && aclDestroyScalar(s) != ACLNN_SUCCESS)
        fail(Errc::invalid_argument, "array holds a scalar that is not live");
    const_cast<aclScalarList *>(array)->tag = nn::Tag::dead;
    delete array;
  });
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
  return get_dims(__func__, tensor, viewDims, viewDimsNum, view_dims);
}
aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                               uint64_t *storageDimsNum) {
  return get_dims(__func__, tensor, storageDims, storageDimsNum, storage_dims);
}
aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                              uint64_t *stridesNum) {
  return get_dims(__func__, tensor, stridesValue, stridesNum, view_strides);
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
  return aclnn_guarded(__func__, [&] {
    const aclTensor &t = nn::checked(tensor, "tensor");
    if (offset == nullptr) fail(Errc::null_pointer, "offset is NULL");
    *offset = t.view.offset;
  });
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
  return aclnn_guarded(__func__, [&] {
    const aclTensor &t = nn::checked(tensor, "tensor");
    if (format == nullptr) fail(Errc::null_pointer, "format is NULL");
    std::memcpy(format, &t.format,
                sizeof *format);  // any int the caller gave, without an enum conversion
  });
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
  return aclnn_guarded(__func__, [&] {
    const aclTensor &t = nn::checked(tensor, "tensor");
    if (dataType == nullptr) fail(Errc::null_pointer, "dataType is NULL");
    const auto dtype = static_cast<int32_t>(t.dtype);
    std::memcpy(dataType, &dtype, sizeof *dataType);
  });
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
  return get_size<aclIntArray>(__func__, array, size, "array",
                               [](const aclIntArray &a) { return a.values.size(); });
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size) {
  return get_size<aclFloatArray>(__func__, array, size, "array",
                                 [](const aclFloatArray &a) { return a.values.size(); });
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size) {
  return get_size<aclBoolArray>(__func__, array, size, "array",
                                [](const aclBoolArray &a) { return a.values.size(); });
}
aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
  return get_size<aclTensorList>(__func__, tensorList, size, "tensorList",
                                 [](const aclTensorList &l) { return l.tensors.size(); });
}
aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size) {
  return get_size<aclScalarList>(__func__, scalarList, size, "scalarList",
                                 [](const aclScalarList &l) { return l.scalars.size(); });
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
                          aclDataType dataType, const int64_t *stride, int64_t offset,
                          aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                          void *tensorDataAddr) {
  return aclnn_guarded(__func__, [&] {
    aclTensor &t =
        const_cast<aclTensor &>(nn::checked(static_cast<const aclTensor *>(tensor), "tensor"));
    aclTensor fresh;  // built aside, so a bad argument leaves the tensor as it was
    nn::init_tensor(fresh, viewDims, viewDimsNum, enum_value(dataType), stride, offset,
                    enum_value(format), storageDims, storageDimsNum, tensorDataAddr);
    t = std::move(fresh);
  });
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
  return aclnn_guarded(__func__, [&] { address_target(tensor).data = addr; });
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr) {
  return aclnn_guarded(__func__, [&] {
    const aclTensor &t = nn::checked(tensor, "tensor");
    if (addr == nullptr) fail(Errc::null_pointer, "addr is NULL");
    *addr = t.data;
  });
}

aclnnStatus aclnnInit(const char *configPath) {
  return aclnn_guarded(__func__, [&] {
    if (configPath == nullptr) return;
    std::ifstream in(configPath);
    if (!in) fail(Errc::invalid_file, std::string("configPath ") + configPath + " cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    if (!nlohmann::json::accept(text.str()))
      fail(Errc::parse_file, std::string("configPath ") + configPath + " is not JSON");
  });
}

aclnnStatus aclnnFinalize(void) {
  return aclnn_guarded(__func__, [] {});
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
  return executor_call(__func__, [&] { nn::live_executor(executor).repeatable = true; });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
  return executor_call(__func__, [&] { nn::destroy_executor(executor); });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                  void *addr) {
  return set_address(__func__, executor, nn::Side::input, index, 0, single, tensor, nullptr, addr);
}
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                   void *addr) {
  return set_address(__func__, executor, nn::Side::output, index, 0, single, tensor, nullptr, addr);
}
aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                             void *addr) {
  return set_address(__func__, executor, nn::Side::either, index, 0, single, tensor, nullptr, addr);
}
aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                         const size_t relativeIndex, aclTensorList *tensors,
                                         void *addr) {
  return set_address(__func__, executor, nn::Side::input, irIndex, relativeIndex, member, nullptr,
                     tensors, addr);
}
aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                          const size_t relativeIndex, aclTensorList *tensors,
                                          void *addr) {
  return set_address(__func__, executor, nn::Side::output, irIndex, relativeIndex, member, nullptr,
                     tensors, addr);
}
aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                    const size_t relativeIndex, aclTensorList *tensors,
                                    void *addr) {
  return set_address(__func__, executor, nn::Side::either, irIndex, relativeIndex, member, nullptr,
                     tensors, addr);
}

}  // extern "C"
