// R16: user CPU kernels loaded through aclrtBinaryLoadFromFile / aclrtBinaryGetFunction and
// run by aclrtLaunchKernel as blockDim blocks over the device's AI cores, in stream order.
#include <fstream>
#include <iterator>
#include <thread>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

using R16_Kernel = RuntimeTest;

TEST_F(R16_Kernel, EveryBlockRunsOnceWithItsIndexAndTheBlockCount) {
  for (uint32_t blocks : {1u, 2u, 7u, 64u, 1000u}) {
    std::vector<uint32_t> out(2 * blocks, UINT32_MAX);
    OatBlockIds a{out.data(), blocks};
    ASSERT_ACL_OK(kernels_.launch("oat_block_ids", a, nullptr, blocks));
    ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
    for (uint32_t b = 0; b < blocks; ++b) {
      ASSERT_EQ(out[2 * b], b) << "blocks " << blocks;
      ASSERT_EQ(out[2 * b + 1], blocks);
    }
  }
}

TEST_F(R16_Kernel, BlocksRunInParallelOnTheAiCores) {
  int64_t cores = oat::ai_cores(0);
  if (cores < 2) GTEST_SKIP() << "device 0 has one AI core";
  // Every block waits (bounded) until all blocks arrived: only parallel blocks finish.
  uint32_t blocks = static_cast<uint32_t>(std::min<int64_t>(cores, 4));
  int32_t arrived = 0;
  OatBarrier a{&arrived, 5000};
  ASSERT_ACL_OK(kernels_.launch("oat_barrier", a, nullptr, blocks));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(oat::load(arrived), static_cast<int32_t>(blocks));
}

TEST_F(R16_Kernel, DereferencesDevicePointers) {
  constexpr size_t n = 10000;
  std::vector<float> a(n), b(n), c(n, 0);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&da, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&db, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&dc, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *ha = nullptr, *hc = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&ha, n * sizeof(float)));
  ASSERT_ACL_OK(aclrtMallocHost(&hc, n * sizeof(float)));
  std::memcpy(ha, a.data(), n * sizeof(float));
  // In stream order: copy in, add, copy out.
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(da, n * sizeof(float), ha, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(
      aclrtMemcpy(db, n * sizeof(float), b.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  OatVadd args{static_cast<float *>(da), static_cast<float *>(db), static_cast<float *>(dc), n};
  ASSERT_ACL_OK(kernels_.launch("oat_vadd", args, s, 8));
  ASSERT_ACL_OK(
      aclrtMemcpyAsync(hc, n * sizeof(float), dc, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  auto *out = static_cast<float *>(hc);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] + b[i]) << i;
}

TEST_F(R16_Kernel, ArgsAreCopiedAtLaunch) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  Gate &g = block(s);
  int32_t out[OAT_ECHO_WORDS] = {};
  auto args = std::make_unique<OatEcho>();
  args->out = out;
  for (int i = 0; i < OAT_ECHO_WORDS; ++i) args->words[i] = 100 + i;
  ASSERT_ACL_OK(aclrtLaunchKernel(kernels_["oat_echo"], 1, args.get(), sizeof(OatEcho), s));
  // The caller reuses and frees its argument block before the kernel runs.
  for (int i = 0; i < OAT_ECHO_WORDS; ++i) args->words[i] = -1;
  args.reset();
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  for (int i = 0; i < OAT_ECHO_WORDS; ++i) EXPECT_EQ(out[i], 100 + i);
}

TEST_F(R16_Kernel, LaunchesRunInStreamOrder) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  constexpr int n = 500;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0;
  for (int i = 0; i < n; ++i) ASSERT_ACL_OK(append(log.data(), &count, n, i, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  for (int i = 0; i < n; ++i) ASSERT_EQ(log[i], i);
}

TEST_F(R16_Kernel, MultiBlockLaunchCompletesBeforeTheNextTask) {
  // Every block of launch i appends i: stream order across multi-block launches means the
  // log is 16 x 0, then 16 x 1, ...
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  constexpr uint32_t blocks = 16;
  constexpr int launches = 40, n = blocks * launches;
  std::vector<int32_t> log(n, -1);
  int32_t count = 0;
  for (int i = 0; i < launches; ++i) {
    OatAppend a{log.data(), &count, n, i};
    ASSERT_ACL_OK(kernels_.launch("oat_append", a, s, blocks));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(oat::load(count), n);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(log[i], i / static_cast<int>(blocks)) << "at position " << i;
}

TEST_F(R16_Kernel, LoadedOncePerDeviceWorksOnEach) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  oat::Kernels k1;
  ASSERT_ACL_OK(k1.load());
  int32_t m = 0;
  OatStore a{&m, 11};
  ASSERT_ACL_OK(k1.launch("oat_store", a, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(oat::load(m), 11);
  ASSERT_ACL_OK(aclrtBinaryUnLoad(k1.binary()));
}

TEST_F(R16_Kernel, LoadRejectsBadArguments) {
  aclrtBinHandle h = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromFile(nullptr, nullptr, &h));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, nullptr));
  EXPECT_ACL_FAILS(aclrtBinaryLoadFromFile("/nonexistent/libkernels.so", nullptr, &h));
  // A file that is not a shared library.
  std::string path =
      ::testing::TempDir() + "oat_not_a_library_" + std::to_string(::getpid()) + ".so";
  {
    FILE *f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("not an ELF file", f);
    std::fclose(f);
  }
  EXPECT_ACL_FAILS(aclrtBinaryLoadFromFile(path.c_str(), nullptr, &h));
  std::remove(path.c_str());
}

TEST_F(R16_Kernel, GetFunctionRejectsUnknownNamesAndBadArguments) {
  aclrtFuncHandle f = nullptr;
  EXPECT_ACL_FAILS(aclrtBinaryGetFunction(kernels_.binary(), "no_such_kernel", &f));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtBinaryGetFunction(kernels_.binary(), nullptr, &f));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtBinaryGetFunction(kernels_.binary(), "oat_store", nullptr));
  EXPECT_ACL_FAILS(aclrtBinaryGetFunction(nullptr, "oat_store", &f));
  EXPECT_ACL_FAILS(aclrtBinaryGetFunction(reinterpret_cast<aclrtBinHandle>(uintptr_t{0xdeadbeef0}),
                                          "oat_store", &f));
}

TEST_F(R16_Kernel, LaunchRejectsBadArguments) {
  int32_t m = 0;
  OatStore a{&m, 1};
  EXPECT_ACL_FAILS(aclrtLaunchKernel(nullptr, 1, &a, sizeof(a), nullptr));
  EXPECT_ACL_FAILS(aclrtLaunchKernel(reinterpret_cast<aclrtFuncHandle>(uintptr_t{0xdeadbeef0}), 1,
                                     &a, sizeof(a), nullptr));
  EXPECT_ACL_FAILS(aclrtLaunchKernel(kernels_["oat_store"], 0, &a, sizeof(a), nullptr));
  EXPECT_ACL_FAILS(aclrtLaunchKernel(kernels_["oat_store"], 1, nullptr, sizeof(a), nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(oat::load(m), 0);
}

TEST_F(R16_Kernel, UnloadedBinaryAndItsFunctionsAreDead) {
  oat::Kernels k;
  ASSERT_ACL_OK(k.load());
  aclrtFuncHandle f = k["oat_store"];
  ASSERT_ACL_OK(aclrtBinaryUnLoad(k.binary()));
  int32_t m = 0;
  OatStore a{&m, 1};
  EXPECT_ACL_FAILS(aclrtLaunchKernel(f, 1, &a, sizeof(a), nullptr));
  aclrtFuncHandle g = nullptr;
  EXPECT_ACL_FAILS(aclrtBinaryGetFunction(k.binary(), "oat_store", &g));
  EXPECT_ACL_FAILS(aclrtBinaryUnLoad(k.binary()));
  EXPECT_ACL_FAILS(aclrtBinaryUnLoad(nullptr));
  // The fixture's own copy of the library is unaffected.
  ASSERT_ACL_OK(mark(&m, 2, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(oat::load(m), 2);
}

TEST_F(R16_Kernel, UnloadWithPendingLaunchesIsSafe) {
  oat::Kernels k;
  ASSERT_ACL_OK(k.load());
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  Gate &g = block(s);
  int32_t m = 0;
  OatStore a{&m, 3};
  ASSERT_ACL_OK(k.launch("oat_store", a, s));
  // Whatever the runtime decides (wait, refuse, or keep the code alive), it must not crash.
  aclError e = aclrtBinaryUnLoad(k.binary());
  g.open();
  aclError sync = aclrtSynchronizeStream(s);
  if (e == ACL_SUCCESS && sync == ACL_SUCCESS) EXPECT_EQ(oat::load(m), 3);
}

// Argument lists (aclrtKernelArgs*): 8-byte aligned parameters, updatable and relaunchable;
// a placeholder's data travels with the launch and the kernel sees its address.
class R16_KernelArgs : public RuntimeTest {
 protected:
  static constexpr uint64_t n = 64;
  float *dev(const std::vector<float> &v) {
    void *p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_OK(
        aclrtMemcpy(p, n * sizeof(float), v.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    return static_cast<float *>(p);
  }
  std::vector<float> read(const float *d) {
    std::vector<float> out(n);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), n * sizeof(float), d, n * sizeof(float),
                              ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
};

TEST_F(R16_KernelArgs, AListLaunchesUpdatesAndRelaunches) {
  std::vector<float> ones(n, 1.0f), twos(n, 2.0f), zeros(n, 0.0f);
  float *a = dev(ones), *b = dev(twos), *c1 = dev(zeros), *c2 = dev(zeros);
  aclrtFuncHandle vadd = kernels_["oat_vadd"];
  aclrtArgsHandle args = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsInit(vadd, &args));
  aclrtParamHandle pa = nullptr, pb = nullptr, pc = nullptr, pn = nullptr;
  uint64_t count = n;
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &a, sizeof(a), &pa));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &b, sizeof(b), &pb));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &c1, sizeof(c1), &pc));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &count, sizeof(count), &pn));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtLaunchKernelWithConfig(vadd, 4, nullptr, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(vadd, 4, nullptr, nullptr, args, nullptr));
  // The launch copied the list: updating it now changes only later launches.
  ASSERT_ACL_OK(aclrtKernelArgsParaUpdate(args, pc, &c2, sizeof(c2)));
  ASSERT_ACL_OK(aclrtKernelArgsParaUpdate(args, pb, &a, sizeof(a)));
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(vadd, 4, nullptr, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(read(c1), std::vector<float>(n, 3.0f));
  EXPECT_EQ(read(c2), std::vector<float>(n, 2.0f));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtKernelArgsParaUpdate(args, pn, &count, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtKernelArgsAppend(args, &count, sizeof(count), &pn));  // finalized
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE,
                   aclrtKernelArgsFinalize(reinterpret_cast<aclrtArgsHandle>(0x40)));
  for (float *p : {a, b, c1, c2}) EXPECT_ACL_OK(aclrtFree(p));
}

TEST_F(R16_KernelArgs, PlaceholderDataTravelsWithTheLaunch) {
  std::vector<float> twos(n, 2.0f), zeros(n, 0.0f);
  float *b = dev(twos), *c = dev(zeros);
  aclrtFuncHandle vadd = kernels_["oat_vadd"];
  // User-managed list memory, sized as CANN's samples do.
  size_t handle_size = 0, mem_size = 0;
  ASSERT_ACL_OK(aclrtKernelArgsGetHandleMemSize(vadd, &handle_size));
  ASSERT_ACL_OK(aclrtKernelArgsGetMemSize(vadd, 4 * 8, &mem_size));
  std::vector<uint8_t> handle_mem(handle_size), mem(mem_size);
  aclrtArgsHandle args = handle_mem.data();
  ASSERT_ACL_OK(aclrtKernelArgsInitByUserMem(vadd, args, mem.data(), mem.size()));
  aclrtParamHandle pa = nullptr;
  uint64_t count = n;
  ASSERT_ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &pa));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &b, sizeof(b), nullptr));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &c, sizeof(c), nullptr));
  ASSERT_ACL_OK(aclrtKernelArgsAppend(args, &count, sizeof(count), nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtKernelArgsFinalize(args));  // the placeholder has no buffer yet
  void *buf = nullptr;
  ASSERT_ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, pa, n * sizeof(float), &buf));
  for (uint64_t i = 0; i < n; ++i) static_cast<float *>(buf)[i] = static_cast<float>(i);
  ASSERT_ACL_OK(aclrtKernelArgsFinalize(args));
  ASSERT_ACL_OK(aclrtLaunchKernelWithConfig(vadd, 2, nullptr, nullptr, args, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  auto out = read(c);
  for (uint64_t i = 0; i < n; ++i) EXPECT_EQ(out[i], static_cast<float>(i) + 2.0f) << i;

  // The same through host args: the pointer at offset 0 gets the address of the data at 32.
  struct {
    const float *a;
    const float *b;
    float *c;
    uint64_t count;
    float data[R16_KernelArgs::n];
  } host{nullptr, b, c, n, {}};
  for (uint64_t i = 0; i < n; ++i) host.data[i] = 10.0f * static_cast<float>(i);
  aclrtPlaceHolderInfo ph{0, 32};
  ASSERT_ACL_OK(
      aclrtLaunchKernelWithHostArgs(vadd, 3, nullptr, nullptr, &host, sizeof(host), &ph, 1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  out = read(c);
  for (uint64_t i = 0; i < n; ++i) EXPECT_EQ(out[i], 10.0f * static_cast<float>(i) + 2.0f) << i;
  aclrtPlaceHolderInfo outside{sizeof(host), 0};
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtLaunchKernelWithHostArgs(vadd, 1, nullptr, nullptr, &host, sizeof(host), &outside, 1));
  for (float *p : {b, c}) EXPECT_ACL_OK(aclrtFree(p));
}

// Kernel libraries from memory: aclrtBinaryLoadFromData and aclrtCreateBinary + aclrtBinaryLoad.
TEST_F(R16_Kernel, LibrariesLoadFromMemory) {
  std::ifstream in(OPENACL_TEST_KERNELS, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  aclrtBinHandle from_data = nullptr, from_binary = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &from_data));
  aclrtBinary binary = aclrtCreateBinary(bytes.data(), bytes.size());
  ASSERT_NE(binary, nullptr);
  ASSERT_ACL_OK(aclrtBinaryLoad(binary, &from_binary));
  ASSERT_ACL_OK(aclrtDestroyBinary(binary));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtBinaryLoad(binary, &from_binary));
  int32_t marks[2] = {0, 0};
  int i = 0;
  for (aclrtBinHandle bin : {from_data, from_binary}) {
    aclrtFuncHandle store = nullptr;
    ASSERT_ACL_OK(aclrtBinaryGetFunction(bin, "oat_store", &store));
    OatStore args{&marks[i], 10 + i};
    ASSERT_ACL_OK(aclrtLaunchKernel(store, 1, &args, sizeof(args), nullptr));
    ++i;
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(marks[0], 10);
  EXPECT_EQ(marks[1], 11);
  ASSERT_ACL_OK(aclrtBinaryUnLoad(from_data));
  ASSERT_ACL_OK(aclrtBinaryUnLoad(from_binary));
  const char junk[] = "not a shared library";
  aclrtBinHandle bad = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE,
                   aclrtBinaryLoadFromData(junk, sizeof(junk), nullptr, &bad));
  EXPECT_NE(oat::recent_msg().find("in memory"), std::string::npos) << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtBinaryLoadFromData(nullptr, 10, nullptr, &bad));
  EXPECT_EQ(aclrtCreateBinary(nullptr, 0), nullptr);
}

}  // namespace
