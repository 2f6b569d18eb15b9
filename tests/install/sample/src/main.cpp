// A program in the style of the official AscendCL samples: run mode before aclInit, a device,
// a context and a stream, host <-> device copies, one operator through acl_op_compiler.h, the
// compile options, a matrix product through acl_cblas.h, a product through aclnn, the SoC name.
// Prints "run success" and exits 0 when every result is right.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
#include "aclnnop/aclnn_mul.h"

#define CHECK(call)                                                                           \
  do {                                                                                        \
    aclError ret_ = (call);                                                                   \
    if (ret_ != ACL_SUCCESS) {                                                                \
      std::printf("%s failed: %d %s\n", #call, static_cast<int>(ret_), aclGetRecentErrMsg()); \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

int main() {
  aclrtRunMode mode;
  CHECK(aclrtGetRunMode(&mode));
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtContext context;
  CHECK(aclrtCreateContext(&context, 0));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));
  std::printf("run mode %s, soc %s\n", mode == ACL_HOST ? "host" : "device", aclrtGetSocName());

  const int64_t dims[] = {2, 3};
  const size_t bytes = 6 * sizeof(float);
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {10, 20, 30, 40, 50, 60}, z(6);
  void *dx, *dy, *dz;
  CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclTensorDesc *in_desc[2], *out_desc[1];
  for (auto &d : in_desc) d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  out_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  aclDataBuffer *in_buf[2] = {aclCreateDataBuffer(dx, bytes), aclCreateDataBuffer(dy, bytes)};
  aclDataBuffer *out_buf[1] = {aclCreateDataBuffer(dz, bytes)};
  aclopAttr *attr = aclopCreateAttr();
  CHECK(aclSetCompileopt(ACL_PRECISION_MODE, "force_fp32"));
  CHECK(aclopCompileAndExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, attr,
                                 ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  // x [2,3] times y seen as [3,2], into w [2,2]; alpha and beta live on the device.
  const float scalars[2] = {1.0f, 0.0f};
  void *dscalars, *dw;
  std::vector<float> w(4);
  CHECK(aclrtMalloc(&dscalars, sizeof scalars, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dw, 4 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dscalars, sizeof scalars, scalars, sizeof scalars, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 3, dscalars, dx, -1, ACL_FLOAT,
                      dy, -1, ACL_FLOAT, static_cast<char *>(dscalars) + sizeof(float), dw, -1,
                      ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(w.data(), 4 * sizeof(float), dw, 4 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));

  // v = x * y elementwise through aclnn (libopapi, libnnopbase)
  void *dv = nullptr;
  std::vector<float> v(6);
  CHECK(aclrtMalloc(&dv, 6 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  const int64_t six[] = {6};
  aclTensor *tx = aclCreateTensor(six, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, six, 1, dx);
  aclTensor *ty = aclCreateTensor(six, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, six, 1, dy);
  aclTensor *tv = aclCreateTensor(six, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, six, 1, dv);
  uint64_t ws = 0;
  aclOpExecutor *executor = nullptr;
  CHECK(aclnnMulGetWorkspaceSize(tx, ty, tv, &ws, &executor));
  CHECK(aclnnMul(nullptr, ws, executor, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(v.data(), 6 * sizeof(float), dv, 6 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tv);
  CHECK(aclrtFree(dv));

  char precision[32] = {};
  CHECK(aclGetCompileopt(ACL_PRECISION_MODE, precision, sizeof precision));
  bool ok = mode == ACL_HOST && std::string(aclrtGetSocName()) == "Ascend910B3" &&
            std::strcmp(precision, "force_fp32") == 0;
  for (int i = 0; i < 6; ++i) ok = ok && z[i] == x[i] + y[i] && v[i] == x[i] * y[i];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      ok =
          ok && w[i * 2 + j] == x[i * 3] * y[j] + x[i * 3 + 1] * y[2 + j] + x[i * 3 + 2] * y[4 + j];

  aclopDestroyAttr(attr);
  for (auto *b : in_buf) aclDestroyDataBuffer(b);
  aclDestroyDataBuffer(out_buf[0]);
  for (auto *d : in_desc) aclDestroyTensorDesc(d);
  aclDestroyTensorDesc(out_desc[0]);
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtFree(dw));
  CHECK(aclrtFree(dscalars));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf(ok ? "run success\n" : "wrong results\n");
  return ok ? 0 : 1;
}
