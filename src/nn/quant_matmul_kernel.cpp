#include "nn/quant_matmul_kernel.h"

namespace openacl::nn {

namespace {

// Row strides from the views (each row's own elements are contiguous); the weight's in bytes,
// a byte an element of its u8 or i8 view.
int64_t ld(const StridedTensor &t) { return t.value->strides[0]; }

class QuantMatmul final : public StridedKernel {
 public:
  QuantMatmul(ops::QuantMatmulShape s, bool bias) : s_(s), bias_(bias) {}

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    ops::QuantMatmulData d;
    d.x = in[0].data;
    d.ldx = ld(in[0]);
    d.w = in[1].data;
    d.ldw = ld(in[1]);
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

class QuantDequantize final : public StridedKernel {
 public:
  explicit QuantDequantize(ops::QuantMatmulShape s) : s_(s) {}

  void run(const std::vector<StridedTensor> &in, const std::vector<StridedTensor> &out,
           backend::AiCores &cores) const override {
    ops::QuantMatmulData d;
    d.w = in[0].data;
    d.ldw = ld(in[0]);
    d.scale = in[1].data;
    d.lds = ld(in[1]);
    ops::quant_dequantize_f16(s_, d, reinterpret_cast<uint16_t *>(out[0].data), cores);
  }

 private:
  ops::QuantMatmulShape s_;
};

}  // namespace

std::shared_ptr<const StridedKernel> quant_matmul_kernel(ops::QuantMatmulShape shape, bool bias) {
  return std::make_shared<QuantMatmul>(shape, bias);
}

std::shared_ptr<const StridedKernel> quant_dequantize_kernel(ops::QuantMatmulShape shape) {
  return std::make_shared<QuantDequantize>(shape);
}

}  // namespace openacl::nn
