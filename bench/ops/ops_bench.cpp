// Op benchmarks. Reporting convention of bench/compare.py: the label holds the goal
// ("goal: <metric><=|>=<number>"), the baseline is counter baseline_<metric> (or baseline_ns),
// and `ratio` is the figure compared with the goal.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

namespace {

void check(aclError ret, const char *what) {
  if (ret != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d %s\n", what, ret, aclGetRecentErrMsg());
    std::exit(1);
  }
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A device, a stream and helpers to make op operands.
struct Env {
  Env() {
    check(aclInit(nullptr), "aclInit");
    check(aclrtSetDevice(0), "aclrtSetDevice");
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
  }
  aclDataBuffer *buffer(size_t bytes, float fill) {
    void *p = nullptr;
    check(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    std::vector<float> host(bytes / 4, fill);
    check(aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    return aclCreateDataBuffer(p, bytes);
  }
  aclTensorDesc *desc(std::vector<int64_t> dims) {
    return aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(dims.size()), dims.data(),
                               ACL_FORMAT_NCHW);
  }
  aclrtStream stream = nullptr;
};

Env &env() {
  static Env e;
  return e;
}

dnnl::engine &engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

// Time per call of fn, best of `reps` rounds of `n` calls (seconds).
template <class F>
double time_per_call(F &&fn, int n, int reps = 5) {
  double best = 1e30;
  fn();
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_s();
    for (int i = 0; i < n; ++i) fn();
    best = std::min(best, (now_s() - t0) / n);
  }
  return best;
}

// Best time per call of `ours` and of `base`, measured in alternating rounds so that both see
// the same machine load (the ratios below come from these, not from the main loop).
template <class F, class G>
std::pair<double, double> interleaved_best(F &&ours, G &&base, int n, int rounds = 7) {
  double bo = 1e30, bb = 1e30;
  ours();
  base();
  for (int r = 0; r < rounds; ++r) {
    bo = std::min(bo, time_per_call(ours, n, 1));
    bb = std::min(bb, time_per_call(base, n, 1));
  }
  return {bo, bb};
}

// ---- MatMul fp32 1024^3 ----

// oneDNN matmul called directly on the calling thread.
struct DirectMatMul {
  explicit DirectMatMul(int64_t n)
      : a({n, n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab),
        prim(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, a, a), engine())),
        x(n * n, 1.0f),
        w(n * n, 1.0f),
        y(n * n),
        s(engine()) {}
  void operator()() {
    dnnl::memory mx(a, engine(), x.data()), mw(a, engine(), w.data()), my(a, engine(), y.data());
    prim.execute(s, {{DNNL_ARG_SRC, mx}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, my}});
    s.wait();
  }
  dnnl::memory::desc a;
  dnnl::matmul prim;
  std::vector<float> x, w, y;
  dnnl::stream s;
};

void BM_MatMul(benchmark::State &state) {
  const int64_t n = 1024;
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({n, n}), e.desc({n, n})};
  aclDataBuffer *in[] = {e.buffer(n * n * 4, 1.0f), e.buffer(n * n * 4, 1.0f)};
  aclTensorDesc *od[] = {e.desc({n, n})};
  aclDataBuffer *out[] = {e.buffer(n * n * 4, 0.0f)};
  const double flop = 2.0 * n * n * n;
  auto call = [&] {
    check(aclopExecuteV2("MatMul", 2, d, in, 1, od, out, nullptr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  };
  for (auto _ : state) call();
  DirectMatMul direct(n);
  const auto [ours, base] = interleaved_best(call, direct, 3);
  state.counters["gflops"] = flop / ours / 1e9;
  state.counters["baseline_gflops"] = flop / base / 1e9;
  state.counters["ratio"] = base / ours;
  state.SetLabel("goal: ratio>=0.95 (GFLOP/s vs oneDNN direct)");
}

// ---- Skinny MatMul: m rows against ggml's 7B FFN weight [4096, 14336], stored [N, K] ----

// oneDNN's matmul called directly (its own threads): x [m, k] times w [n, k] transposed.
struct DirectSkinny {
  DirectSkinny(int64_t m, int64_t k, int64_t n)
      : x(dnnl::memory::desc({m, k}, kF32, dnnl::memory::format_tag::ab), engine()),
        w(dnnl::memory::desc({k, n}, kF32, dnnl::memory::format_tag::ba), engine()),
        y(dnnl::memory::desc({m, n}, kF32, dnnl::memory::format_tag::ab), engine()),
        prim(dnnl::matmul::primitive_desc(
            dnnl::matmul::desc(x.get_desc(), w.get_desc(), y.get_desc()), engine())),
        s(engine()) {
    std::memset(x.get_data_handle(), 0, x.get_desc().get_size());
    std::memset(w.get_data_handle(), 0, w.get_desc().get_size());
  }
  static constexpr auto kF32 = dnnl::memory::data_type::f32;
  void operator()() {
    prim.execute(s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, y}});
    s.wait();
  }
  dnnl::memory x, w, y;
  dnnl::matmul prim;
  dnnl::stream s;
};

// Runs the benchmark loop on `call`, then `call` and oneDNN's f32 matmul of the same m x k x n
// in alternating rounds: their best times and ratio as counters.
template <class F>
void time_against_onednn(benchmark::State &state, F &&call, int64_t m, int64_t k, int64_t n,
                         const char *label) {
  for (auto _ : state) call();
  DirectSkinny direct(m, k, n);
  const auto [ours, base] = interleaved_best(call, direct, 2, 3);
  state.counters["openacl_ns"] = ours * 1e9;
  state.counters["baseline_ns"] = base * 1e9;
  state.counters["ratio"] = base / ours;
  state.SetLabel(label);
}

// MatMulV2 with transpose_x2, as aclnnMm gets ggml's MUL_MAT: m rows of x against a weight
// stored [N, K], next to oneDNN's f32 matmul on the same values already in f32 (oneDNN has no
// f16 matmul on CPUs without AVX-512 FP16: what openacl's earlier paths ran, less the conversion
// of the weight at every call).
void matmul_against_onednn(benchmark::State &state, aclDataType x_type, aclDataType w_type,
                           int64_t m, int64_t k, int64_t n) {
  auto bytes = [](aclDataType t) -> int64_t { return t == ACL_FLOAT ? 4 : 2; };
  auto &e = env();
  const int64_t xd[] = {m, k}, wd[] = {n, k}, yd[] = {m, n};
  aclTensorDesc *d[] = {aclCreateTensorDesc(x_type, 2, xd, ACL_FORMAT_ND),
                        aclCreateTensorDesc(w_type, 2, wd, ACL_FORMAT_ND)};
  aclTensorDesc *od[] = {aclCreateTensorDesc(x_type, 2, yd, ACL_FORMAT_ND)};
  aclDataBuffer *in[] = {e.buffer(m * k * bytes(x_type), 0.0f),
                         e.buffer(n * k * bytes(w_type), 0.0f)};
  aclDataBuffer *out[] = {e.buffer(m * n * bytes(x_type), 0.0f)};
  aclopAttr *attr = aclopCreateAttr();
  aclopSetAttrBool(attr, "transpose_x2", 1);
  auto call = [&] {
    check(aclopExecuteV2("MatMulV2", 2, d, in, 1, od, out, attr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  };
  time_against_onednn(state, call, m, k, n, "goal: ratio>=1.0 (time vs oneDNN f32 matmul direct)");
  aclopDestroyAttr(attr);
  // The weights are large and the function runs once per repetition: free them.
  for (aclDataBuffer *b : {in[0], in[1], out[0]}) {
    check(aclrtFree(aclGetDataBufferAddr(b)), "aclrtFree");
    aclDestroyDataBuffer(b);
  }
  for (aclTensorDesc *t : {d[0], d[1], od[0]}) aclDestroyTensorDesc(t);
}

// x and w of one dtype, up to 64 rows: the skinny kernel.
void BM_SkinnyMatMul(benchmark::State &state, aclDataType type, int64_t k, int64_t n) {
  matmul_against_onednn(state, type, type, state.range(0), k, n);
}
// A large model's rows (14,336 long), and one row of x against short rows (2,048, a small
// llama's; 64 MB of f16, more than the L3 cache): token generation.
BENCHMARK_CAPTURE(BM_SkinnyMatMul, f32, ACL_FLOAT, 14336, 4096)
    ->Arg(1)
    ->Arg(5)
    ->Arg(8)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SkinnyMatMul, f16, ACL_FLOAT16, 14336, 4096)
    ->Arg(1)
    ->Arg(5)
    ->Arg(8)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SkinnyMatMul, f32_k2048, ACL_FLOAT, 2048, 16384)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SkinnyMatMul, f16_k2048, ACL_FLOAT16, 2048, 16384)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- Prompt processing: m rows of f32 x against an f16 weight [N, K] ----

// m rows of f32 x against an f16 weight (aclnnMm of ggml's F16 weight): the panel kernel.
void BM_PanelMatMul(benchmark::State &state) {
  matmul_against_onednn(state, ACL_FLOAT, ACL_FLOAT16, state.range(0), state.range(1),
                        state.range(2));
}
// A 7B model's square weight, and the 134 M llama's (docs/ggml.md) FFN weights.
BENCHMARK(BM_PanelMatMul)
    ->Args({128, 4096, 4096})
    ->Args({512, 4096, 4096})
    ->Args({128, 768, 2048})
    ->Args({128, 2048, 768})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- Quantized weights: aclnnWeightQuantBatchMatmulV2 as ggml calls it on Q8_0 / Q4_0 ----

// m rows of f16 x against an int8 or int4 weight [k, n] (the transpose of ggml's dense [n, k])
// with an f16 scale per 32 values of k, y [m, n] f16: both phases and a synchronize a call, as
// ggml's CANN backend makes them. Baseline: oneDNN's f32 matmul on the weight already
// dequantized to f32 (what a dequantize-then-matmul path costs, less the dequantization).
void BM_WeightQuantMatMul(benchmark::State &state, aclDataType w_type) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  auto &e = env();
  auto device = [&](size_t bytes) {
    aclDataBuffer *b = e.buffer(bytes, 0.0f);
    void *p = aclGetDataBufferAddr(b);
    aclDestroyDataBuffer(b);
    return p;
  };
  const size_t w_bytes = w_type == ACL_INT4 ? n * k / 2 : n * k;
  void *xp = device(m * k * 2), *wp = device(w_bytes), *sp = device(n * (k / 32) * 2),
       *yp = device(m * n * 2);
  const int64_t xd[] = {m, k}, xs[] = {k, 1}, wd[] = {k, n}, ws[] = {1, k}, sd[] = {k / 32, n},
                ss[] = {1, k / 32}, yd[] = {m, n}, ys[] = {n, 1};
  const int64_t wn[] = {n * k}, sn[] = {n * (k / 32)};
  aclTensor *x = aclCreateTensor(xd, 2, ACL_FLOAT16, xs, 0, ACL_FORMAT_ND, xd, 2, xp);
  aclTensor *w = aclCreateTensor(wd, 2, w_type, ws, 0, ACL_FORMAT_ND, wn, 1, wp);
  aclTensor *sc = aclCreateTensor(sd, 2, ACL_FLOAT16, ss, 0, ACL_FORMAT_ND, sn, 1, sp);
  aclTensor *y = aclCreateTensor(yd, 2, ACL_FLOAT16, ys, 0, ACL_FORMAT_ND, yd, 2, yp);
  void *work = nullptr;
  uint64_t work_size = 0;
  auto call = [&] {
    uint64_t size = 0;
    aclOpExecutor *ex = nullptr;
    check(aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x, w, sc, nullptr, nullptr, nullptr,
                                                        nullptr, 32, y, &size, &ex),
          "aclnnWeightQuantBatchMatmulV2GetWorkspaceSize");
    if (size > work_size) {
      if (work) check(aclrtFree(work), "aclrtFree");
      check(aclrtMalloc(&work, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
      work_size = size;
    }
    check(aclnnWeightQuantBatchMatmulV2(work, size, ex, e.stream), "aclnnWeightQuantBatchMatmulV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  };
  time_against_onednn(state, call, m, k, n,
                      "goal: ratio>=1.0 (time vs oneDNN f32 matmul on the dequantized weight)");
  for (aclTensor *t : {x, w, sc, y}) aclDestroyTensor(t);
  for (void *p : {xp, wp, sp, yp, work})
    if (p) check(aclrtFree(p), "aclrtFree");
}
// A 7B model's square weight: token generation (1 row), a few rows, a prompt (128 rows); and
// the 134 M llama's FFN weight (docs/ggml.md) in token generation.
void quant_shapes(benchmark::internal::Benchmark *b) {
  b->Args({1, 4096, 4096})
      ->Args({8, 4096, 4096})
      ->Args({128, 4096, 4096})
      ->Args({1, 768, 2048})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}
BENCHMARK_CAPTURE(BM_WeightQuantMatMul, q8_0, ACL_INT8)->Apply(quant_shapes);
BENCHMARK_CAPTURE(BM_WeightQuantMatMul, q4_0, ACL_INT4)->Apply(quant_shapes);

// ---- Add 16M floats ----

void BM_Add16M(benchmark::State &state) {
  const int64_t n = 16 << 20;
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({n}), e.desc({n})};
  aclDataBuffer *in[] = {e.buffer(n * 4, 1.0f), e.buffer(n * 4, 2.0f)};
  aclTensorDesc *od[] = {e.desc({n})};
  aclDataBuffer *out[] = {e.buffer(n * 4, 0.0f)};
  auto call = [&] {
    check(aclopExecuteV2("Add", 2, d, in, 1, od, out, nullptr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  };
  for (auto _ : state) call();
  // Bytes moved: Add reads 2 and writes 1 array; memcpy reads 1 and writes 1.
  std::vector<float> src(n, 1.0f), dst(n);
  const auto [ours, mt] = interleaved_best(
      call,
      [&] {
        std::memcpy(dst.data(), src.data(), n * 4);
        benchmark::DoNotOptimize(dst.data());
      },
      3);
  state.counters["gbps"] = 3.0 * n * 4 / ours / 1e9;
  state.counters["baseline_gbps"] = 2.0 * n * 4 / mt / 1e9;
  state.counters["ratio"] = state.counters["gbps"] / state.counters["baseline_gbps"];
  state.SetLabel("goal: ratio>=0.7 (GB/s vs memcpy)");
}

// ---- Unary ops of 16M floats (info: compute-bound elementwise) ----

void BM_Unary16M(benchmark::State &state, const char *op) {
  const int64_t n = 16 << 20;
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({n})};
  aclDataBuffer *in[] = {e.buffer(n * 4, 0.5f)};
  aclDataBuffer *out[] = {e.buffer(n * 4, 0.0f)};
  for (auto _ : state) {
    check(aclopExecuteV2(op, 1, d, in, 1, d, out, nullptr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  }
  state.counters["gelem_per_s"] = benchmark::Counter(
      static_cast<double>(n) * state.iterations() / 1e9, benchmark::Counter::kIsRate);
  state.SetLabel("info: elements per second, no goal");
}
BENCHMARK_CAPTURE(BM_Unary16M, Relu, "Relu")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Unary16M, HardSwish, "HardSwish")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Unary16M, Sigmoid, "Sigmoid")->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- SoftmaxV2 over rows of 6625 (PP-OCR rec's 40 x 6625 output) ----

// oneDNN's softmax primitive called directly on the calling thread, as a reference of what the
// same ISA does with the same rows.
struct DirectSoftmax {
  DirectSoftmax(int64_t rows, int64_t cols)
      : md({rows, cols}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab),
        x(md, engine()),
        y(md, engine()),
        prim(dnnl::softmax_forward::primitive_desc(
            dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, md, 1), engine())),
        s(engine()) {
    auto *v = static_cast<float *>(x.get_data_handle());
    for (int64_t i = 0; i < rows * cols; ++i) v[i] = static_cast<float>(i % 97) * 0.1f - 5.0f;
  }
  void operator()() {
    prim.execute(s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}});
    s.wait();
  }
  dnnl::memory::desc md;
  dnnl::memory x, y;
  dnnl::softmax_forward prim;
  dnnl::stream s;
};

void BM_Softmax(benchmark::State &state) {
  const int64_t rows = 40, cols = 6625;
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({rows, cols})};
  aclDataBuffer *in[] = {e.buffer(rows * cols * 4, 0.5f)};
  aclDataBuffer *out[] = {e.buffer(rows * cols * 4, 0.0f)};
  aclopAttr *attr = aclopCreateAttr();
  const int64_t axis = -1;
  aclopSetAttrListInt(attr, "axes", 1, &axis);
  auto call = [&] {
    check(aclopExecuteV2("SoftmaxV2", 1, d, in, 1, d, out, attr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  };
  for (auto _ : state) call();
  DirectSoftmax direct(rows, cols);
  const auto [ours, base] = interleaved_best(call, direct, 50);
  state.counters["openacl_ns"] = ours * 1e9;
  state.counters["baseline_ns"] = base * 1e9;
  state.SetLabel("info: baseline: oneDNN's softmax primitive on the calling thread");
  aclopDestroyAttr(attr);
}

// ---- Conv2D 1x64x56x56 3x3 64->64 ----

double onednn_conv_s() {
  using tag = dnnl::memory::format_tag;
  const auto f32 = dnnl::memory::data_type::f32;
  dnnl::memory::desc src({1, 64, 56, 56}, f32, tag::nchw), wts({64, 64, 3, 3}, f32, tag::oihw),
      dst({1, 64, 56, 56}, f32, tag::nchw);
  dnnl::memory::desc wany({64, 64, 3, 3}, f32, tag::any);
  dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::convolution_direct, src, wany, dst, {1, 1},
                                      {1, 1}, {1, 1}),
      engine());
  std::vector<float> x(64 * 56 * 56, 1.0f), w(64 * 64 * 9, 0.01f), y(64 * 56 * 56);
  dnnl::memory mx(src, engine(), x.data()), mw(pd.weights_desc(), engine()),
      my(dst, engine(), y.data());
  dnnl::memory wu(wts, engine(), w.data());
  dnnl::stream s(engine());
  dnnl::reorder(wu, mw).execute(s, wu, mw);  // weights pre-packed: the best case for oneDNN
  dnnl::convolution_forward prim(pd);
  return time_per_call(
      [&] {
        prim.execute(s, {{DNNL_ARG_SRC, mx}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, my}});
        s.wait();
      },
      50);
}

void BM_Conv2D(benchmark::State &state) {
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({1, 64, 56, 56}), e.desc({64, 64, 3, 3})};
  aclDataBuffer *in[] = {e.buffer(64 * 56 * 56 * 4, 1.0f), e.buffer(64 * 64 * 9 * 4, 0.01f)};
  aclTensorDesc *od[] = {e.desc({1, 64, 56, 56})};
  aclDataBuffer *out[] = {e.buffer(64 * 56 * 56 * 4, 0.0f)};
  aclopAttr *attr = aclopCreateAttr();
  const int64_t strides[] = {1, 1, 1, 1}, pads[] = {1, 1, 1, 1};
  aclopSetAttrListInt(attr, "strides", 4, strides);
  aclopSetAttrListInt(attr, "pads", 4, pads);
  const double t0 = now_s();
  for (auto _ : state) {
    check(aclopExecuteV2("Conv2D", 2, d, in, 1, od, out, attr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  }
  const double ours = (now_s() - t0) / static_cast<double>(state.iterations());
  state.counters["onednn_direct_ns"] = onednn_conv_s() * 1e9;
  // ONNX Runtime through its Node binding (bench/ops/ort_conv.sh), same thread count.
  const std::string cmd = std::string(OPENACL_SOURCE_DIR "/bench/ops/ort_conv.sh ") +
                          std::to_string(omp_get_max_threads());
  if (FILE *f = popen(cmd.c_str(), "r")) {
    double ns = 0;
    if (std::fscanf(f, "%lf", &ns) == 1 && ns > 0) {
      state.counters["baseline_ns"] = ns;
      state.counters["ratio"] = ours * 1e9 / ns;
    }
    pclose(f);
  }
  state.SetLabel("goal: ratio<=1.0 (time vs ONNX Runtime; onednn_direct_ns for reference)");
}

// ---- 1-element Add launch overhead ----

void BM_AddLaunch(benchmark::State &state) {
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({1}), e.desc({1})};
  aclDataBuffer *in[] = {e.buffer(4, 1.0f), e.buffer(4, 2.0f)};
  aclTensorDesc *od[] = {e.desc({1})};
  aclDataBuffer *out[] = {e.buffer(4, 0.0f)};
  for (auto _ : state) {
    check(aclopExecuteV2("Add", 2, d, in, 1, od, out, nullptr, e.stream), "aclopExecuteV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  }
  // Baseline: the same add done inline on the host.
  float a = 1, b = 2, c = 0;
  state.counters["baseline_ns"] =
      time_per_call([&] { benchmark::DoNotOptimize(c = a + b); }, 100000) * 1e9;
  state.SetLabel("goal: time<=2us (aclopExecuteV2 + aclrtSynchronizeStream)");
}

// The caller's side alone: validation + enqueue, the stream drained once per 256 calls.
void BM_AddEnqueue(benchmark::State &state) {
  auto &e = env();
  aclTensorDesc *d[] = {e.desc({1}), e.desc({1})};
  aclDataBuffer *in[] = {e.buffer(4, 1.0f), e.buffer(4, 2.0f)};
  aclTensorDesc *od[] = {e.desc({1})};
  aclDataBuffer *out[] = {e.buffer(4, 0.0f)};
  int64_t n = 0;
  for (auto _ : state) {
    check(aclopExecuteV2("Add", 2, d, in, 1, od, out, nullptr, e.stream), "aclopExecuteV2");
    if (++n % 256 == 0) check(aclrtSynchronizeStream(e.stream), "sync");
  }
  check(aclrtSynchronizeStream(e.stream), "sync");
  state.SetLabel("info: per-call cost of aclopExecuteV2 without waiting");
}

}  // namespace

BENCHMARK(BM_AddEnqueue)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_MatMul)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Add16M)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Conv2D)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_Softmax)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(0.5);
BENCHMARK(BM_AddLaunch)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK_MAIN();
