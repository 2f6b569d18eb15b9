// A planned aclnn call: what aclnnXxxGetWorkspaceSize produces and aclnnXxx runs. The plan is
// immutable once built and shared with the tasks that run it, so an executor may be destroyed
// (or its addresses updated) while earlier runs are still pending on a stream.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::backend {
class DeviceBackend;
}  // namespace openacl::backend

namespace openacl::nn {

// Where a value's bytes live at run time.
enum class Home : uint8_t {
  slot,       // a caller's tensor (an executor slot, whose address the caller may update)
  workspace,  // the caller's workspace, at `offset` bytes
  constant,   // the plan's own (scalars, arrays known at planning time): Plan::constant_at
};

// A tensor that steps read or write. Ops see it as desc (dense dims); copies use the strided
// view (dims, strides in elements, offset in elements from the home's base).
struct Value {
  ops::TensorDesc desc;
  Home home = Home::workspace;
  size_t index = 0;  // slot number or constant number
  std::vector<int64_t> strides;
  int64_t offset = 0;  // elements (workspace: bytes / element size, 64-byte aligned)
  bool contiguous = true;
};

// One caller tensor. Reads and writes are recorded on the task for the trace and the race
// checker, over the bytes the view reaches.
struct Slot {
  std::string name;   // the parameter, for messages ("self", "tensors[1]")
  int64_t begin = 0;  // bytes from the tensor's address to the first element reached
  int64_t bytes = 0;  // bytes from there to one past the last element reached
  bool read = false;
  bool write = false;
};

// A value as a kernel of an nn operator sees it: its view and the address of its element 0.
struct StridedTensor {
  const Value *value;
  uint8_t *data;
};

// A kernel of an nn operator itself, which reads and writes its values through their views:
// for inputs that a gather into the workspace would cost more than the computation (attention
// over a slice of a key / value cache).
class StridedKernel {
 public:
  virtual ~StridedKernel() = default;
  virtual void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
                   backend::AiCores &cores) const = 0;
};

struct Step {
  // op: an op of the library. copy: out[0]'s view = in[0]'s view. index_copy: slice i of in[0]
  // along `axis` goes to slice in[1][i] of out[0] (indices read when the step runs).
  // unpack_int4: out[0] (dense int8) = in[0] (an int4 slot value, any view). kernel: the
  // operator's own StridedKernel over the views of in and out.
  enum class Kind : uint8_t { op, copy, index_copy, unpack_int4, kernel } kind = Kind::op;
  std::shared_ptr<const ops::PreparedOp> op;    // Kind::op
  std::shared_ptr<const StridedKernel> kernel;  // Kind::kernel
  std::vector<size_t> in, out;                  // value numbers
  int64_t axis = 0;                             // Kind::index_copy
  bool elementwise =
      false;  // Kind::op: reads element i of a same-shaped input before writing element i
};

struct Plan {
  std::string name;  // the operator ("Add"), the task's label
  // Unique per plan the planner made (0: one built otherwise), unlike its address: run_plan
  // keeps the tensors it bound for a plan's step by this.
  uint64_t serial = 0;
  std::vector<Value> values;
  std::vector<Step> steps;
  std::vector<Slot> slots;
  std::vector<std::vector<uint8_t>> constants;
  // Where the device reads each constant (nn/device_constants.h): the host bytes above, or a
  // device copy that device_copy owns.
  std::vector<const uint8_t *> constant_at;
  std::shared_ptr<void> device_copy;
  uint64_t workspace = 0;
  // Cheap enough to run during phase 2 on a stream at rest (Task::runs_at_call): every step a
  // few operations per element, over few bytes (nn/executor.h).
  bool at_call = false;
  // The operator's tensor inputs and outputs in parameter order, each a list of slots (one per
  // tensor; a tensor list has several): the numbering of the address-update calls.
  std::vector<std::vector<size_t>> inputs, outputs;
};

// Runs the plan's steps with these slot addresses and workspace (on a device worker of
// `device`, its ops on `cores`). check_overflow: an op step whose output holds an inf or a NaN
// sets the overflow status (Runtime::note_overflow; the strided kernels are not checked).
void run_plan(const Plan &plan, std::span<void *const> addresses, void *workspace,
              backend::DeviceBackend &device, backend::AiCores &cores, bool check_overflow);

}  // namespace openacl::nn
