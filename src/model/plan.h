// An execution plan: the model specialized for one set of input shapes. Building it lowers
// every node (lowering.h), folds what depends only on constants and shapes, prepares each
// remaining op once, and places intermediate tensors in one workspace by their lifetimes
// (tensors whose lifetimes do not overlap share bytes). A plan is immutable once built, so any
// number of executions may run it at the same time, each with its own workspace (ExecState).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/observer.h"
#include "model/graph.h"

namespace openacl {
class Context;
class Device;
}  // namespace openacl

namespace openacl::backend {
class DeviceBackend;
}  // namespace openacl::backend

namespace openacl::model {

// Where a tensor's bytes live during an execution.
struct Binding {
  enum class Kind : uint8_t { none, workspace, constant, input, output } kind = Kind::none;
  size_t offset = 0;          // workspace offset
  const void *ptr = nullptr;  // constant
  size_t index = 0;           // model input / output index
};

struct PlanStep {
  std::unique_ptr<ops::PreparedOp> op;
  std::string label;  // "node 'name' (OnnxOp) -> AscendOp", for errors and traces
  std::string type;   // the Ascend op type
  std::string node;   // the ONNX node's name
  std::vector<ops::Tensor> inputs, outputs;  // descriptors; data filled per execution
  std::vector<Binding> in_bind, out_bind;
};

// A model output that an op does not write in place: copied at the end of the execution.
struct OutputCopy {
  Binding from;
  size_t output;
  size_t bytes;
};

class Plan;

// The per-execution state: a workspace and the step tensors whose data pointers it patches.
struct ExecState {
  ExecState(const Plan &plan, void *external_workspace);
  ~ExecState();
  ExecState(const ExecState &) = delete;
  ExecState &operator=(const ExecState &) = delete;

  // Device memory for what AIPP makes of model input i (the graph's input), allocated at the
  // first execution that needs it and kept with the state.
  void *converted_input(size_t i);

  const Plan &plan;
  void *workspace = nullptr;
  bool owns_workspace = false;
  std::vector<void *> converted;  // by model input; null where none is allocated
  std::vector<std::vector<ops::Tensor>> inputs, outputs;
  std::vector<OpSpan> spans;  // when a trace records the ops or the run is timed
};

class Plan {
 public:
  // Builds the plan for the graph's inputs taking the shapes in input_dims. weights maps
  // the ids of constants uploaded at load to their device copies; constants the plan folds
  // itself are uploaded to device memory of its own (when device is non-null; a null device
  // only sizes the plan, for aclmdlQuerySize). Throws model_input_not_match for shapes the
  // model cannot take, model_unsupported_op for features openacl lacks.
  // owner: the context whose end (aclFinalize, device reset) takes the device memory away;
  // after it the plan no longer releases its memory itself.
  Plan(const Graph &graph, const std::unordered_map<int, const void *> &weights,
       std::vector<std::vector<int64_t>> input_dims, Device *device,
       std::shared_ptr<const Context> owner = nullptr);
  ~Plan();
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  const std::vector<std::vector<int64_t>> &input_dims() const { return input_dims_; }
  const std::vector<ops::TensorDesc> &input_descs() const { return input_descs_; }
  const std::vector<ops::TensorDesc> &output_descs() const { return output_descs_; }
  size_t workspace_bytes() const { return workspace_bytes_; }
  size_t constant_bytes() const { return constant_bytes_; }
  size_t step_count() const { return steps_.size(); }
  const std::vector<PlanStep> &steps() const { return steps_; }

  // Takes an execution state from the pool (allocating its workspace on first use) and gives
  // it back. external_workspace: the caller's work memory (aclmdlLoad*WithMem).
  std::unique_ptr<ExecState> acquire(void *external_workspace) const;
  // False once the owner context ended: its device memory is gone with it.
  bool memory_alive() const;
  void give_back(std::unique_ptr<ExecState> state) const;

  // Called after each step with its tensors (model dump).
  using StepHook =
      std::function<void(size_t index, const PlanStep &step, const std::vector<ops::Tensor> &in,
                         const std::vector<ops::Tensor> &out)>;
  // Runs every step on the calling device worker, its ops on `cores` and its output copies
  // through `device`, and hands their times to the trace when one records; with `timed` they
  // are also left in state.spans. Throws Errc::task_failure (naming the node) when an op meets
  // bad data.
  void run(ExecState &state, const std::vector<void *> &inputs, const std::vector<void *> &outputs,
           backend::DeviceBackend &device, backend::AiCores &cores,
           const StepHook *after_step = nullptr, bool timed = false) const;

 private:
  friend class PlanBuilder;
  friend struct ExecState;

  std::vector<std::vector<int64_t>> input_dims_;
  std::vector<ops::TensorDesc> input_descs_, output_descs_;
  std::vector<PlanStep> steps_;
  std::vector<OutputCopy> copies_;
  size_t workspace_bytes_ = 0;
  size_t constant_bytes_ = 0;
  Device *device_ = nullptr;
  std::shared_ptr<const Context> owner_;
  void *constants_ = nullptr;  // device copy of the constants the plan folded itself

  mutable std::mutex pool_mu_;
  mutable std::vector<std::unique_ptr<ExecState>> pool_;
};

// Load-time constant folding: runs every node whose inputs are all constants and returns the
// graph without them (their outputs become constants).
Graph fold_constants(const Graph &graph);

// A serial AiCores for folding on the host.
backend::AiCores &host_cores();

}  // namespace openacl::model
