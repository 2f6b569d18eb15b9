#include "nn/quant_matmul_kernel.h"

namespace openacl::nn {

namespace {

class QuantMatmul final : public StridedKernel {
 public:
  QuantMatmul(ops::QuantMatmulShape s, bool bias) : s_(s), bias_(bias) {}

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    auto ld = [](const StridedTensor &t) { return t.value->strides[0]; };
    ops::QuantMatmulData d;
    d.x = in[0].data;
    d.ldx = ld(in[0]);
    d.w = in[1].data;
    d.ldw = ld(in[1]);  // a byte an element
    d.scale = in[2].data;
    d.lds = ld(in[2]);
    d.bias = bias_ ? reinterpret_cast<const float *>(in[3].data) : nullptr;
    d.y = out[0].data;
    d.ldy = ld(out[0]);
    ops::quant_matmul(s_, d, cores);
  }

 private:
  ops::QuantMatmulShape s_;
  bool bias_;
};

}  // namespace

std::shared_ptr<const StridedKernel> quant_matmul_kernel(ops::QuantMatmulShape shape, bool bias) {
  return std::make_shared<QuantMatmul>(shape, bias);
}

}  // namespace openacl::nn
