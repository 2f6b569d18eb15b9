// Ops computed by oneDNN primitives (convolution, deconvolution, matmul, pooling).
// oneDNN (Debian build) runs on OpenMP threads and fixes a primitive's thread count when the
// primitive is created, from the creating thread's OpenMP setting. A DnnlOp therefore keeps
// one variant of its primitive per team size: small primitives run on one thread (waking a
// team costs more than it saves), large ones on all the device's AI cores, so a device never
// uses more threads than it has cores. f16/bf16 tensors go through f32 copies.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <functional>
#include <memory>
#include <mutex>

#include "ops/kernel.h"

namespace openacl::ops {

dnnl::engine &dnnl_engine();

// One primitive argument bound to an op input (index >= 0) or output (-1 - index).
struct DnnlArg {
  int arg;                    // DNNL_ARG_*
  int tensor;                 // input index, or -1 - output index
  dnnl::memory::desc user;    // layout of the user's (f32) buffer
  DType dtype = DType::f32;   // user's dtype; non-f32 floats are converted
};

// Creates the primitive descriptor; called with OpenMP set to the team size it will run with.
// The layout each argument wants is queried from it (a reorder is added where it differs).
using DnnlPdMaker = std::function<dnnl::primitive_desc()>;

class DnnlOp final : public PreparedOp {
 public:
  // threads: the AI-core count of the device the op will most likely run on; the variant for
  // it is created now (so a bad configuration fails here), others on first use.
  DnnlOp(DnnlPdMaker make_pd, std::vector<DnnlArg> args, unsigned threads);
  ~DnnlOp() override;
  void run(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const override;
  // Constant weights are reordered into the primitive's layout once, not at every run.
  void bind_constant(size_t input, const void *data) override;

 private:
  struct Variant;
  unsigned team(unsigned cores) const;
  const Variant &variant(unsigned team) const;
  std::unique_ptr<Variant> make_variant(unsigned team) const;
  void pack(Variant &v) const;
  void execute(const Variant &v, const std::vector<Tensor> &in, const std::vector<Tensor> &out) const;

  DnnlPdMaker make_pd_;
  std::vector<DnnlArg> args_;
  std::vector<const void *> constants_;  // per arg: bound constant data, or null
  bool parallel_ = false;
  mutable std::mutex mu_;
  mutable std::vector<std::unique_ptr<Variant>> variants_;  // by team size
};

dnnl::memory::data_type dnnl_f32();
// Primitive attributes every op uses: a user-managed scratchpad.
dnnl::primitive_attr dnnl_attr();
// The op for a primitive; a configuration oneDNN rejects becomes an op error naming the op.
std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, std::vector<DnnlArg> args, DnnlPdMaker make_pd);

}  // namespace openacl::ops
