#include "ops/dnnl_op.h"

#include <omp.h>

#include <unordered_map>

namespace openacl::ops {

dnnl::engine &dnnl_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::data_type dnnl_f32() { return dnnl::memory::data_type::f32; }

dnnl::primitive_attr dnnl_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

DnnlOp::DnnlOp(dnnl::primitive prim, std::vector<DnnlArg> args, dnnl::memory::desc scratchpad)
    : prim_(std::move(prim)), args_(std::move(args)), scratchpad_(std::move(scratchpad)) {
  for (const auto &a : args_) {
    if (a.user == a.prim) {
      reorders_.emplace_back();
    } else if (a.tensor >= 0) {
      reorders_.emplace_back(dnnl::reorder::primitive_desc(dnnl_engine(), a.user, dnnl_engine(), a.prim));
    } else {
      reorders_.emplace_back(dnnl::reorder::primitive_desc(dnnl_engine(), a.prim, dnnl_engine(), a.user));
    }
  }
}

void DnnlOp::run(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const {
  try {
    execute(in, out, cores);
  } catch (const dnnl::error &e) {
    fail(Errc::task_failure, std::string("oneDNN failed: ") + e.what());
  }
}

void DnnlOp::execute(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const {
  // Waking an OpenMP team costs a few microseconds of futex traffic per primitive: small
  // primitives (the many little convolutions of a mobile model) run faster on one thread.
  constexpr size_t kParallelBytes = size_t{1} << 20;
  size_t bytes = 0;
  for (const DnnlArg &a : args_) bytes += a.user.get_size();
  omp_set_num_threads(bytes < kParallelBytes ? 1 : static_cast<int>(std::max(1u, cores.count())));
  thread_local dnnl::stream stream(dnnl_engine());
  std::vector<std::vector<float>> temps(args_.size());
  std::unordered_map<int, dnnl::memory> margs;
  std::vector<std::pair<dnnl::memory, size_t>> outs;  // primitive-layout output, arg index
  for (size_t i = 0; i < args_.size(); ++i) {
    const DnnlArg &a = args_[i];
    const Tensor &t = a.tensor >= 0 ? in[a.tensor] : out[-1 - a.tensor];
    void *ptr = t.data;
    const size_t n = a.user.get_size() / sizeof(float);
    if (a.dtype != DType::f32) {
      temps[i].resize(n);
      if (a.tensor >= 0) to_f32(a.dtype, t.data, temps[i].data(), n);
      ptr = temps[i].data();
    }
    dnnl::memory user(a.user, dnnl_engine(), ptr);
    if (!reorders_[i]) {
      margs.emplace(a.arg, user);
      if (a.tensor < 0) outs.emplace_back(user, i);
      continue;
    }
    dnnl::memory prim(a.prim, dnnl_engine());
    if (a.tensor >= 0) reorders_[i].execute(stream, user, prim);
    else outs.emplace_back(prim, i);
    margs.emplace(a.arg, prim);
  }
  thread_local std::vector<uint8_t> scratch;
  if (scratchpad_.get_size() != 0) {
    if (scratch.size() < scratchpad_.get_size()) scratch.resize(scratchpad_.get_size());
    margs.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad_, dnnl_engine(), scratch.data()));
  }
  prim_.execute(stream, margs);
  for (auto &[mem, i] : outs) {
    const DnnlArg &a = args_[i];
    const Tensor &t = out[-1 - a.tensor];
    void *ptr = a.dtype == DType::f32 ? t.data : temps[i].data();
    if (reorders_[i]) {
      dnnl::memory user(a.user, dnnl_engine(), ptr);
      reorders_[i].execute(stream, mem, user);
    }
    stream.wait();
    if (a.dtype != DType::f32) from_f32(a.dtype, temps[i].data(), t.data, a.user.get_size() / sizeof(float));
  }
  stream.wait();
}

}  // namespace openacl::ops
