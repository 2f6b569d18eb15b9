// Ops computed by oneDNN primitives (convolution, deconvolution, matmul, pooling).
// oneDNN (Debian build) runs on OpenMP threads and fixes a primitive's thread count when the
// primitive is created. Waking an OpenMP team per primitive costs more than it saves on a
// small machine, and the device already has its AI-core workers: a DnnlOp that can be split
// (a convolution over batches or output rows) runs one single-threaded primitive per part on
// the AI cores; one that cannot runs whole, with an OpenMP team as large as the device's
// core count when it is large enough to gain from it. Either way a device never uses more
// threads than it has cores. f16/bf16 tensors go through f32 copies.
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
  int arg;                   // DNNL_ARG_*
  int tensor;                // input index, or -1 - output index
  dnnl::memory::desc user;   // layout of the user's (f32) buffer
  DType dtype = DType::f32;  // user's dtype; non-f32 floats are converted
};

// Creates the primitive descriptor; called with OpenMP set to the team size it will run with.
// The layout each argument wants is queried from it (a reorder is added where it differs).
using DnnlPdMaker = std::function<dnnl::primitive_desc()>;

// An independent piece of an op: a primitive over slices of its tensors.
struct DnnlPart {
  DnnlPdMaker make_pd;
  std::vector<DnnlArg> args;    // the slices' user layouts
  std::vector<size_t> offsets;  // per arg: byte offset of the slice in the op's tensor
};

// The op in `parts` pieces (or fewer, down to the whole op as one part when it cannot split).
using DnnlSplitter = std::function<std::vector<DnnlPart>(unsigned parts)>;

class DnnlOp final : public PreparedOp {
 public:
  // threads: the AI-core count of the device the op will most likely run on; the variant for
  // it is created now (so a bad configuration fails here), others on first use.
  DnnlOp(DnnlSplitter split, unsigned threads);
  ~DnnlOp() override;
  void run(const std::vector<Tensor> &in, const std::vector<Tensor> &out,
           backend::AiCores &cores) const override;
  // Constant weights are reordered into the primitive's layout once, not at every run.
  void bind_constant(size_t input, const void *data, size_t n,
                     backend::DeviceBackend &device) override;

 private:
  struct Part;
  struct Variant;
  const Variant &variant(unsigned cores) const;
  std::unique_ptr<Variant> make_variant(unsigned cores) const;
  void pack(Variant &v) const;
  dnnl::memory packed_copy(const DnnlArg &a, const dnnl::memory::desc &layout,
                           const dnnl::reorder &reorder, size_t offset, dnnl::stream &stream) const;
  static void execute(const Part &p, const std::vector<Tensor> &in, const std::vector<Tensor> &out);

  DnnlSplitter split_;
  std::vector<const void *> constants_;  // per op input: bound constant data, or null
  size_t bytes_ = 0;                     // of all the op's arguments
  mutable std::mutex mu_;
  mutable std::vector<std::unique_ptr<Variant>> variants_;  // by core count
};

dnnl::memory::data_type dnnl_f32();
// Primitive attributes every op uses: a user-managed scratchpad.
dnnl::primitive_attr dnnl_attr();
// The op for a primitive; a configuration oneDNN rejects becomes an op error naming the op.
std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, std::vector<DnnlArg> args,
                                    DnnlPdMaker make_pd);
std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, DnnlSplitter split);

}  // namespace openacl::ops
