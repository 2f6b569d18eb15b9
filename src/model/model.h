// A loaded model: its optimized graph, its weights in device memory (uploaded once, at load),
// and a cache of execution plans, one per set of input shapes. Executions are stream tasks;
// any number of streams may run one model at the same time (each execution takes its own
// workspace from the plan's pool), except with caller-given work memory (WithMem), where
// executions take turns on that memory.
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/task.h"
#include "model/graph.h"
#include "model/plan.h"

namespace openacl {
class Context;
class Device;
class Stream;
}  // namespace openacl

namespace openacl::model {

// Parses, checks and optimizes an ONNX model (no device work): import, constant folding,
// conv/affine fusion, dead-node removal. Throws as import_onnx().
Graph compile(const void *data, size_t size);

struct ModelSizes {
  size_t work = 0;    // workspace of one execution; 0 when an input has dynamic dims
  size_t weight = 0;  // device bytes of the weights
};
ModelSizes query_sizes(const Graph &graph);

struct ModelIo {
  std::string name;
  ops::TensorDesc desc;  // -1 for dims not fixed by the model
};

// Caller-given device memory (aclmdlLoadFrom*WithMem); null pointers: the runtime allocates.
struct MemoryOptions {
  void *work = nullptr;
  size_t work_size = 0;
  void *weights = nullptr;
  size_t weight_size = 0;
};

class Model : public std::enable_shared_from_this<Model> {
 public:
  // file_stem: the model file's name without extension, when loaded from a file; with the ONNX
  // graph name it is what a dump configuration may call the model.
  Model(Graph graph, std::shared_ptr<Context> context, const MemoryOptions &memory,
        const std::string &file_stem = "");
  ~Model();
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  Context &context() const { return *context_; }
  const std::vector<ModelIo> &inputs() const { return inputs_; }
  // Output descriptors: with static inputs, the inferred shapes; otherwise as declared.
  const std::vector<ModelIo> &outputs() const { return outputs_; }
  size_t weight_bytes() const { return weight_bytes_; }
  size_t node_count() const { return graph_.nodes.size(); }
  // The id the API gave the model (named in dump paths).
  void set_id(uint32_t id) { id_.store(id, std::memory_order_relaxed); }

  // The plan for these input shapes (built at the first call, then cached). Throws
  // model_input_not_match, model_unsupported_op.
  std::shared_ptr<const Plan> plan_for(const std::vector<std::vector<int64_t>> &input_dims);

  // Queues one execution on the stream (R10). Inputs and outputs are device buffers already
  // checked by the caller against the plan's descriptors. Returns the task's sequence number.
  // workspace: device memory of plan->workspace_bytes() for this execution only (a stream's
  // allocator, aclrtAllocatorRegister); null: the plan's pool or the caller's work memory.
  uint64_t enqueue(Stream &stream, std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                   std::vector<void *> outputs, void *workspace = nullptr);
  // Whether the model was loaded with the caller's work memory (aclmdlLoad*WithMem).
  bool has_work_memory() const { return memory_.work != nullptr; }
  // Runs one execution and returns when it is done (aclmdlExecute); throws its failure.
  // timeout_ms >= 0: Errc::stream_sync_timeout when it is not done by then (it stays queued).
  void execute(Stream &stream, std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
               std::vector<void *> outputs, int32_t timeout_ms = -1);

  // The output dims of the latest execution call (aclmdlGetCurOutputDims); the declared
  // dims before the first one.
  std::vector<int64_t> current_output_dims(size_t index) const;

 private:
  std::unique_ptr<Task> make_task(std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                                  std::vector<void *> outputs, std::shared_ptr<std::exception_ptr> error,
                                  void *workspace = nullptr);

  Graph graph_;
  std::shared_ptr<Context> context_;
  Device &device_;
  std::vector<ModelIo> inputs_, outputs_;
  MemoryOptions memory_;
  void *weights_ = nullptr;  // owned when memory_.weights is null
  size_t weight_bytes_ = 0;
  std::unordered_map<int, const void *> weight_ptrs_;
  std::mutex work_mu_;  // executions take turns on caller-given work memory
  std::atomic<uint32_t> id_{0};
  std::vector<std::string> names_;  // for dump configurations
  std::atomic<uint64_t> executions_{0};  // numbers the dumped iterations

  mutable std::mutex mu_;
  std::list<std::shared_ptr<const Plan>> plans_;  // most recently used first
  std::vector<std::vector<int64_t>> current_outputs_;
};

}  // namespace openacl::model
