// Ops computed by oneDNN primitives (convolution, deconvolution, matmul, pooling).
// oneDNN (Debian build) runs on OpenMP threads; a primitive runs on the stream's worker with
// its OpenMP team sized to the device's AI-core count, so a device never uses more threads
// than it has cores. f16/bf16 tensors go through f32 copies.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include "ops/kernel.h"

namespace openacl::ops {

dnnl::engine &dnnl_engine();

// One primitive argument bound to an op input (index >= 0) or output (-1 - index).
struct DnnlArg {
  int arg;                    // DNNL_ARG_*
  int tensor;                 // input index, or -1 - output index
  dnnl::memory::desc user;    // layout of the user's (f32) buffer
  dnnl::memory::desc prim;    // layout the primitive wants (== user unless reordered)
  DType dtype = DType::f32;   // user's dtype; non-f32 floats are converted
};

class DnnlOp final : public PreparedOp {
 public:
  // `scratchpad`: the primitive's scratchpad (built with scratchpad_mode::user); each run
  // gives it a buffer of the calling worker, so concurrent streams never share one.
  DnnlOp(dnnl::primitive prim, std::vector<DnnlArg> args, dnnl::memory::desc scratchpad);
  void run(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const override;

 private:
  void execute(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const;
  dnnl::primitive prim_;
  std::vector<DnnlArg> args_;
  std::vector<dnnl::reorder> reorders_;  // per arg; empty primitive when none
  dnnl::memory::desc scratchpad_;
};

dnnl::memory::data_type dnnl_f32();
// Primitive attributes every op uses: a user-managed scratchpad.
dnnl::primitive_attr dnnl_attr();
// Throws op errors (not dnnl::error) for primitive descriptors oneDNN rejects.
template <class F>
auto dnnl_try(const OpCall &call, F &&f) {
  try {
    return f();
  } catch (const dnnl::error &e) {
    fail(Errc::op_attr_not_match, call.type() + ": oneDNN rejects this configuration (" + e.what() + ")");
  }
}

}  // namespace openacl::ops
