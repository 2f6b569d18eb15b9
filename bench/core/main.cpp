// The core benchmarks' main: one runtime session (aclInit, device 0) around Google Benchmark.
#include <benchmark/benchmark.h>

#include "common.h"

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::check(aclInit(nullptr), "aclInit");
  bench::check(aclrtSetDevice(0), "aclrtSetDevice");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  bench::unload_kernels();
  bench::check(aclrtResetDevice(0), "aclrtResetDevice");
  bench::check(aclFinalize(), "aclFinalize");
  return 0;
}
