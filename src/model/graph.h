// The model's graph, independent of ONNX's protobuf classes: values (tensors) and nodes in
// topological order. Node op types and attributes are still ONNX's; lowering.h maps them to
// the op library. Dims of -1 are unknown until the input shapes of an execution are known.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/aipp.h"
#include "model/gears.h"
#include "ops/op.h"

namespace openacl::model {

// A tensor whose content is known on the host: an initializer, a Constant node's value, or
// a value folded at load or planning time.
struct HostTensor {
  ops::TensorDesc desc;
  std::vector<uint8_t> data;  // desc.byte_size() bytes

  template <class T>
  const T *as() const {
    return reinterpret_cast<const T *>(data.data());
  }
  // The elements as int64 (from any integer dtype); throws for float tensors.
  std::vector<int64_t> to_ints() const;
  std::vector<float> to_floats() const;
};

// ONNX TensorProto element type -> op library dtype; Errc::parse_model naming `what` when
// openacl has no such dtype.
ops::DType dtype_from_onnx(int64_t onnx_type, const std::string &what);

struct Value {
  std::string name;
  ops::TensorDesc desc;
  std::shared_ptr<const HostTensor> constant;  // null for values computed on the device
};

struct Node {
  std::string op;            // ONNX op type
  std::string name;          // ONNX node name, or "<op>#<index>" when the model gives none
  std::vector<int> inputs;   // value ids; -1 for an omitted optional input
  std::vector<int> outputs;  // value ids; -1 for an omitted optional output
  ops::Attrs attrs;          // ONNX attributes (ints as int64_t, floats as float)
};

// What a converted model (.om, from atc) adds around its graph; empty for plain ONNX.
struct Conversion {
  Gears gears;
  std::string
      precision_mode;        // atc --precision_mode (the sim computes in float32 whatever it says)
  std::vector<AippOp> aipp;  // AIPP in front of graph inputs (--insert_op_conf), static or dynamic
  // The AIPP of graph input i, or null.
  const AippOp *aipp_of(size_t input) const {
    for (const auto &op : aipp)
      if (op.input == input) return &op;
    return nullptr;
  }
};

struct Graph {
  std::string name;
  int64_t opset = 0;  // version of the default ONNX domain
  std::vector<Value> values;
  std::vector<Node> nodes;
  std::vector<int> inputs;  // the model's inputs (initializers excluded)
  std::vector<int> outputs;
  Conversion conversion;

  int add_value(std::string name, ops::TensorDesc desc,
                std::shared_ptr<const HostTensor> constant = nullptr);
};

}  // namespace openacl::model
