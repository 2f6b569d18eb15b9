// C++ baselines for bench_binding.py: the exact calls the Python loop makes, timed the same
// way (steady_clock around the whole loop), returning nanoseconds per iteration.
#include <acl/acl.h>

#include <chrono>
#include <cstdint>

namespace {

template <class F>
double ns_per_iteration(int64_t iterations, F &&body) {
  auto t0 = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations; ++i)
    if (body() != ACL_SUCCESS) return -1.0;
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() /
         static_cast<double>(iterations);
}

}  // namespace

extern "C" {

// One memcpy_async followed by one synchronize_stream per iteration; -1 on any error.
double loop_memcpy_async_sync(void *dst, size_t dst_max, void *src, size_t bytes, int kind,
                              void *stream, int64_t iterations) {
  return ns_per_iteration(iterations, [&] {
    aclError ret =
        aclrtMemcpyAsync(dst, dst_max, src, bytes, static_cast<aclrtMemcpyKind>(kind), stream);
    return ret != ACL_SUCCESS ? ret : aclrtSynchronizeStream(stream);
  });
}

// A call that does almost nothing, to show the fixed cost of crossing into the binding.
double loop_get_device(int64_t iterations) {
  return ns_per_iteration(iterations, [] {
    int32_t id = 0;
    return aclrtGetDevice(&id);
  });
}

}  // extern "C"
