// LUT maps and histograms (acldvppLutMap, acldvppHist) and the VPC calls that use them:
// acldvppVpcEqualizeHistAsync (remap through the map) and acldvppVpcCalcHistAsync (count).
#include <new>
#include <string>

#include "api/guard.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/descs.h"
#include "dvpp/api/submit.h"
#include "dvpp/histogram.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;
using openacl::dvpp::api::get;

namespace dv = openacl::dvpp;

namespace {

void check_dim(uint32_t dim) {
  if (dim >= dv::kComponents)
    fail(Errc::invalid_argument, "dim " + std::to_string(dim) + " is not below the dims (" +
                                     std::to_string(dv::kComponents) + ")");
}

}  // namespace

extern "C" {

acldvppLutMap *acldvppCreateLutMap(void) { return new (std::nothrow) acldvppLutMap; }
aclError acldvppDestroyLutMap(acldvppLutMap *lutMap) {
  return guarded(__func__, [&] { delete checked(lutMap, "lutMap"); });
}
uint32_t acldvppGetLutMapDims(const acldvppLutMap *lutMap) {
  return get<uint32_t>(__func__, lutMap, "lutMap", [](auto &) { return dv::kComponents; });
}
aclError acldvppGetLutMapData(const acldvppLutMap *lutMap, uint32_t dim, uint8_t **data,
                              uint32_t *len) {
  return guarded(__func__, [&] {
    auto *m = const_cast<acldvppLutMap *>(checked(lutMap, "lutMap"));
    check_dim(dim);
    if (data == nullptr || len == nullptr)
      fail(Errc::invalid_argument, data == nullptr ? "data is NULL" : "len is NULL");
    *data = m->map.maps[dim].data();
    *len = static_cast<uint32_t>(m->map.maps[dim].size());
  });
}

acldvppHist *acldvppCreateHist(void) { return new (std::nothrow) acldvppHist; }
aclError acldvppDestroyHist(acldvppHist *hist) {
  return guarded(__func__, [&] { delete checked(hist, "hist"); });
}
uint32_t acldvppGetHistDims(acldvppHist *hist) {
  return get<uint32_t>(__func__, hist, "hist", [](auto &) { return dv::kComponents; });
}
aclError acldvppGetHistData(acldvppHist *hist, uint32_t dim, uint32_t **data, uint16_t *len) {
  return guarded(__func__, [&] {
    checked(hist, "hist");
    check_dim(dim);
    if (data == nullptr || len == nullptr)
      fail(Errc::invalid_argument, data == nullptr ? "data is NULL" : "len is NULL");
    *data = hist->hist->bins[dim].data();
    *len = static_cast<uint16_t>(hist->hist->bins[dim].size());
  });
}
// A bad handle gives ACL_ERROR_INVALID_PARAM, as CANN's does, rather than a 0 that reads as
// success.
uint32_t acldvppGetHistRetCode(acldvppHist *hist) {
  uint32_t code = ACL_ERROR_INVALID_PARAM;
  (void)guarded(__func__, [&] { code = checked(hist, "hist")->hist->ret_code.load(); });
  return code;
}
aclError acldvppClearHist(acldvppHist *hist) {
  return guarded(__func__, [&] {
    for (auto &b : checked(hist, "hist")->hist->bins) b.fill(0);
  });
}

aclError acldvppVpcEqualizeHistAsync(const acldvppChannelDesc *channelDesc,
                                     const acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                                     const acldvppLutMap *lutMap, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
    dv::Image in = dv::api::lut_picture(inputDesc, "inputDesc");
    dv::Image out = dv::api::lut_picture(outputDesc, "outputDesc");
    const dv::Lut lut = checked(lutMap, "lutMap")->map;
    if (in.format != out.format || in.width != out.width || in.height != out.height)
      fail(Errc::invalid_argument, "outputDesc must have inputDesc's format, width and height (" +
                                       dv::format_name(in.format) + ", " +
                                       std::to_string(in.width) + "x" + std::to_string(in.height) +
                                       ")");
    dv::api::submit(stream, api,
                    {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      dv::remap(h.image(in), h.image(out), lut);
                    });
  });
}

aclError acldvppVpcCalcHistAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *srcPicDesc,
                                 acldvppHist *hist, void *reserve, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
    dv::Image in = dv::api::lut_picture(srcPicDesc, "srcPicDesc");
    auto h = checked(hist, "hist")->hist;
    if (reserve != nullptr) fail(Errc::invalid_argument, "reserve must be NULL");
    dv::api::submit(stream, api, {{in.data, dv::image_bytes(in), false}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &views) {
                      dv::add_histogram(views.image(in), *h);
                    });
  });
}

}  // extern "C"
