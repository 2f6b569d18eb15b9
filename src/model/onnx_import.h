// ONNX model bytes -> Graph. Checks what openacl needs to run the model and fails with
// Errc::parse_model (not ONNX, truncated, inconsistent graph, opset out of range, tensor
// types openacl lacks) or Errc::model_unsupported_op (naming the op and the node).
#pragma once

#include <cstddef>

#include "model/graph.h"

namespace openacl::model {

// Opsets of the default ONNX domain that the lowering implements.
inline constexpr int64_t kMinOpset = 7;
inline constexpr int64_t kMaxOpset = 23;

Graph import_onnx(const void *data, size_t size);

}  // namespace openacl::model
