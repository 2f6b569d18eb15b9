// acldvppVpcConvertColorAsync and acldvppVpcMakeBorderAsync (dvpp/color.h): checked at the
// call, run as a task on the stream.
#include <string>

#include "api/guard.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/descs.h"
#include "dvpp/api/submit.h"
#include "dvpp/color.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace dv = openacl::dvpp;

namespace {

std::string size_of(const dv::Image &img) {
  return std::to_string(img.width) + "x" + std::to_string(img.height);
}

}  // namespace

extern "C" {

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                     acldvppPicDesc *outputDesc, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
    dv::Image in = dv::api::color_picture(inputDesc, "inputDesc");
    dv::Image out = dv::api::color_picture(outputDesc, "outputDesc");
    if (in.width != out.width || in.height != out.height)
      fail(Errc::invalid_argument,
           "inputDesc is " + size_of(in) + " but outputDesc " + size_of(out) +
               ": color conversion keeps the size (resize with acldvppVpcResizeAsync)");
    uint32_t csc = channelDesc->csc_matrix;
    dv::api::submit(stream, api,
                    {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      dv::convert_color(h.image(in), h.image(out), csc);
                    });
  });
}

aclError acldvppVpcMakeBorderAsync(const acldvppChannelDesc *channelDesc,
                                   const acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                                   const acldvppBorderConfig *borderConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
    dv::Image in = dv::api::vpc_picture(inputDesc, "inputDesc");
    dv::Image out = dv::api::vpc_picture(outputDesc, "outputDesc");
    const dv::Border b = dv::api::border(borderConfig, "borderConfig");
    if (in.format != out.format)
      fail(Errc::invalid_argument,
           "inputDesc and outputDesc must have the same format (convert with "
           "acldvppVpcConvertColorAsync)");
    if (uint64_t{in.width} + b.left + b.right != out.width ||
        uint64_t{in.height} + b.top + b.bottom != out.height)
      fail(Errc::invalid_argument, "outputDesc is " + size_of(out) + "; inputDesc " + size_of(in) +
                                       " with the borders makes " +
                                       std::to_string(in.width + b.left + b.right) + "x" +
                                       std::to_string(in.height + b.top + b.bottom));
    dv::api::submit(stream, api,
                    {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      dv::make_border(h.image(in), h.image(out), b);
                    });
  });
}

}  // extern "C"
