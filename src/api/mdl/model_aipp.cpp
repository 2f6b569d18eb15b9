// AIPP queries: which inputs of a model converted with --insert_op_conf
// take images through static or dynamic AIPP, and static AIPP's parameters.
#include <cstring>

#include "acl/acl_mdl.h"
#include "api/guard.h"
#include "api/mdl/model_calls.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::find_model;
using openacl::api::guarded;

namespace {

const openacl::model::ModelIo &checked_input(const openacl::model::Model &m, size_t index) {
  if (index >= m.inputs().size())
    openacl::fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                              " is out of range: the model has " +
                                              std::to_string(m.inputs().size()) + " inputs");
  return m.inputs()[index];
}

void fill_io_dims(aclmdlIODims &out, const std::string &name, const std::vector<int64_t> &dims) {
  std::memset(&out, 0, sizeof out);
  std::strncpy(out.name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  out.dimCount = dims.size();
  for (size_t i = 0; i < dims.size(); ++i) out.dims[i] = dims[i];
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index,
                                               aclmdlInputAippType *type,
                                               size_t *dynamicAttachedDataIndex) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (type == nullptr || dynamicAttachedDataIndex == nullptr)
      fail(Errc::invalid_argument, "type or dynamicAttachedDataIndex is NULL");
    auto m = find_model(modelId);
    checked_input(*m, index);
    *dynamicAttachedDataIndex = static_cast<size_t>(-1);  // only dynamic AIPP has attached data
    const auto *op = index < m->graph_input_count() ? m->aipp_of(index) : nullptr;
    if (index == m->dynamic_aipp_input()) {
      *type = ACL_DYNAMIC_AIPP_NODE;
    } else if (op && op->dynamic) {
      *type = ACL_DATA_WITH_DYNAMIC_AIPP;
      *dynamicAttachedDataIndex = m->dynamic_aipp_input();
    } else {
      *type = op ? ACL_DATA_WITH_STATIC_AIPP : ACL_DATA_WITHOUT_AIPP;
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index,
                                                    aclAippInfo *aippInfo) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (aippInfo == nullptr) fail(Errc::invalid_argument, "aippInfo is NULL");
    auto m = find_model(modelId);
    const auto &io = checked_input(*m, index);
    const auto *op = index < m->graph_input_count() ? m->aipp_of(index) : nullptr;
    if (!op)
      fail(Errc::invalid_argument,
           "input " + std::to_string(index) + " ('" + io.name + "') has no AIPP");
    if (op->dynamic)
      fail(Errc::invalid_argument,
           "input " + std::to_string(index) + " ('" + io.name +
               "') has dynamic AIPP: its parameters come with each execution "
               "(aclmdlSetInputAIPP)");
    const auto &p = op->params;
    aclAippInfo &a = *aippInfo;
    std::memset(&a, 0, sizeof a);
    a.inputFormat = static_cast<aclAippInputFormat>(p.format);
    a.srcImageSizeW = p.src_w;
    a.srcImageSizeH = p.src_h;
    a.cropSwitch = p.crop;
    a.loadStartPosW = p.crop_x;
    a.loadStartPosH = p.crop_y;
    a.cropSizeW = p.crop_w;
    a.cropSizeH = p.crop_h;
    a.resizeSwitch = p.resize;
    a.resizeOutputW = p.resize_w;
    a.resizeOutputH = p.resize_h;
    a.paddingSwitch = p.padding;
    a.leftPaddingSize = p.pad_left;
    a.rightPaddingSize = p.pad_right;
    a.topPaddingSize = p.pad_top;
    a.bottomPaddingSize = p.pad_bottom;
    a.cscSwitch = p.csc;
    a.rbuvSwapSwitch = p.rbuv_swap;
    a.axSwapSwitch = p.ax_swap;
    int32_t *matrix[3][3] = {{&a.matrixR0C0, &a.matrixR0C1, &a.matrixR0C2},
                             {&a.matrixR1C0, &a.matrixR1C1, &a.matrixR1C2},
                             {&a.matrixR2C0, &a.matrixR2C1, &a.matrixR2C2}};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) *matrix[r][c] = p.matrix[r][c];
    a.outputBias0 = p.output_bias[0], a.outputBias1 = p.output_bias[1],
    a.outputBias2 = p.output_bias[2];
    a.inputBias0 = p.input_bias[0], a.inputBias1 = p.input_bias[1], a.inputBias2 = p.input_bias[2];
    a.meanChn0 = p.mean[0], a.meanChn1 = p.mean[1], a.meanChn2 = p.mean[2], a.meanChn3 = p.mean[3];
    a.minChn0 = p.min[0], a.minChn1 = p.min[1], a.minChn2 = p.min[2], a.minChn3 = p.min[3];
    a.varReciChn0 = p.var_reci[0], a.varReciChn1 = p.var_reci[1], a.varReciChn2 = p.var_reci[2];
    a.varReciChn3 = p.var_reci[3];
    a.srcFormat = ACL_FORMAT_NHWC;
    a.srcDatatype = ACL_UINT8;
    a.srcDimNum = io.desc.dims.size();
    a.shapeCount = 1;
    fill_io_dims(a.outDims[0].srcDims, io.name, io.desc.dims);
    a.outDims[0].srcSize = io.bytes;
    const auto out = m->aipp_output_desc(index);
    fill_io_dims(a.outDims[0].aippOutdims, io.name, out.dims);
    a.outDims[0].aippOutSize = out.byte_size();
  });
}

}  // extern "C"
