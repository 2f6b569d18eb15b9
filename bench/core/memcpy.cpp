// Copies: aclrtMemcpy (H2D from pageable memory, D2H to pageable memory, D2D) and
// aclrtMemcpyAsync with page-locked host memory (enqueue + synchronize), next to std::memcpy of
// the same bytes between the same buffers, timed alternately in the same iterations.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common.h"

namespace {

using bench::check;
using bench::Memory;

enum class Mode { h2d, d2h, d2d, h2d_async, d2h_async };

struct Plan {
  Memory dst, src;
  aclrtMemcpyKind kind;
  bool async;
};

Plan plan_of(Mode mode) {
  switch (mode) {
    case Mode::h2d:
      return {Memory::device, Memory::pageable, ACL_MEMCPY_HOST_TO_DEVICE, false};
    case Mode::d2h:
      return {Memory::pageable, Memory::device, ACL_MEMCPY_DEVICE_TO_HOST, false};
    case Mode::d2d:
      return {Memory::device, Memory::device, ACL_MEMCPY_DEVICE_TO_DEVICE, false};
    case Mode::h2d_async:
      return {Memory::device, Memory::pinned, ACL_MEMCPY_HOST_TO_DEVICE, true};
    case Mode::d2h_async:
      return {Memory::pinned, Memory::device, ACL_MEMCPY_DEVICE_TO_HOST, true};
  }
  return {};
}

// Copies per timed sample. Sync copies: batches of about 1 MiB, so that reading the clock does
// not weigh on small ones. Async copies: about 16 MiB queued back to back before one sync, the
// stream's copy throughput (a lone async copy + sync is a round trip; see BM_RoundTrip).
size_t batch_of(size_t bytes, bool async) {
  size_t target = async ? (16u << 20) : (1u << 20);
  return bytes >= target ? 1 : target / bytes;
}

void BM_Memcpy(benchmark::State &state, Mode mode) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  const Plan plan = plan_of(mode);
  const size_t batch = batch_of(bytes, plan.async);
  bench::Buffer dst(plan.dst, bytes), src(plan.src, bytes);
  bench::Stream s;

  auto openacl_copy = [&] {
    int64_t t0 = bench::now_ns();
    for (size_t i = 0; i < batch; ++i) {
      if (plan.async) {
        check(aclrtMemcpyAsync(dst.p, bytes, src.p, bytes, plan.kind, s.h), "aclrtMemcpyAsync");
      } else {
        check(aclrtMemcpy(dst.p, bytes, src.p, bytes, plan.kind), "aclrtMemcpy");
      }
    }
    if (plan.async) check(aclrtSynchronizeStream(s.h), "aclrtSynchronizeStream");
    return bench::now_ns() - t0;
  };
  auto std_copy = [&] {
    int64_t t0 = bench::now_ns();
    for (size_t i = 0; i < batch; ++i) {
      std::memcpy(dst.p, src.p, bytes);
      benchmark::ClobberMemory();
    }
    return bench::now_ns() - t0;
  };

  openacl_copy();  // warm: caches, the stream's worker
  std_copy();
  std::vector<double> openacl_ns, std_ns;
  for (auto _ : state) {
    int64_t t, b;
    if (openacl_ns.size() % 2 == 0) {
      t = openacl_copy();
      b = std_copy();
    } else {
      b = std_copy();
      t = openacl_copy();
    }
    openacl_ns.push_back(static_cast<double>(t) / batch);
    std_ns.push_back(static_cast<double>(b) / batch);
    state.SetIterationTime(static_cast<double>(t) / batch * 1e-9);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  double acl = bench::median(std::move(openacl_ns)), base = bench::median(std::move(std_ns));
  state.counters["openacl_ns"] = acl;
  state.counters["baseline_ns"] = base;
  state.counters["ratio"] = base / acl;
  state.SetLabel(
      "goal: ratio>=0.95; baseline: std::memcpy of the same bytes; ratio: speed / std::memcpy "
      "speed");
}

// Registered by hand: the iteration count depends on the size.
int register_all() {
  struct Named {
    const char *name;
    Mode mode;
  };
  const Named modes[] = {{"H2D", Mode::h2d},
                         {"D2H", Mode::d2h},
                         {"D2D", Mode::d2d},
                         {"H2D_async_pinned", Mode::h2d_async},
                         {"D2H_async_pinned", Mode::d2h_async}};
  const std::pair<int64_t, int64_t> sizes[] = {{4 << 10, 100}, {1 << 20, 50}, {64 << 20, 10}};
  for (const Named &m : modes) {
    for (auto [bytes, iterations] : sizes) {
      benchmark::RegisterBenchmark((std::string("BM_Memcpy/") + m.name).c_str(), BM_Memcpy, m.mode)
          ->Arg(bytes)
          ->Iterations(iterations)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return 0;
}
const int registered = register_all();

}  // namespace
