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
#include <span>
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

// Parses, checks and optimizes a model (no device work): an ONNX model, or openacl's .om (the
// ONNX graph with atc's options applied, convert.h); import, constant folding, conv/affine
// fusion, dead-node removal. Throws as import_onnx(); Errc::parse_model for a .om of Huawei's
// ATC, saying what to do instead.
Graph compile(const void *data, size_t size);
// The optimization passes of compile() on an imported graph.
Graph optimize(Graph graph);

struct ModelSizes {
  size_t work = 0;    // workspace of one execution (the largest gear's); 0 with dynamic dims
  size_t weight = 0;  // device bytes of the weights
};
ModelSizes query_sizes(const Graph &graph);

struct ModelIo {
  std::string name;
  ops::TensorDesc desc;  // -1 for dims not fixed by the model (or set by its gears)
  size_t bytes = 0;      // the buffer an execution needs: fixed, the largest gear's, or 0 (dynamic)
};

// What a model takes and gives, as the model API describes it: the graph's inputs, then, for
// a model with gears, ACL_DYNAMIC_TENSOR_NAME (uint64 gear values); the outputs with the
// shapes of the static inputs or of the largest gear (-1 where gears differ). Plans the graph
// (throws as Plan); `largest`: a plan already made for those shapes.
struct Interface {
  std::vector<ModelIo> inputs, outputs;
};
Interface describe(const Graph &graph, const Plan *largest = nullptr);

// Caller-given device memory (aclmdlLoadFrom*WithMem); null pointers: the runtime allocates.
struct MemoryOptions {
  void *work = nullptr;
  size_t work_size = 0;
  void *weights = nullptr;
  size_t weight_size = 0;
};

// Takes each execution's op times (aclprofModelSubscribe), on the device worker right after
// the execution's last op.
class OpTimeSink {
 public:
  virtual ~OpTimeSink() = default;
  virtual void on_ops(uint32_t model_id, std::span<const OpSpan> ops) = 0;
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
  const Gears &gears() const { return graph_.conversion.gears; }
  // Inputs of the graph proper (the first ones); the rest are the gear input.
  size_t graph_input_count() const { return graph_.inputs.size(); }
  // The graph's input dims for an execution whose model inputs have `dims`: without the gear
  // input, with an AIPP input's graph dims in place of its image's.
  std::vector<std::vector<int64_t>> graph_input_dims(std::vector<std::vector<int64_t>> dims) const;
  // Bytes an execution reads from model input i under this plan.
  size_t input_bytes(const Plan &plan, size_t i) const;
  // The static AIPP of model input i, or null; what it gives the graph.
  const AippOp *aipp_of(size_t i) const { return graph_.conversion.aipp_of(i); }
  const ops::TensorDesc &aipp_output_desc(size_t i) const {
    return graph_.values[graph_.inputs.at(i)].desc;
  }
  // The index of the ACL_DYNAMIC_AIPP_NAME input, or inputs().size() when there is none.
  size_t dynamic_aipp_input() const;
  // Checks the parameters of each image of dynamic AIPP against graph input `input` (filling
  // in the sizes left 0): Errc::invalid_argument saying what does not fit.
  void check_dynamic_aipp(std::vector<AippParams> &images, size_t input) const;
  // Writes gear `gear`'s values into an ascend_mbatch_shape_data buffer (device memory of at
  // least gears().value_count() uint64 values), as CANN's aclmdlSetDynamic* calls do.
  void write_gear(void *buffer, size_t gear) const;
  // Writes checked dynamic AIPP parameters into an ACL_DYNAMIC_AIPP_NAME buffer (device memory
  // of at least dynamic_aipp_bytes(images.size())), as aclmdlSetInputAIPP does.
  void write_aipp_params(void *buffer, const std::vector<AippParams> &images) const;
  // Output descriptors: with static inputs, the inferred shapes; otherwise as declared.
  const std::vector<ModelIo> &outputs() const { return outputs_; }
  size_t weight_bytes() const { return weight_bytes_; }
  size_t node_count() const { return graph_.nodes.size(); }
  // The id the API gave the model (named in dump paths).
  void set_id(uint32_t id) { id_.store(id, std::memory_order_relaxed); }
  uint32_t id() const { return id_.load(std::memory_order_relaxed); }

  // The plan for these shapes of the graph's inputs (built at the first call, then cached).
  // Throws model_input_not_match (also for shapes that are no gear of a model with gears),
  // model_unsupported_op.
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

  // Makes `sink` (null: none) take the op times of the executions queued from now on; returns
  // the one it replaces.
  std::shared_ptr<OpTimeSink> set_op_sink(std::shared_ptr<OpTimeSink> sink);

  // The output dims of the latest execution call (aclmdlGetCurOutputDims); the declared
  // dims before the first one.
  std::vector<int64_t> current_output_dims(size_t index) const;

 private:
  std::unique_ptr<Task> make_task(std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                                  std::vector<void *> outputs,
                                  std::shared_ptr<std::exception_ptr> error,
                                  void *workspace = nullptr);

  // The checked parameters in an ACL_DYNAMIC_AIPP_NAME buffer (read when an execution is queued).
  std::vector<AippParams> dynamic_params(const void *data, size_t size, size_t input) const;

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
  std::vector<std::string> names_;       // for dump configurations
  std::atomic<uint64_t> executions_{0};  // numbers the dumped iterations

  mutable std::mutex mu_;
  std::list<std::shared_ptr<const Plan>> plans_;  // most recently used first
  std::vector<std::vector<int64_t>> current_outputs_;
  std::shared_ptr<OpTimeSink> op_sink_;
};

}  // namespace openacl::model
