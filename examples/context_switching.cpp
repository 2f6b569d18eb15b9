// Scenario: the context switching walk-through. One thread creates a context on each
// device, creates a stream in each, and switches between them with aclrtSetCurrentContext;
// work goes to the stream of the current context.
#include "common.h"

int main() {
  std::printf("context switching\n");
  CHECK_ACL(aclInit(nullptr));
  uint32_t count = 0;
  CHECK_ACL(aclrtGetDeviceCount(&count));
  int32_t dev1 = count > 1 ? 1 : 0;

  aclrtContext ctx0 = nullptr, ctx1 = nullptr;
  aclrtStream s0 = nullptr, s1 = nullptr;
  CHECK_ACL(aclrtCreateContext(&ctx0, 0));  // ctx0 is now current
  CHECK_ACL(aclrtCreateStream(&s0));
  CHECK_ACL(aclrtCreateContext(&ctx1, dev1));  // ctx1 is now current
  CHECK_ACL(aclrtCreateStream(&s1));

  aclrtContext cur = nullptr;
  CHECK_ACL(aclrtGetCurrentContext(&cur));
  EXPECT_TRUE(cur == ctx1, "the last created context is current");

  constexpr size_t n = 4096;
  void *buf0 = nullptr, *buf1 = nullptr;
  unsigned char out[n];

  // Work in ctx1 (device dev1).
  CHECK_ACL(aclrtMalloc(&buf1, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemsetAsync(buf1, n, 0x11, n, s1));

  // Switch to ctx0 (device 0): its stream is usable, the other context's is not.
  CHECK_ACL(aclrtSetCurrentContext(ctx0));
  int32_t dev = -1;
  CHECK_ACL(aclrtGetDevice(&dev));
  EXPECT_TRUE(dev == 0, "switching the context switched the device");
  CHECK_ACL(aclrtMalloc(&buf0, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemsetAsync(buf0, n, 0x22, n, s0));
  aclError wrong = aclrtMemsetAsync(buf0, n, 0x33, n, s1);
  EXPECT_TRUE(wrong == ACL_ERROR_RT_STREAM_CONTEXT,
              "a stream of another context is refused (107003)");
  CHECK_ACL(aclrtSynchronizeStream(s0));
  CHECK_ACL(aclrtMemcpy(out, n, buf0, n, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(all_bytes(out, n, 0x22), "work in ctx0 landed");

  // Back to ctx1.
  CHECK_ACL(aclrtSetCurrentContext(ctx1));
  CHECK_ACL(aclrtSynchronizeStream(s1));
  CHECK_ACL(aclrtMemcpy(out, n, buf1, n, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(all_bytes(out, n, 0x11), "work in ctx1 landed");

  // Tear down in the documented order: streams, memory, contexts.
  CHECK_ACL(aclrtDestroyStream(s1));
  CHECK_ACL(aclrtFree(buf1));
  CHECK_ACL(aclrtDestroyContext(ctx1));
  CHECK_ACL(aclrtSetCurrentContext(ctx0));
  CHECK_ACL(aclrtDestroyStream(s0));
  CHECK_ACL(aclrtFree(buf0));
  CHECK_ACL(aclrtDestroyContext(ctx0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS context_switching\n");
  return 0;
}
