// Channels-last storage between convolutions. oneDNN's convolutions compute in NHWC order; a
// tensor stored NCHW is reordered on its way into and out of every convolution, which took
// about a third of a PP-OCR det execution. The plan therefore stores the intermediate tensors
// of conv chains as NHWC (ops::TensorDesc::channels_last): convolutions read and write them
// directly, elementwise ops between them run on the same storage seen as [N, H, W, C] (their
// per-channel operands [N, C, 1, 1] have the same bytes as [N, 1, 1, C]; batch normalization
// takes data_format NHWC), pooling reads (and windowed pooling writes) them as they are, Resize
// (nearest, linear) takes data_format NHWC and ConcatD joins them along the dim that C became. Any
// other consumer keeps the tensor NCHW.
#pragma once

#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::model {

// A prepared step as the layout choice sees it: the op type and its tensors' value ids
// (-1 = an omitted optional input).
struct LayoutStep {
  const std::string *type;
  std::vector<int> in, out;
  const ops::Attrs *attrs = nullptr;  // the step's attributes (Resize's mode); none when null
};

// Which values to store channels-last. candidate[v]: v is a 4-D float intermediate tensor
// (not a model input or output, not a constant, without views) that may change storage.
std::vector<bool> choose_channels_last(const std::vector<LayoutStep> &steps,
                                       const std::vector<ops::TensorDesc> &descs,
                                       const std::vector<bool> &candidate);

// Rewrites a step's descriptors (and attrs) for the chosen storage: sets channels_last on the
// tensors of convolutions and pooling, permutes the dims of elementwise, batch-norm,
// Resize and ConcatD operands to [N, H, W, C]. Returns false when the step touches no channels-last
// value.
bool restate_step(const std::string &type, ops::Attrs &attrs, std::vector<ops::TensorDesc> &in,
                  std::vector<ops::TensorDesc> &out, const LayoutStep &step,
                  const std::vector<bool> &channels_last);

}  // namespace openacl::model
