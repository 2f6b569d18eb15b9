// How an aclnn operator is planned. Each operator file registers planners by name (one
// Registrar per file, as ops/ does); a planner reads its arguments from the Planner, checks
// them, and describes the computation as steps over values: ops of the op library (the same
// kernels aclop and models run), and strided copies. The Planner turns the caller's tensors
// into values (dense ones as they are, strided ones gathered into the workspace), allocates
// temporaries in the workspace, and ends as an executor.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "nn/objects.h"
#include "nn/plan.h"

struct aclOpExecutor;

namespace openacl::nn {

// One argument of an aclnnXxxGetWorkspaceSize call, in parameter order (enums and int8_t
// flags as int64_t).
using Arg = std::variant<const aclTensor *, const aclScalar *, const aclIntArray *,
                         const aclFloatArray *, const aclBoolArray *, const aclTensorList *,
                         const aclScalarList *, int64_t, double, bool, const char *>;

class Planner {
 public:
  Planner(std::string op, std::vector<Arg> args);
  const std::string &op() const { return plan_->name; }

  // Arguments by position, named for messages. Required objects that are NULL fail with
  // Errc::null_pointer; the _opt forms return nullptr.
  const aclTensor &tensor(size_t i, const char *name) const;
  const aclTensor *tensor_opt(size_t i, const char *name) const;
  const aclScalar &scalar(size_t i, const char *name) const;
  const aclScalar *scalar_opt(size_t i, const char *name) const;
  const aclIntArray &int_array(size_t i, const char *name) const;
  const aclTensorList &tensor_list(size_t i, const char *name) const;
  const aclIntArray *int_array_opt(size_t i, const char *name) const;
  const char *text(size_t i, const char *name) const;  // a C string argument, non-NULL
  int64_t i64(size_t i) const;
  double f64(size_t i) const;
  bool flag(size_t i) const;

  // Fails with Errc::invalid_argument: "<op>: <what>".
  [[noreturn]] void invalid(const std::string &what) const;
  void dtype_in(const aclTensor &t, const char *name, std::initializer_list<ops::DType> ok) const;
  void same_shape(const aclTensor &t, const char *name, const std::vector<int64_t> &dims,
                  const char *whose) const;

  // The caller's tensors, registered in parameter order (the address-update numbering). An
  // input value is the view as given (see dense()); an output value is where results go (see
  // store()); a ref (selfRef) is both.
  size_t input(const aclTensor &t, const char *name);
  std::vector<size_t> input_list(const aclTensorList &l, const char *name);
  size_t output(const aclTensor &t, const char *name);
  size_t ref(const aclTensor &t, const char *name);

  // Values the planner makes.
  size_t temp(ops::DType dtype, std::vector<int64_t> dims);  // workspace
  size_t constant(ops::DType dtype, std::vector<int64_t> dims, std::vector<uint8_t> bytes);
  size_t scalar_value(const aclScalar &s, ops::DType dtype);  // a 0-d constant
  // A view of value v (dims, strides in elements, extra offset in elements); no data moves.
  size_t view(size_t v, std::vector<int64_t> dims, std::vector<int64_t> strides, int64_t offset);
  size_t reshape(size_t v, std::vector<int64_t> dims);  // v must be dense

  const Value &value(size_t v) const { return plan_->values[v]; }
  const std::vector<int64_t> &dims(size_t v) const { return plan_->values[v].desc.dims; }
  ops::DType dtype(size_t v) const { return plan_->values[v].desc.dtype; }

  // v as a dense value: v itself, or a workspace gather of it.
  size_t dense(size_t v);
  // v converted to dtype (a Cast step), or v itself.
  size_t cast(size_t v, ops::DType dtype);
  // Runs op `type` of the op library on dense inputs; its outputs are new workspace values
  // (shapes from the op's own inference), returned in order.
  std::vector<size_t> op(const std::string &type, const std::vector<size_t> &inputs,
                         const ops::Attrs &attrs = {});
  size_t op1(const std::string &type, const std::vector<size_t> &inputs,
             const ops::Attrs &attrs = {}) {
    return op(type, inputs, attrs)[0];
  }
  // Writes value v to the output (or ref) value `out`: cast to its dtype, broadcast to its
  // shape when `broadcast`, copied into its view. The last step's result goes straight into
  // a dense output when possible, without a copy.
  void store(size_t v, size_t out, bool broadcast = false);
  // A strided copy step: dst's view = src's view (same dims and dtype).
  void copy(size_t src, size_t dst);
  // A step of the operator's own kernel over the views of these values, as they are.
  void kernel(std::shared_ptr<const StridedKernel> k, std::vector<size_t> inputs,
              std::vector<size_t> outputs);
  // An int4 value (a caller's tensor) as a dense int8 one.
  size_t unpack_int4(size_t v);
  // An int4 value [..., c] seen as its bytes, u8 [..., c / 2], for a kernel that unpacks them
  // itself; SIZE_MAX when its elements do not pair into whole bytes (the last dim contiguous and
  // even, the other strides and the offset even).
  size_t int4_bytes(size_t v);
  // dst[..., index[i], ...] = src[..., i, ...] along axis; index a dense i32 / i64 value whose
  // entries are checked against dst's size when the step runs (a bad one fails the stream).
  void index_copy(size_t src, size_t index, size_t dst, int64_t axis);

  // Ends planning: the executor, which owns the plan; the workspace it needs. With a key, the
  // plan is also kept for later calls with arguments of that description (nn/plan_cache.h).
  aclOpExecutor *finish(uint64_t *workspace_size, const std::string_view *key = nullptr);

 private:
  size_t add_value(Value v);
  size_t add_slot(const aclTensor &t, const char *name, bool read, bool write);
  const Arg &arg(size_t i) const;
  template <class T>
  const T *object(size_t i, const char *name, bool required) const;

  std::vector<Arg> args_;
  std::shared_ptr<Plan> plan_;
  std::vector<void *> addresses_;  // per slot, the tensors' addresses at planning time
  std::vector<const aclTensor *> slot_tensors_;  // per slot, the caller's tensor
  // The latest workspace value and where it began: a store that sends a result straight to
  // the output gives that space back.
  size_t last_temp_ = SIZE_MAX;
  uint64_t last_temp_begin_ = 0;
  ops::Target target_;  // the kernels the plan's ops are prepared through, for how many cores
};

// The planner of an operator: checks the arguments and adds its steps.
using PlanFn = void (*)(Planner &p);
struct PlanEntry {
  const char *op;
  PlanFn plan;
};
struct Registrar {
  Registrar(std::initializer_list<PlanEntry> entries);
};

// Phase 1 of every aclnn operator: plans `op` with these arguments and returns its executor
// and workspace size. Throws Error (nothing is kept) on a bad argument.
void plan(const char *op, std::span<const Arg> args, uint64_t *workspace_size,
          aclOpExecutor **executor);

// numpy / torch broadcasting of two shapes; throws naming the op when they do not broadcast.
std::vector<int64_t> broadcast_shapes(const Planner &p, const std::vector<int64_t> &a,
                                      const std::vector<int64_t> &b);
// torch's type promotion of two operand dtypes (float over int, wider over narrower).
ops::DType promote(ops::DType a, ops::DType b);
bool is_float(ops::DType t);

// aclnnCalculateMatmulWeightSizeV2: the elements a weight of this shape and dtype (an
// aclDataType) takes in the FRACTAL_NZ format. Throws on a bad argument.
void matmul_weight_size(const aclIntArray *shape, int64_t dtype, uint64_t *elements);

}  // namespace openacl::nn
