// Stream descriptions (acldvppCreateStreamDesc and every Set/Get): pure data calls.
#include <new>

#include "api/guard.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/video_descs.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace {

template <class F>
aclError set(const char *api, acldvppStreamDesc *d, F &&assign) {
  return guarded(api, [&] { assign(*checked(d, "streamDesc")); });
}

template <class T, class F>
T get(const char *api, const acldvppStreamDesc *d, F &&read) {
  return openacl::dvpp::api::get<T>(api, d, "streamDesc", read);
}

}  // namespace

extern "C" {

acldvppStreamDesc *acldvppCreateStreamDesc(void) { return new (std::nothrow) acldvppStreamDesc; }
aclError acldvppDestroyStreamDesc(acldvppStreamDesc *streamDesc) {
  return guarded(__func__, [&] { delete checked(streamDesc, "streamDesc"); });
}
aclError acldvppSetStreamDescData(acldvppStreamDesc *streamDesc, void *dataDev) {
  return set(__func__, streamDesc, [&](auto &d) { d.data = dataDev; });
}
aclError acldvppSetStreamDescSize(acldvppStreamDesc *streamDesc, uint32_t size) {
  return set(__func__, streamDesc, [&](auto &d) { d.size = size; });
}
aclError acldvppSetStreamDescFormat(acldvppStreamDesc *streamDesc, acldvppStreamFormat format) {
  return set(__func__, streamDesc, [&](auto &d) {
    auto f = openacl::api::enum_value(format);
    if (f < H265_MAIN_LEVEL || f > H264_HIGH_LEVEL)
      fail(Errc::invalid_argument,
           "format " + std::to_string(f) + " is not an acldvppStreamFormat");
    d.format = static_cast<uint32_t>(f);
  });
}
aclError acldvppSetStreamDescTimestamp(acldvppStreamDesc *streamDesc, uint64_t timestamp) {
  return set(__func__, streamDesc, [&](auto &d) { d.timestamp = timestamp; });
}
aclError acldvppSetStreamDescRetCode(acldvppStreamDesc *streamDesc, uint32_t retCode) {
  return set(__func__, streamDesc, [&](auto &d) { d.ret_code = retCode; });
}
aclError acldvppSetStreamDescEos(acldvppStreamDesc *streamDesc, uint8_t eos) {
  return set(__func__, streamDesc, [&](auto &d) { d.eos = eos; });
}
void *acldvppGetStreamDescData(const acldvppStreamDesc *streamDesc) {
  return get<void *>(__func__, streamDesc, [](auto &d) { return d.data; });
}
uint32_t acldvppGetStreamDescSize(const acldvppStreamDesc *streamDesc) {
  return get<uint32_t>(__func__, streamDesc, [](auto &d) { return d.size; });
}
acldvppStreamFormat acldvppGetStreamDescFormat(const acldvppStreamDesc *streamDesc) {
  return static_cast<acldvppStreamFormat>(
      get<uint32_t>(__func__, streamDesc, [](auto &d) { return d.format; }));
}
uint64_t acldvppGetStreamDescTimestamp(const acldvppStreamDesc *streamDesc) {
  return get<uint64_t>(__func__, streamDesc, [](auto &d) { return d.timestamp; });
}
uint32_t acldvppGetStreamDescRetCode(const acldvppStreamDesc *streamDesc) {
  return get<uint32_t>(__func__, streamDesc, [](auto &d) { return d.ret_code; });
}
uint8_t acldvppGetStreamDescEos(const acldvppStreamDesc *streamDesc) {
  return get<uint8_t>(__func__, streamDesc, [](auto &d) { return d.eos; });
}

}  // extern "C"
