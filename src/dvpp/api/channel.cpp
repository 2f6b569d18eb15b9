// Channel descriptions and channels (acldvppCreateChannelDesc ... acldvppDestroyChannel).
#include <cstring>
#include <new>

#include "api/guard.h"
#include "api/handles.h"
#include "dvpp/api/descs.h"
#include "dvpp/channel.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

extern "C" {

acldvppChannelDesc *acldvppCreateChannelDesc(void) { return new (std::nothrow) acldvppChannelDesc; }

aclError acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc) {
  return guarded(__func__, [&] { delete checked(channelDesc, "channelDesc"); });
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc) {
  uint64_t id = 0;
  (void)guarded(__func__, [&] { id = checked(channelDesc, "channelDesc")->id; });
  return id;
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc *channelDesc, uint32_t mode) {
  return guarded(__func__, [&] {
    checked(channelDesc, "channelDesc");
    constexpr uint32_t kAll =
        DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD;
    if (mode == 0 || (mode & ~kAll) != 0)
      fail(Errc::invalid_argument,
           "mode " + std::to_string(mode) + " is not a combination of DVPP_CHNMODE_* flags");
    if (channelDesc->id != 0)
      fail(Errc::invalid_argument,
           "the channel is already created; set its mode before acldvppCreateChannel");
    channelDesc->mode = mode;
  });
}

aclError acldvppSetChannelDescParam(acldvppChannelDesc *channelDesc,
                                    acldvppChannelDescParamType paramType, size_t length,
                                    const void *param) {
  return guarded(__func__, [&] {
    checked(channelDesc, "channelDesc");
    if (openacl::api::enum_value(paramType) != ACL_DVPP_CSC_MATRIX_UINT32)
      fail(Errc::invalid_argument, "paramType must be ACL_DVPP_CSC_MATRIX_UINT32");
    if (param == nullptr || length != sizeof(uint32_t))
      fail(Errc::invalid_argument,
           "param must point to a uint32_t (length " + std::to_string(sizeof(uint32_t)) + ")");
    uint32_t v;
    std::memcpy(&v, param, sizeof v);
    if (v > ACL_DVPP_CSC_MATRIX_BT2020_NARROW)
      fail(Errc::invalid_argument, "param is not an acldvppCscMatrix value");
    channelDesc->csc_matrix = v;
  });
}

aclError acldvppGetChannelDescParam(const acldvppChannelDesc *channelDesc,
                                    acldvppChannelDescParamType paramType, size_t length,
                                    size_t *paramRetSize, void *param) {
  return guarded(__func__, [&] {
    checked(channelDesc, "channelDesc");
    if (openacl::api::enum_value(paramType) != ACL_DVPP_CSC_MATRIX_UINT32)
      fail(Errc::invalid_argument, "paramType must be ACL_DVPP_CSC_MATRIX_UINT32");
    if (param == nullptr || paramRetSize == nullptr || length < sizeof(uint32_t))
      fail(Errc::invalid_argument, "param and paramRetSize must be given, with length at least 4");
    std::memcpy(param, &channelDesc->csc_matrix, sizeof(uint32_t));
    *paramRetSize = sizeof(uint32_t);
  });
}

aclError acldvppCreateChannel(acldvppChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    checked(channelDesc, "channelDesc");
    (void)openacl::api::current_context();  // CANN creates channels in the calling thread's context
    if (channelDesc->id != 0) fail(Errc::invalid_argument, "channelDesc already has a channel");
    channelDesc->id = openacl::dvpp::open_channel();
  });
}

aclError acldvppDestroyChannel(acldvppChannelDesc *channelDesc) {
  return guarded(__func__, [&] {
    checked(channelDesc, "channelDesc");
    if (channelDesc->id == 0)
      fail(Errc::invalid_argument, "channelDesc has no channel (never created, or destroyed)");
    channelDesc->id = 0;
  });
}

}  // extern "C"
