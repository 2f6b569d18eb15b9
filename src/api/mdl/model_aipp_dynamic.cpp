// Dynamic AIPP: a model converted with "aipp_mode: dynamic" takes its AIPP
// parameters per execution. aclmdlCreateAIPP makes a parameter set for a batch of images, the
// aclmdlSetAIPP* calls fill it (per image where they take a batchIndex), and
// aclmdlSetInputAIPP / aclmdlSetAIPPByInputIndex write it into the dataset's buffer of the
// extra input ACL_DYNAMIC_AIPP_NAME, which the execution reads.
#include <memory>
#include <vector>

#include "acl/acl_mdl.h"
#include "api/guard.h"
#include "api/mdl/dataset.h"
#include "api/mdl/model_calls.h"
#include "core/runtime.h"

struct aclmdlAIPP {
  std::vector<openacl::model::AippParams> images;
};

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::model::AippFormat;
using openacl::model::AippParams;

namespace {

openacl::Registry<aclmdlAIPP> &aipp_sets() {
  return openacl::Runtime::get().tables.kept<aclmdlAIPP>();
}

aclmdlAIPP &aipp_of(const aclmdlAIPP *handle) {
  if (handle == nullptr) fail(Errc::invalid_argument, "aippParmsSet is NULL");
  auto a = aipp_sets().find(handle);
  if (!a)
    fail(Errc::invalid_argument,
         "aippParmsSet is not a live AIPP parameter set (unknown or destroyed)");
  return *a;
}

// Applies `set` to every image of the set.
template <class F>
aclError for_all(const char *api, aclmdlAIPP *handle, F set) {
  return guarded(api, [&] {
    for (auto &p : aipp_of(handle).images) set(p);
  });
}

// Applies `set` to image batchIndex.
template <class F>
aclError for_image(const char *api, aclmdlAIPP *handle, uint64_t batchIndex, F set) {
  return guarded(api, [&] {
    auto &images = aipp_of(handle).images;
    if (batchIndex >= images.size())
      fail(Errc::invalid_argument,
           "batchIndex " + std::to_string(batchIndex) + " is out of range: the set is for " +
               std::to_string(images.size()) + " images (aclmdlCreateAIPP)");
    set(images[batchIndex]);
  });
}

bool switch_on(int8_t value, const char *what) {
  if (value != 0 && value != 1)
    fail(Errc::invalid_argument, std::string(what) + " is " + std::to_string(value) + " (0 or 1)");
  return value == 1;
}

// Checks the set against model input `input` and writes it into the dataset's buffer `data`.
void write_set(uint32_t modelId, aclmdlDataset *dataset, size_t input, size_t data,
               const aclmdlAIPP *handle) {
  openacl::api::require_initialized();
  auto m = openacl::api::find_model(modelId);
  aclmdlDataset &d = openacl::api::dataset_of(dataset, "dataset");
  auto images = aipp_of(handle).images;
  if (data >= d.buffers.size())
    fail(Errc::invalid_argument,
         "the dataset has no buffer " + std::to_string(data) + " yet (aclmdlAddDatasetBuffer)");
  m->check_dynamic_aipp(images, input);
  const aclDataBuffer *b = d.buffers[data];
  const size_t bytes = openacl::model::dynamic_aipp_bytes(images.size());
  if (b->length < bytes)
    fail(Errc::invalid_argument, "the buffer of " ACL_DYNAMIC_AIPP_NAME " holds " +
                                     std::to_string(b->length) + " bytes; the parameters take " +
                                     std::to_string(bytes) + " (aclmdlGetAippDataSize)");
  openacl::Runtime::get().memory().check_device_range(b->data, bytes, ACL_DYNAMIC_AIPP_NAME);
  // Written before the call returns, as CANN does.
  m->write_aipp_params(b->data, images);
}

// The model input with dynamic AIPP whose parameters go to input `data`; fails naming the call.
size_t dynamic_input(const openacl::model::Model &m) {
  for (size_t i = 0; i < m.graph_input_count(); ++i)
    if (const auto *op = m.aipp_of(i); op && op->dynamic) return i;
  fail(Errc::invalid_argument,
       "the model has no input with dynamic AIPP (atc --insert_op_conf with aipp_mode: dynamic)");
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize) {
  aclmdlAIPP *out = nullptr;
  guarded(__func__, [&] {
    if (batchSize == 0 || batchSize > 4096)
      fail(Errc::invalid_argument, "batchSize is " + std::to_string(batchSize));
    auto a = std::make_shared<aclmdlAIPP>();
    a->images.resize(batchSize);
    out = a.get();
    aipp_sets().add(std::move(a));
  });
  return out;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet) {
  return guarded(__func__, [&] {
    if (aippParmsSet == nullptr) fail(Errc::invalid_argument, "aippParmsSet is NULL");
    if (!aipp_sets().remove(aippParmsSet))
      fail(Errc::invalid_argument,
           "aippParmsSet is not a live AIPP parameter set (unknown or destroyed)");
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size) {
  return guarded(__func__, [&] {
    if (size == nullptr) fail(Errc::invalid_argument, "size is NULL");
    if (batchSize == 0) fail(Errc::invalid_argument, "batchSize is 0");
    *size = openacl::model::dynamic_aipp_bytes(batchSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet,
                                                      aclAippInputFormat inputFormat) {
  const auto f = openacl::api::enum_value(inputFormat);
  return for_all(__func__, aippParmsSet, [&](AippParams &p) {
    if (f != ACL_YUV420SP_U8 && f != ACL_XRGB8888_U8 && f != ACL_RGB888_U8 && f != ACL_YUV400_U8)
      fail(Errc::invalid_argument,
           "inputFormat " + std::to_string(f) +
               " is not one openacl's AIPP takes "
               "(ACL_YUV420SP_U8, ACL_XRGB8888_U8, ACL_RGB888_U8, ACL_YUV400_U8)");
    p.format = static_cast<AippFormat>(f);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(
    aclmdlAIPP *aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0, int16_t cscMatrixR0C1,
    int16_t cscMatrixR0C2, int16_t cscMatrixR1C0, int16_t cscMatrixR1C1, int16_t cscMatrixR1C2,
    int16_t cscMatrixR2C0, int16_t cscMatrixR2C1, int16_t cscMatrixR2C2, uint8_t cscOutputBiasR0,
    uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2) {
  return for_all(__func__, aippParmsSet, [&](AippParams &p) {
    p.csc = switch_on(cscSwitch, "cscSwitch");
    const int16_t m[3][3] = {{cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2},
                             {cscMatrixR1C0, cscMatrixR1C1, cscMatrixR1C2},
                             {cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2}};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) p.matrix[r][c] = m[r][c];
    p.output_bias[0] = cscOutputBiasR0, p.output_bias[1] = cscOutputBiasR1,
    p.output_bias[2] = cscOutputBiasR2;
    p.input_bias[0] = cscInputBiasR0, p.input_bias[1] = cscInputBiasR1,
    p.input_bias[2] = cscInputBiasR2;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet,
                                                         int8_t rbuvSwapSwitch) {
  return for_all(__func__, aippParmsSet,
                 [&](AippParams &p) { p.rbuv_swap = switch_on(rbuvSwapSwitch, "rbuvSwapSwitch"); });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet,
                                                       int8_t axSwapSwitch) {
  return for_all(__func__, aippParmsSet,
                 [&](AippParams &p) { p.ax_swap = switch_on(axSwapSwitch, "axSwapSwitch"); });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet,
                                                       int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH) {
  return for_all(__func__, aippParmsSet, [&](AippParams &p) {
    if (srcImageSizeW <= 0 || srcImageSizeH <= 0)
      fail(Errc::invalid_argument, "srcImageSizeW and srcImageSizeH must be > 0");
    p.src_w = srcImageSizeW, p.src_h = srcImageSizeH;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch,
                                                    int32_t scfInputSizeW, int32_t scfInputSizeH,
                                                    int32_t scfOutputSizeW, int32_t scfOutputSizeH,
                                                    uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.resize = switch_on(scfSwitch, "scfSwitch");
    if (p.resize &&
        (scfInputSizeW <= 0 || scfInputSizeH <= 0 || scfOutputSizeW <= 0 || scfOutputSizeH <= 0))
      fail(Errc::invalid_argument, "scfSwitch 1 needs input and output sizes > 0");
    p.scf_in_w = scfInputSizeW, p.scf_in_h = scfInputSizeH;
    p.resize_w = scfOutputSizeW, p.resize_h = scfOutputSizeH;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch,
                                                     int32_t cropStartPosW, int32_t cropStartPosH,
                                                     int32_t cropSizeW, int32_t cropSizeH,
                                                     uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.crop = switch_on(cropSwitch, "cropSwitch");
    p.crop_x = cropStartPosW, p.crop_y = cropStartPosH, p.crop_w = cropSizeW, p.crop_h = cropSizeH;
  });
}

ACL_FUNC_VISIBILITY aclError
aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch, int32_t paddingSizeTop,
                           int32_t paddingSizeBottom, int32_t paddingSizeLeft,
                           int32_t paddingSizeRight, uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.padding = switch_on(paddingSwitch, "paddingSwitch");
    p.pad_top = paddingSizeTop, p.pad_bottom = paddingSizeBottom;
    p.pad_left = paddingSizeLeft, p.pad_right = paddingSizeRight;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(
    aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0, int16_t dtcPixelMeanChn1,
    int16_t dtcPixelMeanChn2, int16_t dtcPixelMeanChn3, uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.mean[0] = dtcPixelMeanChn0, p.mean[1] = dtcPixelMeanChn1, p.mean[2] = dtcPixelMeanChn2;
    p.mean[3] = dtcPixelMeanChn3;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet,
                                                      float dtcPixelMinChn0, float dtcPixelMinChn1,
                                                      float dtcPixelMinChn2, float dtcPixelMinChn3,
                                                      uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.min[0] = dtcPixelMinChn0, p.min[1] = dtcPixelMinChn1, p.min[2] = dtcPixelMinChn2,
    p.min[3] = dtcPixelMinChn3;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(
    aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0, float dtcPixelVarReciChn1,
    float dtcPixelVarReciChn2, float dtcPixelVarReciChn3, uint64_t batchIndex) {
  return for_image(__func__, aippParmsSet, batchIndex, [&](AippParams &p) {
    p.var_reci[0] = dtcPixelVarReciChn0, p.var_reci[1] = dtcPixelVarReciChn1;
    p.var_reci[2] = dtcPixelVarReciChn2, p.var_reci[3] = dtcPixelVarReciChn3;
  });
}

// index: the model's ACL_DYNAMIC_AIPP_NAME input (aclmdlGetInputIndexByName).
ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset,
                                                size_t index, const aclmdlAIPP *aippParmsSet) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    auto m = openacl::api::find_model(modelId);
    if (index != m->dynamic_aipp_input())
      fail(Errc::invalid_argument,
           "index " + std::to_string(index) + " is not the model's input " ACL_DYNAMIC_AIPP_NAME +
               std::string(m->dynamic_aipp_input() < m->inputs().size()
                               ? " (index " + std::to_string(m->dynamic_aipp_input()) + ")"
                               : " (the model has no dynamic AIPP)"));
    write_set(modelId, dataset, dynamic_input(*m), index, aippParmsSet);
  });
}

// index: the model input the images go to.
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset *dataset,
                                                       size_t index,
                                                       const aclmdlAIPP *aippParmsSet) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    auto m = openacl::api::find_model(modelId);
    const size_t input = dynamic_input(*m);
    if (index != input)
      fail(Errc::invalid_argument, "input " + std::to_string(index) +
                                       " has no dynamic AIPP (input " + std::to_string(input) +
                                       " has)");
    write_set(modelId, dataset, input, m->dynamic_aipp_input(), aippParmsSet);
  });
}

}  // extern "C"
