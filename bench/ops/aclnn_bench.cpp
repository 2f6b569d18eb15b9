// The host cost of one aclnn operator call, as ggml makes a hundred of them per generated token:
// both phases of a tiny aclnnAdd, enqueue only, the stream drained every 256 calls; with the
// tensors made once (BM_AclnnAddEnqueue), and made and destroyed around each call as ggml's
// CANN backend does (BM_AclnnAddWithTensors: three tensors and the alpha scalar). Baseline: the
// same Add through aclopExecuteV2 on the same stream, measured in the same run. And ggml's
// `test-backend-ops perf` case ADD [4096] as its CANN backend runs it (BM_AclnnAdd4096), against
// the loop ggml's CPU backend runs for that node. And the attention of a prompt as ggml's CANN
// backend calls it (BM_AclnnAttention), to compare with another build (compare.py --against).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"

namespace {

void check(int ret, const char *what) {
  if (ret != 0) {
    std::fprintf(stderr, "%s failed: %d %s\n", what, ret, aclGetRecentErrMsg());
    std::exit(1);
  }
}

struct Env {
  aclrtStream stream = nullptr;
  void *x = nullptr, *y = nullptr, *work = nullptr;
  Env() {
    check(aclInit(nullptr), "aclInit");
    check(aclrtSetDevice(0), "aclrtSetDevice");
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    check(aclrtMalloc(&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMalloc(&y, 1024, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMalloc(&work, 1024, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  }
};

Env &env() {
  static Env e;
  return e;
}

// aclopExecuteV2 Add on the same stream: ns a call, the best of 5 rounds.
double aclop_add_ns(Env &e, const int64_t *dims) {
  aclTensorDesc *d[] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND),
                        aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
  aclTensorDesc *od[] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
  aclDataBuffer *in[] = {aclCreateDataBuffer(e.x, 256), aclCreateDataBuffer(e.x, 256)};
  aclDataBuffer *o[] = {aclCreateDataBuffer(e.y, 256)};
  constexpr int kCalls = 20000;
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i) {
      check(aclopExecuteV2("Add", 2, d, in, 1, od, o, nullptr, e.stream), "aclopExecuteV2");
      if ((i + 1) % 256 == 0) check(aclrtSynchronizeStream(e.stream), "sync");
    }
    check(aclrtSynchronizeStream(e.stream), "sync");
    best = std::min(
        best,
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
            kCalls);
  }
  for (auto *t : d) aclDestroyTensorDesc(t);
  aclDestroyTensorDesc(od[0]);
  for (auto *b : in) aclDestroyDataBuffer(b);
  aclDestroyDataBuffer(o[0]);
  return best;
}

void BM_AclnnAddEnqueue(benchmark::State &state) {
  auto &e = env();
  const int64_t dims[] = {1, 64};
  aclTensor *x = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, e.x);
  aclTensor *out = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, e.y);
  float one = 1;
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  int64_t n = 0;
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    check(aclnnAddGetWorkspaceSize(x, x, alpha, out, &ws, &ex), "aclnnAddGetWorkspaceSize");
    check(aclnnAdd(e.work, ws, ex, e.stream), "aclnnAdd");
    if (++n % 256 == 0) check(aclrtSynchronizeStream(e.stream), "sync");
  }
  check(aclrtSynchronizeStream(e.stream), "sync");
  state.counters["baseline_ns"] = aclop_add_ns(e, dims);
  state.SetLabel(
      "goal: time<=2us (both phases of aclnnAdd, enqueue only; baseline: aclopExecuteV2 Add)");
  aclDestroyScalar(alpha);
  aclDestroyTensor(x);
  aclDestroyTensor(out);
}

// One call as ggml's CANN backend makes it (out of line, for a profiler to single out).
[[gnu::noinline]] void add_with_tensors(Env &e, const int64_t *dims, void *x, void *y) {
  float one = 1;
  aclTensor *a = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, x);
  aclTensor *b = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, x);
  aclTensor *out = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, y);
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor *ex = nullptr;
  check(aclnnAddGetWorkspaceSize(a, b, alpha, out, &ws, &ex), "aclnnAddGetWorkspaceSize");
  check(aclnnAdd(e.work, ws, ex, e.stream), "aclnnAdd");
  aclDestroyScalar(alpha);
  aclDestroyTensor(a);
  aclDestroyTensor(b);
  aclDestroyTensor(out);
}

void BM_AclnnAddWithTensors(benchmark::State &state) {
  auto &e = env();
  const int64_t dims[] = {1, 64};
  int64_t n = 0;
  for (auto _ : state) {
    add_with_tensors(e, dims, e.x, e.y);
    if (++n % 256 == 0) check(aclrtSynchronizeStream(e.stream), "sync");
  }
  check(aclrtSynchronizeStream(e.stream), "sync");
  state.counters["baseline_ns"] = aclop_add_ns(e, dims);
  state.SetLabel(
      "(aclnnAdd as ggml calls it: tensors and scalar made per call; baseline: "
      "aclopExecuteV2 Add)");
}

// y = a + b over n floats (a multiple of 8) in AVX2 registers, as ggml's CPU backend's vector
// loop runs (every machine of docs/PERFORMANCE.md has AVX2; GCC's -O2 would leave a plain loop
// scalar for the aliasing check it does not add).
using f32x8 = float __attribute__((vector_size(32)));
[[gnu::noinline, gnu::target("avx2,fma")]] void add_loop(const float *a, const float *b, float *y,
                                                         int64_t n) {
  for (int64_t i = 0; i < n; i += 8) {
    f32x8 va, vb;
    std::memcpy(&va, a + i, sizeof va);
    std::memcpy(&vb, b + i, sizeof vb);
    const f32x8 vy = va + vb;
    std::memcpy(y + i, &vy, sizeof vy);
  }
}

void BM_AclnnAdd4096(benchmark::State &state) {
  auto &e = env();
  constexpr int64_t kN = 4096;
  const int64_t dims[] = {1, kN};
  void *x = nullptr, *y = nullptr;
  check(aclrtMalloc(&x, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  check(aclrtMalloc(&y, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  check(aclrtMemset(x, kN * 4, 0, kN * 4), "aclrtMemset");
  int64_t n = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    add_with_tensors(e, dims, x, y);
    if (++n % 256 == 0) check(aclrtSynchronizeStream(e.stream), "sync");
  }
  check(aclrtSynchronizeStream(e.stream), "sync");
  const double call_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(std::max<int64_t>(n, 1));
  // The baseline: the loop alone, best of 5 rounds, on host buffers of the same size.
  std::vector<float> a(kN, 1.0f), out(kN);
  constexpr int kCalls = 20000;
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i) {
      add_loop(a.data(), a.data(), out.data(), kN);
      benchmark::DoNotOptimize(out.data());
    }
    best = std::min(
        best,
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
            kCalls);
  }
  state.counters["openacl_ns"] = call_ns;
  state.counters["baseline_ns"] = best;
  state.counters["ratio"] = call_ns / best;
  state.SetLabel(
      "goal: ratio<=1.25 (at least 0.8x ggml's CPU backend: ggml's ADD [4096] as its CANN "
      "backend calls aclnnAdd; baseline: the add as a loop on the calling thread)");
  check(aclrtFree(x), "aclrtFree");
  check(aclrtFree(y), "aclrtFree");
}

// FusedInferAttentionScoreV2 of one layer of the 134 M llama (docs/ggml.md) over a 128-token
// prompt, as ggml calls it: BSND, 12 heads of 64, float16 query, key/value cache of 256
// positions and a causal float16 pseShift (-inf past each row's position) shared by the heads.
// Call and synchronize; no baseline in the process.
void BM_AclnnAttention(benchmark::State &state) {
  auto &e = env();
  constexpr int64_t kS = 128, kKv = 256, kHeads = 12, kD = 64;
  const int64_t qd[] = {1, kS, kHeads, kD}, kvd[] = {1, kKv, kHeads, kD},
                pd[] = {1, kHeads, kS, kKv};
  const int64_t ps[] = {kS * kKv, 0, kKv, 1};
  void *q = nullptr, *k = nullptr, *v = nullptr, *pse = nullptr, *o = nullptr;
  for (auto [p, n] : {std::pair{&q, kS}, {&k, kKv}, {&v, kKv}, {&o, kS}}) {
    check(aclrtMalloc(p, n * kHeads * kD * 2, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMemset(*p, n * kHeads * kD * 2, 0, n * kHeads * kD * 2), "aclrtMemset");
  }
  std::vector<uint16_t> causal(kS * kKv);
  for (int64_t i = 0; i < kS; ++i)
    for (int64_t j = 0; j < kKv; ++j) causal[i * kKv + j] = j > i ? 0xfc00 : 0;  // -inf : 0
  check(aclrtMalloc(&pse, causal.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  check(aclrtMemcpy(pse, causal.size() * 2, causal.data(), causal.size() * 2,
                    ACL_MEMCPY_HOST_TO_DEVICE),
        "aclrtMemcpy");
  auto tensor = [](const int64_t *dims, void *data, const int64_t *strides = nullptr) {
    int64_t st[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
    return aclCreateTensor(dims, 4, ACL_FLOAT16, strides ? strides : st, 0, ACL_FORMAT_ND, dims, 4,
                           data);
  };
  aclTensor *qt = tensor(qd, q), *kt = tensor(kvd, k), *vt = tensor(kvd, v), *ot = tensor(qd, o);
  aclTensor *pt = tensor(pd, pse, ps);
  aclTensorList *kl = aclCreateTensorList(&kt, 1), *vl = aclCreateTensorList(&vt, 1);
  char layout[] = "BSND";
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    check(aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
              qt, kl, vl, pt, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, nullptr, kHeads, 0.125, 65535, 65535, layout, kHeads, 0, 0,
              0, 0, false, 0, 0, ot, nullptr, &ws, &ex),
          "aclnnFusedInferAttentionScoreV2GetWorkspaceSize");
    check(aclnnFusedInferAttentionScoreV2(e.work, ws, ex, e.stream),
          "aclnnFusedInferAttentionScoreV2");
    check(aclrtSynchronizeStream(e.stream), "sync");
  }
  state.SetLabel("(ggml's attention of a 128-token prompt, one layer of the 134 M llama)");
  aclDestroyTensorList(kl);
  aclDestroyTensorList(vl);
  for (aclTensor *t : {qt, ot, pt}) aclDestroyTensor(t);
  for (void *p : {q, k, v, pse, o}) check(aclrtFree(p), "aclrtFree");
}
}  // namespace

BENCHMARK(BM_AclnnAddEnqueue)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_AclnnAddWithTensors)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_AclnnAdd4096)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_AclnnAttention)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK_MAIN();
