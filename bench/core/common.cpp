#include "common.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

void check(aclError ret, const char *what) {
  if (ret == ACL_SUCCESS) return;
  std::fprintf(stderr, "%s failed with %d: %s\n", what, ret, aclGetRecentErrMsg());
  std::exit(1);
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  auto mid = samples.begin() + samples.size() / 2;
  std::nth_element(samples.begin(), mid, samples.end());
  return *mid;
}

size_t rss_bytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  int got = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

size_t heap_bytes() {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

void trim_heap() { malloc_trim(0); }

Stream::Stream() { check(aclrtCreateStream(&h), "aclrtCreateStream"); }
Stream::~Stream() { check(aclrtDestroyStream(h), "aclrtDestroyStream"); }

Event::Event() { check(aclrtCreateEvent(&h), "aclrtCreateEvent"); }
Event::~Event() { check(aclrtDestroyEvent(h), "aclrtDestroyEvent"); }

Buffer::Buffer(Memory k, size_t bytes) : kind(k), n(bytes) {
  switch (kind) {
    case Memory::device:
      check(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
      break;
    case Memory::pinned:
      check(aclrtMallocHost(&p, n), "aclrtMallocHost");
      break;
    case Memory::pageable:
      p = std::aligned_alloc(64, (n + 63) / 64 * 64);
      if (p == nullptr) check(ACL_ERROR_BAD_ALLOC, "aligned_alloc");
      break;
  }
  std::memset(p, 1, n);
}

Buffer::~Buffer() {
  switch (kind) {
    case Memory::device:
      check(aclrtFree(p), "aclrtFree");
      break;
    case Memory::pinned:
      check(aclrtFreeHost(p), "aclrtFreeHost");
      break;
    case Memory::pageable:
      std::free(p);
      break;
  }
}

namespace {
aclrtBinHandle binary = nullptr;
Kernels loaded;
}  // namespace

const Kernels &kernels() {
  if (binary == nullptr) {
    check(aclrtBinaryLoadFromFile(OPENACL_BENCH_KERNELS, nullptr, &binary),
          "aclrtBinaryLoadFromFile(" OPENACL_BENCH_KERNELS ")");
    check(aclrtBinaryGetFunction(binary, "bench_noop", &loaded.noop), "aclrtBinaryGetFunction");
    check(aclrtBinaryGetFunction(binary, "bench_gate", &loaded.gate), "aclrtBinaryGetFunction");
  }
  return loaded;
}

void unload_kernels() {
  if (binary == nullptr) return;
  check(aclrtBinaryUnLoad(binary), "aclrtBinaryUnLoad");
  binary = nullptr;
}

Gate::Gate(aclrtStream stream) : stream_(stream) {
  std::atomic<int> *flag = &flag_;
  check(aclrtLaunchKernel(kernels().gate, 1, &flag, sizeof(flag), stream),
        "aclrtLaunchKernel(gate)");
}

Gate::~Gate() {
  open();
  check(aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream");
}

void Gate::open() { flag_.store(1, std::memory_order_release); }

}  // namespace bench
