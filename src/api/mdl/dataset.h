// aclmdlDataset and aclmdlDesc, the model API's two value handles. A dataset lists the
// caller's data buffers (never owned, as in CANN) and, per buffer, an optional tensor
// descriptor that the dataset owns: the input shapes of a dynamic model, and the output
// shapes an execution produced. A model description is a snapshot of a model's inputs and
// outputs (aclmdlGetDesc). Handles are registered on creation, so a made-up or destroyed one
// is rejected instead of dereferenced.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_mdl.h"
#include "api/data_buffer.h"
#include "api/op/tensor_desc.h"
#include "model/model.h"

struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
  std::vector<std::unique_ptr<aclTensorDesc>> descs;  // parallel to buffers; null = not set
  // The gear aclmdlSetDynamicBatchSize / HWSize / SetInputDynamicDims chose for a model with
  // gears (it also wrote the gear's values into the gear input's buffer); npos: none yet.
  size_t gear = openacl::model::Gears::npos;
};

struct aclmdlDesc {
  uint32_t model_id = 0;  // 0: filled from a file or memory, not from a loaded model
  std::vector<openacl::model::ModelIo> inputs, outputs;
  openacl::model::Gears gears;  // of a model converted with gears (atc), else empty
};

namespace openacl::api {

// The live dataset / description for a handle; Errc::invalid_argument naming `what` when
// it is NULL, unknown or destroyed.
aclmdlDataset &dataset_of(const aclmdlDataset *handle, const char *what);
aclmdlDesc &model_desc_of(const aclmdlDesc *handle, const char *what);

}  // namespace openacl::api
