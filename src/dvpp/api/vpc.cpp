// VPC entry points: resize, crop, crop-and-paste and their batch forms, all one operation
// (crop a region, resize it, paste it into a region of the output; dvpp/vpc.h). Every picture
// and region is checked at the call; the work runs as a task on the stream.
#include <string>
#include <vector>

#include "api/guard.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/descs.h"
#include "dvpp/api/submit.h"
#include "dvpp/vpc.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace dv = openacl::dvpp;

namespace {

// One crop-resize-paste, checked.
struct Job {
  dv::Image in, out;
  dv::Rect crop, paste;
};

// The names of a job's arguments, for messages.
struct Names {
  std::string in = "inputDesc", out = "outputDesc", crop = "cropArea", paste = "pasteArea";
};

Job job(acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc, const acldvppRoiConfig *cropArea,
        const acldvppRoiConfig *pasteArea, const Names &names = {}) {
  Job j;
  j.in = dv::api::vpc_picture(inputDesc, names.in.c_str());
  j.out = dv::api::vpc_picture(outputDesc, names.out.c_str());
  j.crop = cropArea ? dv::api::region(cropArea, names.crop.c_str(), j.in, false) : dv::api::whole(j.in);
  j.paste = pasteArea ? dv::api::region(pasteArea, names.paste.c_str(), j.out, true) : dv::api::whole(j.out);
  dv::api::check_scale(j.crop, j.paste);
  return j;
}


void run(aclrtStream stream, const char *label, std::vector<Job> jobs, dv::Interpolation interpolation) {
  std::vector<dv::api::Access> ranges;
  for (const Job &j : jobs) {
    ranges.push_back({j.in.data, dv::image_bytes(j.in), false});
    ranges.push_back({j.out.data, dv::image_bytes(j.out), true});
  }
  dv::api::submit(stream, label, ranges, [jobs = std::move(jobs), interpolation] {
    for (const Job &j : jobs) dv::crop_resize_paste(j.in, j.crop, j.out, j.paste, interpolation);
  });
}

void single(const char *api, acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
            const acldvppRoiConfig *cropArea, const acldvppRoiConfig *pasteArea, const acldvppResizeConfig *resizeConfig,
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
           acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[], const acldvppResizeConfig *resizeConfig,
           aclrtStream stream) {
  dv::api::check_channel(channelDesc, DVPP_CHNMODE_VPC, "DVPP_CHNMODE_VPC");
  checked(srcBatchPicDescs, "srcBatchPicDescs");
  checked(dstBatchPicDescs, "dstBatchPicDescs");
  if (roiNums == nullptr) fail(Errc::invalid_argument, "roiNums is NULL");
  if (cropAreas == nullptr) fail(Errc::invalid_argument, "cropAreas is NULL");
  if (size == 0 || size > srcBatchPicDescs->pics.size())
    fail(Errc::invalid_argument, "size " + std::to_string(size) + " is not 1.." + std::to_string(srcBatchPicDescs->pics.size()) +
                                     " (the source batch)");
  uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) total += roiNums[i];
  if (total == 0 || total > dstBatchPicDescs->pics.size())
    fail(Errc::invalid_argument, "the roiNums add up to " + std::to_string(total) + ", not 1.." +
                                     std::to_string(dstBatchPicDescs->pics.size()) + " (the destination batch)");
  dv::Interpolation interpolation = dv::api::interpolation(resizeConfig);
  std::vector<Job> jobs;
  size_t k = 0;
  for (uint32_t i = 0; i < size; ++i) {
    for (uint32_t r = 0; r < roiNums[i]; ++r, ++k) {
      const std::string n = std::to_string(k);
      Names names{"srcBatchPicDescs[" + std::to_string(i) + "]", "dstBatchPicDescs[" + n + "]", "cropAreas[" + n + "]",
                  "pasteAreas[" + n + "]"};
      if (cropAreas[k] == nullptr) fail(Errc::invalid_argument, names.crop + " is NULL");
      if (pasteAreas != nullptr && pasteAreas[k] == nullptr) fail(Errc::invalid_argument, names.paste + " is NULL");
      jobs.push_back(job(&srcBatchPicDescs->pics[i], &dstBatchPicDescs->pics[k], cropAreas[k],
                         pasteAreas ? pasteAreas[k] : nullptr, names));
    }
  }
  run(stream, api, std::move(jobs), interpolation);
}

}  // namespace

extern "C" {

aclError acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                               acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, nullptr, nullptr, resizeConfig, stream, false, false);
  });
}

aclError acldvppVpcCropAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc, acldvppPicDesc *outputDesc,
                             acldvppRoiConfig *cropArea, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    single(api, channelDesc, inputDesc, outputDesc, cropArea, nullptr, nullptr, stream, true, false);
  });
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                   acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                   acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, cropArea, nullptr, resizeConfig, stream, true, false);
  });
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                     acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                     acldvppRoiConfig *pasteArea, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    single(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea, nullptr, stream, true, true);
  });
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                        acldvppPicDesc *outputDesc, acldvppRoiConfig *cropArea,
                                        acldvppRoiConfig *pasteArea, acldvppResizeConfig *resizeConfig,
                                        aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    single(api, channelDesc, inputDesc, outputDesc, cropArea, pasteArea, resizeConfig, stream, true, true);
  });
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
                                  uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                  acldvppRoiConfig *cropAreas[], aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr, nullptr, stream);
  });
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
                                        uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                        acldvppRoiConfig *cropAreas[], acldvppResizeConfig *resizeConfig,
                                        aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    checked(resizeConfig, "resizeConfig");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, nullptr, resizeConfig,
          stream);
  });
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
                                          uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                          acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[],
                                          aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    if (pasteAreas == nullptr) fail(Errc::invalid_argument, "pasteAreas is NULL");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas, nullptr,
          stream);
  });
}

aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc *channelDesc, acldvppBatchPicDesc *srcBatchPicDescs,
                                             uint32_t *roiNums, uint32_t size, acldvppBatchPicDesc *dstBatchPicDescs,
                                             acldvppRoiConfig *cropAreas[], acldvppRoiConfig *pasteAreas[],
                                             acldvppResizeConfig *resizeConfig, aclrtStream stream) {
  return guarded(__func__, [&, api = __func__] {
    if (pasteAreas == nullptr) fail(Errc::invalid_argument, "pasteAreas is NULL");
    checked(resizeConfig, "resizeConfig");
    batch(api, channelDesc, srcBatchPicDescs, roiNums, size, dstBatchPicDescs, cropAreas, pasteAreas, resizeConfig,
          stream);
  });
}

}  // extern "C"
