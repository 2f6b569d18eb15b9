// An operator call as the C API makes it (aclopExecuteV2, aclopExecWithHandle; R17): the op
// is prepared once (reused from the calling thread's OpCache when its descriptors match), every
// buffer is checked against its descriptor and the memory map, and the op runs on a stream as
// one task that records the device memory it reads and writes. The C API views its own
// descriptors and buffers as DescView and BufferView and resolves the stream; the checks throw
// openacl::Error before anything is enqueued.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ops/op.h"
#include "ops/op_cache.h"

namespace openacl {
class Stream;
}

namespace openacl::ops {

// A tensor descriptor as the caller gave it (aclTensorDesc), viewed without a copy.
struct DescView {
  bool given = false;  // false: the caller's descriptor pointer is NULL
  DType dtype = DType::undefined;
  Format format = Format::nd;
  std::span<const int64_t> dims;
  bool on_host = false;  // placed in host memory (aclSetTensorPlaceMent)
  const std::vector<uint8_t> *const_value = nullptr;  // aclSetTensorConst's bytes, or nullptr
};

// A buffer as the caller gave it (aclDataBuffer).
struct BufferView {
  bool given = false;  // false: the caller's buffer pointer is NULL
  void *data = nullptr;
  size_t length = 0;
};

// The views of one descriptor or buffer array. Up to kInline live in the object itself: an op
// call rarely has more tensors, and a heap array per array per call was a measurable part of
// a small op's aclopExecuteV2.
template <class V>
class ViewArray {
 public:
  static constexpr size_t kInline = 8;
  explicit ViewArray(size_t n) : n_(n) {
    if (n > kInline) heap_.resize(n);
  }
  V &operator[](size_t i) { return n_ > kInline ? heap_[i] : inline_[i]; }
  size_t size() const { return n_; }
  operator std::span<const V>() const { return {n_ > kInline ? heap_.data() : inline_.data(), n_}; }

 private:
  size_t n_;
  std::array<V, kInline> inline_{};
  std::vector<V> heap_;
};

// An op prepared for fixed descriptors (aclopCreateHandle keeps one).
struct PreparedCall {
  std::string op_type;
  std::vector<TensorDesc> inputs, outputs;
  std::vector<bool> host_inputs;  // placed in host memory
  std::shared_ptr<const PreparedOp> op;
};

// An op call checked in full and ready to enqueue.
struct BoundCall {
  std::string op_type;
  std::shared_ptr<const PreparedOp> op;
  std::unique_ptr<TensorLists> tensors;  // never null
  // Where the tensor lists go when the call is done, for the next call of the same cached op
  // (alive as long as `op`), or nullptr.
  TensorSpare *spare = nullptr;
  // Host-placed inputs, copied at the call: the caller may reuse that memory once it returns.
  std::vector<std::shared_ptr<std::vector<uint8_t>>> host_copies;
};

// What an op call is prepared for: the kernels of the calling thread's device's backend and
// its AI-core count; before any device is set (aclopCreateHandle may come first), the op
// library's host kernels (sim's) for one core. The op runs on any device of that backend.
Target call_target();

// Validates the descriptors and attributes and prepares the op (aclopCreateHandle,
// aclopCompile). Host-placed inputs take their bytes from `input_buffers` when it has them
// (shape-like inputs). in_name / out_name name the descriptor arrays in messages.
PreparedCall prepare_call(const std::string &op_type, std::span<const DescView> inputs,
                          std::span<const BufferView> input_buffers,
                          std::span<const DescView> outputs, const Attrs &attrs,
                          const char *in_name = "inputDesc", const char *out_name = "outputDesc");

// aclopInferShape: the output descriptors the op would have for these inputs.
std::vector<TensorDesc> infer_call(const std::string &op_type, std::span<const DescView> inputs,
                                   std::span<const BufferView> input_buffers, const Attrs &attrs);

// Checks the buffers against a prepared op: their counts, sizes and device ranges.
BoundCall bind_call(const PreparedCall &op, std::span<const BufferView> inputs,
                    std::span<const BufferView> outputs);

// aclopExecuteV2's preparation and checks: prepare_call (through the thread's OpCache) then
// bind_call.
BoundCall bind_call(const std::string &op_type, std::span<const DescView> input_descs,
                    std::span<const BufferView> inputs, std::span<const DescView> output_descs,
                    std::span<const BufferView> outputs, const Attrs &attrs);

// Enqueues the op on the stream as one task (with the single-op dump when it is on).
void enqueue_call(Stream &stream, BoundCall call);

}  // namespace openacl::ops
