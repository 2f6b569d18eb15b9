// Data buffers, dtype sizes and float16 conversion (acl/acl_base.h). Pure data
// calls: no aclInit needed, no device touched.
#include "api/data_buffer.h"

#include <new>

#include "api/guard.h"
#include "ops/half.h"

using openacl::Errc;
using openacl::fail;

extern "C" {

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  // Never validated: NULL/0 marks an unused optional op input.
  auto *buffer = new (std::nothrow) aclDataBuffer;
  if (buffer != nullptr) *buffer = {data, size};
  return buffer;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  return openacl::api::guarded(__func__, [&] {
    if (dataBuffer == nullptr) fail(Errc::invalid_argument, "dataBuffer is NULL");
    delete dataBuffer;
  });
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data,
                                                 size_t size) {
  return openacl::api::guarded(__func__, [&] {
    if (dataBuffer == nullptr) fail(Errc::invalid_argument, "dataBuffer is NULL");
    *dataBuffer = {data, size};
  });
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? 0u : static_cast<uint32_t>(dataBuffer->length);
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? 0u : dataBuffer->length;
}

// CANN's own values, quirks included: unknown types report 8.
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 8;
  }
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value) {
  return openacl::ops::half_to_float(value);
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value) {
  return openacl::ops::float_to_half(value);
}

}  // extern "C"
