// VPC entry points: resize, crop, crop-and-paste and their batch forms, all one operation
// (crop a region, resize it, paste it into a region of the output; dvpp/vpc.h). Every picture
// and region is checked at the call; the work runs as a task on the stream.
#include <optional>
#include <string>
#include <vector>

#include "api/guard.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/descs.h"
#include "dvpp/api/submit.h"
#include "dvpp/pyramid.h"
#include "dvpp/vpc.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace dv = openacl::dvpp;

namespace {

// One crop-resize-paste, checked; or, with a border, crop-resize into the output less the
// border and make the border.
struct Job {
  dv::Image in, out;
  dv::Rect crop, paste;
  std::optional<dv::Border> border;
};

// The names of a job's arguments, for messages.
struct Names {
  std::string in = "inputDesc", out = "outputDesc", crop = "cropArea", paste = "pasteArea",
              border = "borderCfgs";
};

Job job(acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc, const acldvppRoiConfig *cropArea,
        const acldvppRoiConfig *pasteArea, const Names &names = {}) {
  Job j;
  j.in = dv::api::vpc_picture(inputDesc, names.in.c_str());
  j.out = dv::api::vpc_picture(outputDesc, names.out.c_str());
  j.crop =
      cropArea ? dv::api::region(cropArea, names.crop.c_str(), j.in, false) : dv::api::whole(j.in);
  j.paste = pasteArea ? dv::api::region(pasteArea, names.paste.c_str(), j.out, true)
                      : dv::api::whole(j.out);
  dv::api::check_scale(j.crop, j.paste);
  return j;
}

// A crop-resize-make-border job: CANN takes constant and replicate borders here, and the
// resized picture is the output less the border.
Job bordered_job(acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                 const acldvppRoiConfig *cropArea, const acldvppBorderConfig *borderCfg,
                 const Names &names) {
  Job j;
  j.in = dv::api::vpc_picture(inputDesc, names.in.c_str());
  j.out = dv::api::vpc_picture(outputDesc, names.out.c_str());
  j.crop = dv::api::region(cropArea, names.crop.c_str(), j.in, false);
  const dv::Border b = dv::api::border(borderCfg, names.border.c_str());
  if (b.type != BORDER_CONSTANT && b.type != BORDER_REPLICATE)
    fail(Errc::invalid_argument,
         names.border + ": this call takes BORDER_CONSTANT or BORDER_REPLICATE only");
  if (uint64_t{b.left} + b.right + 10 > j.out.width ||
      uint64_t{b.top} + b.bottom + 6 > j.out.height)
    fail(Errc::invalid_argument, names.border + ": the borders leave less than 10x6 of the " +
                                     std::to_string(j.out.width) + "x" +
                                     std::to_string(j.out.height) + " " + names.out);
  j.paste = {0, j.out.width - b.left - b.right - 1, 0, j.out.height - b.top - b.bottom - 1};
  dv::api::check_scale(j.crop, j.paste);
  j.border = b;
  return j;
}

void run(aclrtStream stream, const char *label, std::vector<Job> jobs,
         dv::Interpolation interpolation) {
  std::vector<dv::api::Access> ranges;
  for (const Job &j : jobs) {
    ranges.push_back({j.in.data, dv::image_bytes(j.in), false});
    ranges.push_back({j.out.data, dv::image_bytes(j.out), true});
  }
  dv::api::submit(stream, label, ranges,
                  [jobs = std::move(jobs), interpolation](openacl::backend::AiCores &cores,
                                                          const dv::api::HostRanges &h) {
                    for (const Job &j : jobs) {
                      const dv::Image in = h.image(j.in), out = h.image(j.out);
                      if (j.border)
                        dv::crop_resize_border(in, j.crop, out, *j.border, interpolation, &cores);
                      else dv::crop_resize_paste(in, j.crop, out, j.paste, interpolation, &cores);
                    }
                  });
}

void single(const char *api, acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
            acldvppPicDesc *outputDesc, const acldvppRoiConfig *cropArea,
            const acldvppRoiConfig *pasteArea, const acldvppResizeConfig *resizeConfig,
            aclrtStream stream, bool need_crop, bool need_paste) {
  dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
  if (need_crop && cropArea == nullptr) fail(Errc::invalid_argument, "cropArea is NULL");
  if (need_paste && pasteArea == nullptr) fail(Errc::invalid_argument, "pasteArea is NULL");
  dv::Interpolation interpolation = dv::api::interpolation(resizeConfig);
  run(stream, api, {job(inputDesc, outputDesc, cropArea, pasteArea)}, interpolation);
}

// The batch forms: roiNums[i] regions of source picture i, in order, into consecutive
// destination pictures.
void batch(const char *api, acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
           const uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
           acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[],
           const acldvppResizeConfig *resizeConfig, aclrtStream stream,
           acldvppBorderConfig *borderCfgs[] = nullptr) {
  dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
  checked(srcBatchPicDescs, "srcBatchPicDescs");
  checked(dstBatchPicDescs, "dstBatchPicDescs");
  if (roiNums == nullptr) fail(Errc::invalid_argument, "roiNums is NULL");
  if (cropAreas == nullptr) fail(Errc::invalid_argument, "cropAreas is NULL");
  if (size > 256) fail(Errc::invalid_argument, "size " + std::to_string(size) + " is above 256");
  if (size == 0 || size > srcBatchPicDescs->pics.size())
    fail(Errc::invalid_argument, "size " + std::to_string(size) + " is not 1.." +
                                     std::to_string(srcBatchPicDescs->pics.size()) +
                                     " (the source batch)");
  uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) total += roiNums[i];
  // CANN's limit: 256 regions in all.
  if (total > 256)
    fail(Errc::invalid_argument,
         "the roiNums add up to " + std::to_string(total) + ", more than 256");
  if (total == 0 || total > dstBatchPicDescs->pics.size())
    fail(Errc::invalid_argument, "the roiNums add up to " + std::to_string(total) + ", not 1.." +
                                     std::to_string(dstBatchPicDescs->pics.size()) +
                                     " (the destination batch)");
  dv::Interpolation interpolation = dv::api::interpolation(resizeConfig);
  std::vector<Job> jobs;
  size_t k = 0;
  for (uint32_t i = 0; i < size; ++i) {
    for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
      const std::string n = std::to_string(k);
      Names names{"srcBatchPicDescs[" + std::to_string(i) + "]", "dstBatchPicDescs[" + n + "]",
                  "cropAreas[" + n + "]", "pasteAreas[" + n + "]", "borderCfgs[" + n + "]"};
      if (cropAreas[k] == nullptr) fail(Errc::invalid_argument, names.crop + " is NULL");
      if (borderCfgs != nullptr) {
        jobs.push_back(bordered_job(&srcBatchPicDescs->pics[i], &dstBatchPicDescs->pics[k],
                                    cropAreas[k], borderCfgs[k], names));
        continue;
      }
      if (pasteAreas != nullptr && pasteAreas[k] == nullptr)
        fail(Errc::invalid_argument, names.paste + " is NULL");
      jobs.push_back(job(&srcBatchPicDescs->pics[i], &dstBatchPicDescs->pics[k], cropAreas[k],
                         pasteAreas ? pasteAreas[k] : nullptr, names));
    }
  }
  run(stream, api, std::move(jobs), interpolation);
}

}  // namespace

extern "C" {

aclError acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                               acldvppPicDesc *outputDesc, acldvppResizeConfig *resizeConfig,
                               aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, nullptr, nullptr, resizeConfig, stream, false,
           false);
  });
}

aclError acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                             acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                             aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    single(api, channelDesc, inputDesc, outputDesc, cropArea, nullptr, nullptr, stream, true,
           false);
  });
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                   acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                   acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, cropArea, nullptr, resizeConfig, stream, true,
           false);
  });
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                     acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                     acldvppRoiConfig *pasteArea, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    single(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea, nullptr, stream, true,
           true);
  });
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                        acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                        acldvppRoiConfig *pasteArea,
                                        acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea, resizeConfig, stream, true,
           true);
  });
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc *channelDesc,
                                  acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                  uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                  acldvppRoiConfig *cropAreas[], aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          nullptr, stream);
  });
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc *channelDesc,
                                        acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                        uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                        acldvppRoiConfig *cropAreas[],
                                        acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          resizeConfig, stream);
  });
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc *channelDesc,
                                          acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
                                          uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                          acldvppRoiConfig *cropAreas[],
                                          acldvppRoiConfig *pasteAreas[], aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    if (pasteAreas == nullptr) fail(Errc::invalid_argument, "pasteAreas is NULL");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
          pasteAreas, nullptr, stream);
  });
}

aclError acldvppVpcBatchCropResizePasteAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
    uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs, acldvppRoiConfig *cropAreas[],
    acldvppRoiConfig *pasteAreas[], acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    if (pasteAreas == nullptr) fail(Errc::invalid_argument, "pasteAreas is NULL");
    checked(resizeConfig, "resizeConfig");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas,
          pasteAreas, resizeConfig, stream);
  });
}

aclError acldvppVpcBatchCropResizeMakeBorderAsync(
    acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs, uint32_t *roiNums,
    uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs, acldvppRoiConfig *cropAreas[],
    acldvppBorderConfig *borderCfgs[], acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    if (borderCfgs == nullptr) fail(Errc::invalid_argument, "borderCfgs is NULL");
    checked(resizeConfig, "resizeConfig");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr,
          resizeConfig, stream, borderCfgs);
  });
}

aclError acldvppVpcPyrDownAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                acldvppPicDesc *outputDesc, void *reserve, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
    dv::Image in = dv::api::pyramid_picture(inputDesc, "inputDesc", false);
    dv::Image out = dv::api::pyramid_picture(outputDesc, "outputDesc", true);
    if (reserve != nullptr) fail(Errc::invalid_argument, "reserve must be NULL");
    if (out.width != in.width / 2 || out.height != in.height / 2)
      fail(Errc::invalid_argument, "outputDesc is " + std::to_string(out.width) + "x" +
                                       std::to_string(out.height) + "; one pyramid level down of " +
                                       std::to_string(in.width) + "x" + std::to_string(in.height) +
                                       " is " + std::to_string(in.width / 2) + "x" +
                                       std::to_string(in.height / 2));
    dv::api::submit(stream, api,
                    {{in.data, dv::image_bytes(in), false}, {out.data, dv::image_bytes(out), true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      dv::pyr_down(h.image(in), h.image(out));
                    });
  });
}

}  // extern "C"
