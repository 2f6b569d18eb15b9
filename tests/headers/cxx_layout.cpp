// Compiled as strict C++17 and as strict C++20 (OPENACL_HDR_STD names the arrays): every public
// header, acl_rt_api.h included, must be valid C++ with the reference values and C's layout.
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_api.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/ops/acl_cblas.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#include <cstddef>
#include <type_traits>
#include <utility>

#include "struct_list.h"

// acl/ops/acl_dvpp.h: CANN's enum values, and its signatures as C++ programs take them.
static_assert(PIXEL_FORMAT_YUV_SEMIPLANAR_420 == 1 && PIXEL_FORMAT_UNKNOWN == 10000);
static_assert(ACL_DVPP_CSC_MATRIX_BT2020_NARROW == 5 && BORDER_REFLECT_101 == 3 &&
              H264_HIGH_LEVEL == 3);
static_assert(std::is_same_v<decltype(&acldvppVpcResizeAsync),
                             aclError (*)(acldvppChannelDesc *, acldvppPicDesc *, acldvppPicDesc *,
                                          acldvppResizeConfig *, aclrtStream)>);
static_assert(std::is_same_v<decltype(&acldvppJpegDecodeAsync),
                             aclError (*)(acldvppChannelDesc *, const void *, uint32_t,
                                          acldvppPicDesc *, aclrtStream)>);

#define OPENACL_CAT2(a, b) a##b
#define OPENACL_CAT(a, b) OPENACL_CAT2(a, b)
#define OPENACL_STD_NAME(base) OPENACL_CAT(base, OPENACL_HDR_STD)

// error codes: value and declared type (section 3: int / macro / uint32_t)
static_assert(ACL_SUCCESS == 0 && ACL_ERROR_NONE == 0);
static_assert(ACL_ERROR_INVALID_PARAM == 100000);
static_assert(ACL_ERROR_UNINITIALIZE == 100001);
static_assert(ACL_ERROR_REPEAT_INITIALIZE == 100002);
static_assert(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053);
static_assert(ACL_ERROR_API_NOT_SUPPORT == 200001);
static_assert(ACL_ERROR_PROFILING_FAILURE == 500005);
static_assert(std::is_same_v<decltype(ACL_ERROR_INVALID_PARAM), const int>);
static_assert(ACL_ERROR_RT_STREAM_CONTEXT == 107003);
static_assert(ACL_ERROR_RT_CONTEXT_NULL == 107002);
static_assert(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046);
static_assert(ACL_ERROR_GE_PARAM_INVALID == 145000);
static_assert(ACL_ERROR_GE_REDEPLOYING == 545602);
static_assert(std::is_same_v<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>);
static_assert(std::is_same_v<aclError, int>);
static_assert(std::is_same_v<aclFloat16, uint16_t>);
static_assert(ACL_MEMCPY_DEVICE_TO_HOST == 2);
static_assert(ACL_BF16 == 27);
static_assert(ACL_COMPILE_FLAG_BIN_SELECTOR == 1);

// handles are opaque pointers
static_assert(std::is_same_v<aclrtStream, void *>);
static_assert(std::is_same_v<aclrtContext, void *>);
static_assert(std::is_same_v<aclmdlRI, void *>);

// dim3 has the C++ constructor with defaults of 1
static_assert(dim3().x == 1 && dim3(4).y == 1 && dim3(4, 5, 6).z == 6);

// acl_rt_api.h: the C++ overloads resolve and forward to the C functions' result type
static_assert(
    std::is_same_v<decltype(aclrtMalloc(std::declval<float **>(), size_t{16})), aclError>);
static_assert(std::is_same_v<decltype(aclrtMalloc(std::declval<float **>(), size_t{16},
                                                  ACL_MEM_MALLOC_HUGE_ONLY)),
                             aclError>);
static_assert(
    std::is_same_v<decltype(aclrtMallocHost(std::declval<int **>(), size_t{16})), aclError>);
static_assert(
    std::is_same_v<decltype(aclrtSynchronizeStream(aclrtStream{}, int32_t{10})), aclError>);
static_assert(std::is_same_v<decltype(aclrtSynchronizeDevice(int32_t{10})), aclError>);
static_assert(
    std::is_same_v<decltype(aclrtCreateEvent(std::declval<aclrtEvent *>(), 1u)), aclError>);
static_assert(std::is_same_v<decltype(aclrtMemcpy(std::declval<float *>(), size_t{4},
                                                  std::declval<const int *>(), size_t{4},
                                                  ACL_MEMCPY_HOST_TO_DEVICE)),
                             aclError>);

#define OPENACL_SIZE(T) sizeof(T),
#define OPENACL_ALIGN(T) alignof(T),
extern "C" {
extern const size_t OPENACL_STD_NAME(openacl_hdr_sizes_)[];
extern const size_t OPENACL_STD_NAME(openacl_hdr_aligns_)[];
const size_t OPENACL_STD_NAME(openacl_hdr_sizes_)[] = {OPENACL_PUBLIC_STRUCTS(OPENACL_SIZE)};
const size_t OPENACL_STD_NAME(openacl_hdr_aligns_)[] = {OPENACL_PUBLIC_STRUCTS(OPENACL_ALIGN)};
}
