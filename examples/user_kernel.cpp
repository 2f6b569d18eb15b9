// Scenario: launch a user kernel. The kernel library (kernels/vector_add.c, built as a shared
// library) is loaded with aclrtBinaryLoadFromFile, the kernel found by name and launched on a
// stream with 8 blocks; its arguments are copied at launch.
//   usage: user_kernel [path/to/libexample_vector_add.so]
#include <vector>

#include "common.h"

struct VectorAddArgs {
  const float *x;
  const float *y;
  float *z;
  uint64_t n;
};

int main(int argc, char **argv) {
  const char *lib = argc > 1 ? argv[1] : OPENACL_EXAMPLE_KERNELS;
  std::printf("user kernel launch (%s)\n", lib);
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));

  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle vector_add = nullptr;
  CHECK_ACL(aclrtBinaryLoadFromFile(lib, nullptr, &bin));
  CHECK_ACL(aclrtBinaryGetFunction(bin, "vector_add", &vector_add));

  constexpr uint64_t n = 1 << 20;
  constexpr size_t bytes = n * sizeof(float);
  std::vector<float> x(n), y(n), z(n, 0.0f);
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = 0.25f * static_cast<float>(i % 97);
  }
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  CHECK_ACL(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  VectorAddArgs args{static_cast<float *>(dx), static_cast<float *>(dy), static_cast<float *>(dz),
                     n};
  CHECK_ACL(aclrtLaunchKernel(vector_add, 8, &args, sizeof(args), s));
  CHECK_ACL(aclrtSynchronizeStream(s));
  CHECK_ACL(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i)
    if (z[i] != x[i] + y[i]) ++wrong;
  std::printf("       %llu of %llu sums wrong\n", static_cast<unsigned long long>(wrong),
              static_cast<unsigned long long>(n));
  EXPECT_TRUE(wrong == 0, "vector_add over 8 blocks computed z = x + y");

  CHECK_ACL(aclrtBinaryUnLoad(bin));
  CHECK_ACL(aclrtFree(dx));
  CHECK_ACL(aclrtFree(dy));
  CHECK_ACL(aclrtFree(dz));
  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS user_kernel\n");
  return 0;
}
