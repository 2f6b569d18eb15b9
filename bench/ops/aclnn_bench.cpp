// The host cost of one aclnn operator call, as ggml makes a hundred of them per generated token:
// both phases of a tiny aclnnAdd, enqueue only, the stream drained every 256 calls; with the
// tensors made once (BM_AclnnAddEnqueue), and made and destroyed around each call as ggml's
// CANN backend does (BM_AclnnAddWithTensors: three tensors and the alpha scalar). Baseline: the
// same Add through aclopExecuteV2 on the same stream, measured in the same run. And ggml's
// `test-backend-ops perf` case ADD [4096] as its CANN backend runs it (BM_AclnnAdd4096), against
// the loop ggml's CPU backend runs for that node.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

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

}  // namespace

BENCHMARK(BM_AclnnAddEnqueue)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_AclnnAddWithTensors)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_AclnnAdd4096)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(1.0);
BENCHMARK_MAIN();
