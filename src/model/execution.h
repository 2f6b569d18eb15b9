// One model execution as the model API asks for it (aclmdlExecute and its Async and V2
// forms): the datasets' buffers and descriptors are checked against the model, the plan for
// the input shapes is picked, and what remains is a Model::enqueue or Model::execute call.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/model.h"

namespace openacl {
class Stream;
}

namespace openacl::model {

// An input buffer with the dataset's tensor descriptor for it (aclmdlSetDatasetTensorDesc).
struct InputBinding {
  void *data = nullptr;
  size_t length = 0;
  bool described = false;                    // the dataset has a descriptor for this input
  ops::DType dtype = ops::DType::undefined;  // the descriptor's; undefined: not said
  std::span<const int64_t> dims;             // the descriptor's
};

struct OutputBinding {
  void *data = nullptr;
  size_t length = 0;
};

struct Bindings {
  std::vector<InputBinding> inputs;
  std::vector<OutputBinding> outputs;
  size_t gear = Gears::npos;  // the gear the dataset chose (aclmdlSetDynamicBatchSize ...)
};

// A checked execution: the plan for its input shapes and its device buffers.
struct Execution {
  std::shared_ptr<const Plan> plan;
  std::vector<void *> inputs, outputs;
};

// "[1x3x?x?]" for messages.
std::string dims_text(const std::vector<int64_t> &dims);

// Checks the bindings against the model run on `stream` (its device, the buffer counts, the
// gear, dtypes and shapes, buffer sizes and device ranges) and picks the plan. Before the
// output buffers are checked, output_shapes gets the plan's output descriptors: a caller
// whose buffers are too small learns from them what to allocate (openacl's answer to outputs
// of dynamic shape). Throws Errc::stream_context, model_input_not_match,
// model_output_not_match, invalid_argument, and as Model::plan_for.
Execution bind(Model &model, const Stream &stream, const Bindings &bindings,
               const std::function<void(const std::vector<ops::TensorDesc> &)> &output_shapes);

// Device memory a stream's executions take their workspace from instead of the plan's pool:
// the allocator a program registered for the stream (aclrtAllocatorRegister).
struct WorkspaceSource {
  std::function<void *(size_t bytes)> alloc;  // a block, or nullptr when it has none
  std::function<void(void *block)> free;
  std::function<void *(void *block)> address;  // the block's device address
};

// Queues the execution on the stream (aclmdlExecuteAsync). With a source (and a model that was
// not given its work memory, and a plan that needs workspace), the workspace is a block of the
// source, given back right after queueing, as CANN's graph engine does: the allocator serves
// the stream in order, so what it hands out next runs after this execution. Throws
// Errc::out_of_memory when the source has no block, invalid_argument when the block's address
// is not device memory of that size.
void enqueue(Model &model, Stream &stream, Execution execution, const WorkspaceSource *source);

}  // namespace openacl::model
