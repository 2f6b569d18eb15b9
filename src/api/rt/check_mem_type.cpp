// aclrtCheckMemType: whether every address of a list is memory of the kinds asked for.
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/mem_type.h"

using openacl::Errc;
using openacl::fail;

namespace {

constexpr uint32_t kKnownTypes = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;

uint32_t type_bit(openacl::MemType t) {
  switch (t) {
    case openacl::MemType::device:
      return ACL_RT_MEM_TYPE_DEV;
    case openacl::MemType::dvpp:
      return ACL_RT_MEM_TYPE_DVPP;
    case openacl::MemType::reserved:
      return ACL_RT_MEM_TYPE_RSVD;
    case openacl::MemType::other:
      break;
  }
  return 0;
}

}  // namespace

extern "C" {

// checkResult: 1 when each address is memory of one of the types or-ed in memType, else 0.
aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult,
                           uint32_t reserve) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (addrList == nullptr || checkResult == nullptr)
      fail(Errc::invalid_argument, "addrList or checkResult is NULL");
    if (size == 0) fail(Errc::invalid_argument, "size is 0: addrList holds no address");
    if (memType == 0 || (memType & ~kKnownTypes) != 0)
      fail(Errc::invalid_argument,
           "memType " + std::to_string(memType) +
               " is not ACL_RT_MEM_TYPE_DEV, ACL_RT_MEM_TYPE_DVPP, ACL_RT_MEM_TYPE_RSVD or an or "
               "of them");
    if (reserve != 0) fail(Errc::invalid_argument, "reserve must be 0");
    uint32_t match = 1;
    for (uint32_t i = 0; i < size && match == 1; ++i)
      if ((type_bit(openacl::mem_type_of(addrList[i])) & memType) == 0) match = 0;
    *checkResult = match;
  });
}

}  // extern "C"
