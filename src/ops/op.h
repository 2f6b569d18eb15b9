// The built-in operator library: operators by their Ascend op-type names, computed on the
// simulated NPU's AI cores. Independent of streams and handles: the API layer (api/op.cpp)
// and the model executor (model/) validate with prepare() at the call, then run the prepared
// op inside a stream task.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/parallel.h"
#include "core/status.h"

namespace openacl::ops {

// Same numeric values as aclDataType (the API layer casts).
enum class DType : int32_t {
  undefined = -1, f32 = 0, f16 = 1, i8 = 2, i32 = 3, u8 = 4, i16 = 6, u16 = 7, u32 = 8,
  i64 = 9, u64 = 10, f64 = 11, boolean = 12, bf16 = 27,
};
// Same numeric values as aclFormat.
enum class Format : int32_t { undefined = -1, nchw = 0, nhwc = 1, nd = 2 };

size_t dtype_size(DType t);
const char *dtype_name(DType t);

struct TensorDesc {
  DType dtype = DType::f32;
  std::vector<int64_t> dims;
  Format format = Format::nd;
  int64_t element_count() const;  // 1 for a scalar
  size_t byte_size() const;
};

struct Tensor {
  TensorDesc desc;
  void *data = nullptr;
  size_t bytes = 0;  // capacity of the buffer
};

using AttrValue = std::variant<bool, int64_t, float, std::string, DType, std::vector<uint8_t>,
                               std::vector<int64_t>, std::vector<float>,
                               std::vector<std::string>, std::vector<DType>,
                               std::vector<std::vector<int64_t>>>;
using Attrs = std::map<std::string, AttrValue>;

// An op validated for fixed input/output descriptors and attributes.
class PreparedOp {
 public:
  virtual ~PreparedOp() = default;
  // Runs on a device worker; may spread work with cores.parallel_for. Throws Error on bad
  // data (the stream then fails, R20).
  virtual void run(const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs,
                   AiCores &cores) const = 0;
};

// Output descriptors an op produces for these inputs and attributes. Throws Error with
// Errc::op_type_not_match (unknown op), op_input_not_match, op_attr_not_match,
// unsupported_data_type, naming the op and what was wrong.
std::vector<TensorDesc> infer(const std::string &op_type, const std::vector<TensorDesc> &inputs,
                              const Attrs &attrs);

// Validates the whole call (also outputs: count, dtype, shape) and returns the op ready to run.
// Throws Error as infer(), plus Errc::op_output_not_match.
std::unique_ptr<PreparedOp> prepare(const std::string &op_type,
                                    const std::vector<TensorDesc> &inputs,
                                    const std::vector<TensorDesc> &outputs, const Attrs &attrs);

bool is_known_op(const std::string &op_type);

}  // namespace openacl::ops
