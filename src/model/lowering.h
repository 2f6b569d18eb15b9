// ONNX node -> ops of the op library (ops/op.h), for known input descriptors. A node becomes
// library ops, views (a new shape over the same bytes: Reshape, Squeeze, Flatten ...), or a
// host-computed constant (Shape). The caller (the planner) decides, per emitted op, whether
// it runs at planning time on the host (all inputs constant: constant folding) or becomes a
// step of the execution plan.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/graph.h"

namespace openacl::model {

class LoweringContext {
 public:
  virtual ~LoweringContext() = default;
  virtual int64_t opset() const = 0;
  // By value: emitting ops and temporaries may move the caller's values.
  virtual ops::TensorDesc desc(int value) const = 0;
  // The value's content when it is known on the host (a constant), else null.
  virtual const HostTensor *constant(int value) const = 0;
  // A new intermediate value; its descriptor is set by the op that produces it.
  virtual int temporary() = 0;
  // A new constant value.
  virtual int constant_value(std::shared_ptr<const HostTensor> t) = 0;
  // Emits a library op; sets the descriptors of outputs from ops::infer.
  virtual void op(const std::string &type, const std::vector<int> &inputs,
                  const std::vector<int> &outputs, ops::Attrs attrs) = 0;
  // out = in's bytes seen with the shape dims.
  virtual void view(int in, int out, std::vector<int64_t> dims) = 0;
  // out is a constant computed by the lowering itself.
  virtual void define_constant(int out, std::shared_ptr<const HostTensor> t) = 0;
};

bool is_supported_onnx_op(const std::string &onnx_op);

// Throws Errc::model_unsupported_op when the node uses a feature openacl lacks, and
// Errc::model_input_not_match when its input shapes do not fit the op.
void lower(const Node &node, LoweringContext &ctx);

}  // namespace openacl::model
