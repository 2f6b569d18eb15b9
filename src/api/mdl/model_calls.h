// What the model API's files share: loading a model into the model table, and checking an
// execution's datasets against the model (aclmdlExecute and its V2 forms).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"
#include "model/execution.h"
#include "model/model.h"
#include "model/table.h"

namespace openacl {
class Stream;
}

namespace openacl::api {

using model::dims_text;   // model/execution.h
using model::find_model;  // model/table.h
std::vector<uint8_t> read_model_file(const char *path);
// Errc::invalid_argument for a NULL model or a zero size.
void check_mem(const void *model, size_t size);
// Compiles the model for the current context and registers it; returns (and stores) its id.
// file_stem: the model file's name without extension (a name for dump settings), if any.
uint32_t load_model(const void *data, size_t size, uint32_t *modelId,
                    const model::MemoryOptions &mem, const std::string &file_stem = "");
// The name of a model file without directory and extension.
std::string model_file_stem(const char *path);

// An execution, checked by model::bind: the model, the stream it goes to, the plan for the
// input shapes and the buffers. The output datasets' tensor descriptors get the output shapes.
struct ModelCall {
  std::shared_ptr<model::Model> model;
  std::shared_ptr<Stream> stream;
  model::Execution execution;
};
ModelCall prepare_call(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                       aclrtStream stream);
// Queues the call (aclmdlExecuteAsync[V2]); its workspace comes from the stream's allocator
// when one is registered (aclrtAllocatorRegister; model::enqueue).
void enqueue_call(ModelCall &call);

}  // namespace openacl::api
