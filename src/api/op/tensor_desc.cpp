// Tensor descriptors (acl/acl_base.h, with CANN's checks and NULL results). Pure data
// calls: no aclInit needed.
// Calls that return a value rather than an aclError still record the thread's error message
// on bad input, through guarded().
#include "api/op/tensor_desc.h"

#include <limits>
#include <new>

#include "api/guard.h"

using openacl::Errc;
using openacl::fail;

namespace {

void require_desc(const void *desc) {
  if (desc == nullptr) fail(Errc::invalid_argument, "desc is NULL");
}

std::vector<int64_t> copy_dims(int numDims, const int64_t *dims) {
  if (numDims < 0)
    fail(Errc::invalid_argument, "numDims " + std::to_string(numDims) + " is negative");
  if (numDims > 0 && dims == nullptr)
    fail(Errc::invalid_argument, "dims is NULL while numDims is " + std::to_string(numDims));
  return numDims == 0 ? std::vector<int64_t>{} : std::vector<int64_t>(dims, dims + numDims);
}

// Element count with the reference's rules: 1 for a scalar, 0 for a negative dim or overflow.
size_t element_count(const aclTensorDesc &desc) {
  size_t count = 1;
  for (int64_t d : desc.dims) {
    if (d < 0) return 0;
    if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d)) return 0;
    count *= static_cast<size_t>(d);
  }
  return count;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims,
                                                       const int64_t *dims, aclFormat format) {
  aclTensorDesc *desc = nullptr;
  openacl::api::guarded(__func__, [&] {
    auto copied = copy_dims(numDims, dims);
    desc = new (std::nothrow) aclTensorDesc;
    if (desc == nullptr) fail(Errc::out_of_memory, "cannot allocate a tensor descriptor");
    desc->dtype = dataType;
    desc->format = format;
    desc->dims = std::move(copied);
  });
  return desc;
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc) { delete desc; }

ACL_FUNC_VISIBILITY aclError aclSetTensorShapeRange(
    aclTensorDesc *desc, size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (dimsCount > 0 && dimsRange == nullptr) fail(Errc::invalid_argument, "dimsRange is NULL");
    desc->shape_range.clear();
    for (size_t i = 0; i < dimsCount; ++i)
      desc->shape_range.push_back({dimsRange[i][0], dimsRange[i][1]});
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorValueRange(
    aclTensorDesc *desc, size_t valueCount, int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (valueCount > 0 && valueRange == nullptr) fail(Errc::invalid_argument, "valueRange is NULL");
    desc->value_range.clear();
    for (size_t i = 0; i < valueCount; ++i)
      desc->value_range.push_back({valueRange[i][0], valueRange[i][1]});
  });
}

ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc *desc) {
  aclDataType type = ACL_DT_UNDEFINED;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    type = desc->dtype;
  });
  return type;
}

ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) {
  aclFormat format = ACL_FORMAT_UNDEFINED;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    format = desc->format;
  });
  return format;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) {
  size_t count = 0;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    count = element_count(*desc);
  });
  return count;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  size_t size = 0;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    const size_t count = element_count(*desc);
    const size_t item = aclDataTypeSize(desc->dtype);
    if (item != 0 && count > std::numeric_limits<size_t>::max() / item) return;
    size = count * item;
  });
  return size;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
  size_t n = 0;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    n = (!desc->dims.empty() && desc->dims[0] == -2) ? static_cast<size_t>(ACL_UNKNOWN_RANK)
                                                     : desc->dims.size();
  });
  return n;
}

ACL_FUNC_VISIBILITY int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index) {
  int64_t dim = -1;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (index >= desc->dims.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " out of range: the desc has " +
                                       std::to_string(desc->dims.size()) + " dims");
    dim = desc->dims[index];
  });
  return dim;
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index,
                                                   int64_t *dimSize) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (dimSize == nullptr) fail(Errc::invalid_argument, "dimSize is NULL");
    if (index >= desc->dims.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " out of range: the desc has " +
                                       std::to_string(desc->dims.size()) + " dims");
    *dimSize = desc->dims[index];
  });
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index,
                                                      size_t dimRangeNum, int64_t *dimRange) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (dimRange == nullptr) fail(Errc::invalid_argument, "dimRange is NULL");
    if (index >= desc->shape_range.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " out of range: the desc has " +
                                       std::to_string(desc->shape_range.size()) + " shape ranges");
    if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
      fail(Errc::invalid_argument,
           "dimRangeNum " + std::to_string(dimRangeNum) + " is less than 2");
    dimRange[0] = desc->shape_range[index][0];
    dimRange[1] = desc->shape_range[index][1];
  });
}

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc *desc, const char *name) {
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->name = name == nullptr ? "" : name;
  });
}

ACL_FUNC_VISIBILITY const char *aclGetTensorDescName(aclTensorDesc *desc) {
  return desc == nullptr ? "" : desc->name.c_str();
}

ACL_FUNC_VISIBILITY aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc,
                                                      aclFormat dstFormat,
                                                      aclTensorDesc **dstDesc) {
  // As the reference implementation: format transformation needs the device's private
  // layouts, which the simulated NPU does not have.
  return openacl::api::report_unsupported("aclTransTensorDescFormat");
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->storage_format = format;
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims,
                                                      const int64_t *dims) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->storage_dims = copy_dims(numDims, dims);
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->storage_format = format;
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc *desc, int numDims,
                                               const int64_t *dims) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->storage_dims = copy_dims(numDims, dims);
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->format = format;
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims,
                                                     const int64_t *dims) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    desc->dims = copy_dims(numDims, dims);
  });
}

// CANN returns desc + index into an array of descriptors; ours are single objects, so only
// index 0 exists.
ACL_FUNC_VISIBILITY aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, size_t index) {
  aclTensorDesc *out = nullptr;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (index != 0)
      fail(Errc::invalid_argument,
           "index " + std::to_string(index) + " out of range: 1 descriptor");
    out = desc;
  });
  return out;
}

ACL_FUNC_VISIBILITY void *aclGetTensorDescAddress(const aclTensorDesc *desc) {
  void *address = nullptr;
  openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    address = desc->address;
  });
  return address;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorDynamicInput(aclTensorDesc *desc,
                                                      const char *dynamicInputName) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (dynamicInputName == nullptr) fail(Errc::invalid_argument, "dynamicInputName is NULL");
    desc->dynamic_input_name = dynamicInputName;
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer,
                                               size_t length) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (dataBuffer == nullptr) fail(Errc::invalid_argument, "dataBuffer is NULL");
    if (length == 0) fail(Errc::invalid_argument, "length is 0");
    const auto *bytes = static_cast<const uint8_t *>(dataBuffer);
    desc->const_data.assign(bytes, bytes + length);
    desc->is_const = true;
  });
}

ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType) {
  return openacl::api::guarded(__func__, [&] {
    require_desc(desc);
    if (memType != ACL_MEMTYPE_DEVICE && memType != ACL_MEMTYPE_HOST &&
        memType != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)
      fail(Errc::invalid_argument,
           "memType " + std::to_string(static_cast<int>(memType)) + " is not an aclMemType");
    desc->placement = memType;
  });
}

}  // extern "C"
