/* Compiled as strict C11 (-std=c11 -pedantic-errors -Werror): every public header must be valid C
 * and keep the reference values. Exports what the C compiler sees (struct sizes, alignments,
 * constant values) so headers_test.cpp can check that C and C++ agree. */
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_api.h" /* C++ only: must be empty for C */
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/ops/acl_cblas.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#include <stdalign.h>

#include "struct_list.h"

/* acl/ops/acl_cblas.h (not in the reference extraction): CANN's values */
_Static_assert(ACL_TRANS_N == 0 && ACL_TRANS_T == 1 && ACL_TRANS_NZ == 2 && ACL_TRANS_NZ_T == 3,
               "aclTransType");
_Static_assert(ACL_COMPUTE_HIGH_PRECISION == 0 && ACL_COMPUTE_LOW_PRECISION == 1, "aclComputeType");

/* sample of enum values (scripts/gen_api/api.json, "enums") */
/* acl/ops/acl_dvpp.h (CANN's values; valid C through its enum typedefs) */
_Static_assert(PIXEL_FORMAT_YVU_SEMIPLANAR_420 == 2 && PIXEL_FORMAT_RGB_BAYER_8BPP == 50,
               "acldvppPixelFormat");
_Static_assert(PIXEL_FORMAT_S64C1 == 84 && PIXEL_FORMAT_FLOAT32 == 1002 &&
                   PIXEL_FORMAT_UNKNOWN == 10000,
               "acldvppPixelFormat");
_Static_assert(DVPP_CHNMODE_PNGD == 8 && ACL_JPEG_CSS_UNKNOWN == 1000 &&
                   ACL_VENC_MAX_IP_PROP_UINT32 == 12,
               "acl_dvpp.h enums");
_Static_assert(sizeof(acldvppPixelFormat) == sizeof(int), "enum typedef");

_Static_assert(ACL_MEMCPY_DEVICE_TO_HOST == 2, "aclrtMemcpyKind");
_Static_assert(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "aclrtMemcpyKind");
_Static_assert(ACL_BF16 == 27, "aclDataType");
_Static_assert(ACL_DT_UNDEFINED == -1, "aclDataType");
_Static_assert(ACL_FLOAT4_E1M2 == 41, "aclDataType");
_Static_assert(ACL_FRACTAL_Z_3D == 33, "aclFormat");
_Static_assert(ACL_FORMAT_FRACTAL_NZ_C0_8 == 54, "aclFormat");
_Static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000, "aclrtMemMallocPolicy");
_Static_assert(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1, "aclrtEventRecordedStatus");
_Static_assert(ACL_EVENT_STATUS_COMPLETE == 0, "aclrtEventStatus");
_Static_assert(ACL_STREAM_STATUS_RESERVED == 0xFFFF, "aclrtStreamStatus");
_Static_assert(ACL_DEV_ATTR_NPU_ARCH == 601, "aclrtDevAttr");
_Static_assert(ACL_DEV_ATTR_SUPER_POD_DEVICE_ID == 403, "aclrtDevAttr");
_Static_assert(ACL_STREAM_ATTR_CACHE_OP_INFO == 4, "aclrtStreamAttr");
_Static_assert(ACL_OP_DEBUG_OPTION == 16, "aclCompileOpt");
_Static_assert(ACL_ENGINE_VECTOR == 2, "aclopEngineType");
_Static_assert(ACL_DYNAMIC_AIPP_NODE == 3, "aclmdlInputAippType");
_Static_assert(ACL_MDL_RESERVED == 0xFFFF, "aclmdlConfigAttr");
_Static_assert(HUGE1G_PAGE_TYPE == 2, "enum aclrtMemPgType");

/* runtime error codes are macros, so usable in C constant expressions and case labels */
_Static_assert(ACL_ERROR_RT_STREAM_CONTEXT == 107003, "rt_error_codes.h");
_Static_assert(ACL_ERROR_RT_PARAM_INVALID == 107000, "rt_error_codes.h");
_Static_assert(ACL_ERROR_RT_MEMORY_ALLOCATION == 207001, "rt_error_codes.h");
_Static_assert(ACL_ERROR_RT_AICORE_EXCEPTION == 507015, "rt_error_codes.h");
_Static_assert(ACL_ERROR_RT_CCU_EXCEPTION == 507916, "rt_error_codes.h");
_Static_assert(ACL_RT_SUCCESS == 0, "rt_error_codes.h");

/* integer macros (api.json, "macros") */
_Static_assert(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0,
               "version");
_Static_assert(ACL_EVENT_TIME_LINE == 0x8U, "event flag");
_Static_assert(ACL_HOST_REG_PINNED == 0x10000000UL, "host register flag");
_Static_assert(ACL_UNKNOWN_RANK == 0xFFFFFFFFFFFFFFFEULL, "acl_base_mdl.h");
_Static_assert(ACL_MAX_DIM_CNT == 128 && ACL_MAX_TENSOR_NAME_LEN == 128, "acl_mdl.h");
_Static_assert(ACL_DUMP_MAX_FILE_PATH_LENGTH == 4096, "acl_dump.h");

/* layouts that follow from the reference field lists on an LP64 target */
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFULL
_Static_assert(sizeof(dim3) == 12, "dim3");
_Static_assert(sizeof(aclrtUuid) == 16, "aclrtUuid");
_Static_assert(sizeof(aclrtMemFabricHandle) == 128, "aclrtMemFabricHandle");
_Static_assert(sizeof(aclrtIpcEventHandle) == 64, "aclrtIpcEventHandle");
_Static_assert(sizeof(aclCANNPackageVersion) == 512, "aclCANNPackageVersion");
_Static_assert(sizeof(aclmdlIODims) == 1160, "aclmdlIODims");
_Static_assert(offsetof(aclmdlIODims, dims) == 136, "aclmdlIODims.dims");
_Static_assert(sizeof(aclmdlBatch) == 1032, "aclmdlBatch");
_Static_assert(sizeof(aclmdlHW) == 2056, "aclmdlHW");
_Static_assert(sizeof(aclrtMallocAttribute) == 12, "aclrtMallocAttribute");
_Static_assert(sizeof(aclrtPtrAttributes) == 28, "aclrtPtrAttributes");
_Static_assert(sizeof(aclrtMemUceInfoArray) == 2568, "aclrtMemUceInfoArray");
_Static_assert(sizeof(aclmdlRITaskParams) == 200, "aclmdlRITaskParams");
_Static_assert(offsetof(aclmdlRITaskParams, kernelTaskParams) == 72, "aclmdlRITaskParams union");
_Static_assert(sizeof(acldumpChunk) == 4120, "acldumpChunk");
#endif

#define OPENACL_SIZE(T) sizeof(T),
#define OPENACL_ALIGN(T) alignof(T),
const size_t openacl_hdr_sizes_c11[] = {OPENACL_PUBLIC_STRUCTS(OPENACL_SIZE)};
const size_t openacl_hdr_aligns_c11[] = {OPENACL_PUBLIC_STRUCTS(OPENACL_ALIGN)};
const size_t openacl_hdr_count_c11 =
    sizeof(openacl_hdr_sizes_c11) / sizeof(openacl_hdr_sizes_c11[0]);

/* ACL and GE codes are static const objects, not C constant expressions: read them at run time */
void openacl_hdr_codes_c11(long long *out) {
  out[0] = ACL_SUCCESS;
  out[1] = ACL_ERROR_INVALID_PARAM;
  out[2] = ACL_ERROR_API_NOT_SUPPORT;
  out[3] = ACL_ERROR_PROFILING_FAILURE;
  out[4] = ACL_ERROR_GE_PARAM_INVALID;
  out[5] = ACL_ERROR_GE_REDEPLOYING;
  out[6] = ACL_COMPILE_FLAG_BIN_SELECTOR;
}

/* rt codes work as case labels in C (they are macros, as upstream) */
int openacl_hdr_is_stream_context_c11(int code) {
  switch (code) {
    case ACL_ERROR_RT_STREAM_CONTEXT:
      return 1;
    default:
      return 0;
  }
}
