// R13 (allocation, validation of copies, sets and frees, memory info) and R14 (page-locked vs
// pageable asynchronous copies).
#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <numeric>
#include <string>

#include "core/fixture.h"

namespace {

using oat::Gate;
using oat::RuntimeTest;

class MemoryTest : public RuntimeTest {
 protected:
  void *dev(size_t n) {
    void *p = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
  }
  void *pinned(size_t n) {
    void *p = nullptr;
    EXPECT_ACL_OK(aclrtMallocHost(&p, n));
    return p;
  }
  std::vector<uint8_t> read(const void *d, size_t n) {
    std::vector<uint8_t> out(n);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
  void fill(void *d, size_t n, uint8_t v) { EXPECT_ACL_OK(aclrtMemset(d, n, v, n)); }
  static std::vector<uint8_t> iota_bytes(size_t n, uint8_t start = 0) {
    std::vector<uint8_t> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
  }
};

using R13_Malloc = MemoryTest;

// 512 on the sim (see sim_device.cpp): beyond CANN's documented 64, as real devices give.
TEST_F(R13_Malloc, AlignedTo512BytesForEveryPolicy) {
  const aclrtMemMallocPolicy policies[] = {
      ACL_MEM_MALLOC_HUGE_FIRST,     ACL_MEM_MALLOC_HUGE_ONLY,     ACL_MEM_MALLOC_NORMAL_ONLY,
      ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P};
  for (auto policy : policies)
    for (size_t size : {1, 3, 63, 64, 65, 1000, 4096, 1 << 20}) {
      void *p = nullptr;
      ASSERT_ACL_OK(aclrtMalloc(&p, size, policy));
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 512, 0u)
          << "size " << size << " policy " << policy;
      // The whole requested range is usable.
      EXPECT_ACL_OK(aclrtMemset(p, size, 0xab, size));
      EXPECT_ACL_OK(aclrtFree(p));
    }
}

TEST_F(R13_Malloc, HostAllocationsAlignedTo64Bytes) {
  for (size_t size : {1, 100, 4096, 1 << 20}) {
    void *p = nullptr;
    ASSERT_ACL_OK(aclrtMallocHost(&p, size));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 1, size);  // host memory: the host may touch it directly
    EXPECT_ACL_OK(aclrtFreeHost(p));
  }
}

TEST_F(R13_Malloc, HostSizesTooLargeToRoundUpFailInsteadOfWrappingAround) {
  // Rounded up to the 64-byte alignment, these sizes would wrap around to a tiny block that
  // the memory map then took for the whole size.
  for (size_t size : {SIZE_MAX, SIZE_MAX - 10}) {
    void *p = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMallocHost(&p, size));
    EXPECT_EQ(p, nullptr);
  }
}

TEST_F(R13_Malloc, RejectsZeroSizeAndNullOut) {
  void *p = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(&p, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(nullptr, 64));
}

TEST_F(R13_Malloc, ExhaustionReturnsAllocationErrorAndChangesNothing) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  void *p = reinterpret_cast<void *>(uintptr_t{0x1234});
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&p, SIZE_MAX - 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, free0);
  EXPECT_EQ(total1, total);
  // Allocated memory counts: a request for all that remains plus the part in use fails.
  void *held = dev(1 << 20);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   aclrtMalloc(&p, free0 - (1 << 19), ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(held));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, free0);
}

TEST_F(R13_Malloc, ExhaustionIsPerDevice) {
  size_t free0 = 0, total0 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total0));
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, free0);
}

TEST_F(R13_Malloc, ManyThreadsAllocatingAndFreeing) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::atomic<int> errors{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) errors.fetch_add(1);
      std::vector<void *> mine;
      for (int i = 0; i < 200; ++i) {
        void *p = nullptr;
        if (aclrtMalloc(&p, 64 + 64 * ((t + i) % 17), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
          errors.fetch_add(1);
        else mine.push_back(p);
        if (i % 3 == 2) {
          if (aclrtFree(mine.back()) != ACL_SUCCESS) errors.fetch_add(1);
          mine.pop_back();
        }
      }
      for (void *p : mine)
        if (aclrtFree(p) != ACL_SUCCESS) errors.fetch_add(1);
    });
  for (auto &t : pool) t.join();
  EXPECT_EQ(errors.load(), 0);
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, free0);
}

using R13_GetMemInfo = MemoryTest;

TEST_F(R13_GetMemInfo, ReportsFreeAndTotalOfTheDevice) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  ASSERT_GT(total, size_t{16} << 20);
  EXPECT_EQ(free0, total) << "nothing allocated yet";
  void *p = dev(8 << 20);
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(total1, total);
  EXPECT_LE(free1, free0 - (8 << 20));
  EXPECT_GE(free1, free0 - (8 << 20) - (1 << 20)) << "the allocation costs about its size";
  ASSERT_ACL_OK(aclrtFree(p));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(free1, free0);
  // Any attribute reports the device memory, as CANN documents for aclrtGetMemInfo.
  size_t f = 0, t = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &f, &t));
}

TEST_F(R13_GetMemInfo, RejectsNullAndNeedsAContext) {
  size_t f = 0, t = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &t));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, &f, nullptr));
  std::thread t1([] {
    size_t a = 0, b = 0;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemInfo(ACL_HBM_MEM, &a, &b));
  });
  t1.join();
}

using R13_Memcpy = MemoryTest;

TEST_F(R13_Memcpy, EveryKindRoundTrips) {
  constexpr size_t n = 4096;
  auto src = iota_bytes(n, 7);
  void *d1 = dev(n), *d2 = dev(n), *h = pinned(n);
  std::vector<uint8_t> hh(n), out(n);
  ASSERT_ACL_OK(aclrtMemcpy(hh.data(), n, src.data(), n, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(hh, src);
  ASSERT_ACL_OK(aclrtMemcpy(d1, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(d2, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(h, n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::memcmp(h, src.data(), n), 0);
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(out, src);
}

// The sim device copies mid-sized ranges with vector loops of 128 or 256 bytes a step and a
// last step that overlaps the one before (backend/sim/copy_kernel.h): every size around those
// steps, at unaligned offsets, must copy exactly its bytes and nothing next to them.
TEST_F(R13_Memcpy, EverySizeAndOffsetCopiesExactlyItsBytes) {
  constexpr size_t kGuard = 64, kMax = 20000;
  void *d1 = dev(kMax + 2 * kGuard), *d2 = dev(kMax + 2 * kGuard);
  auto *p1 = static_cast<uint8_t *>(d1), *p2 = static_cast<uint8_t *>(d2);
  for (size_t n : std::initializer_list<size_t>{1, 127, 128, 129, 255, 256, 257, 383, 511, 4095,
                                                4096, 4097, 5000, 16383, 16384, 16385, kMax}) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{33}}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " offset=" + std::to_string(offset));
      const auto src = iota_bytes(n, static_cast<uint8_t>(n + offset));
      fill(d1, kMax + 2 * kGuard, 0xee);
      fill(d2, kMax + 2 * kGuard, 0xdd);
      ASSERT_ACL_OK(aclrtMemcpy(p1 + kGuard + offset, n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE));
      ASSERT_ACL_OK(aclrtMemcpy(p2 + kGuard - offset, n, p1 + kGuard + offset, n,
                                ACL_MEMCPY_DEVICE_TO_DEVICE));
      std::vector<uint8_t> want(kMax + 2 * kGuard, 0xee);
      std::copy(src.begin(), src.end(), want.begin() + kGuard + offset);
      EXPECT_EQ(read(d1, want.size()), want);
      want.assign(want.size(), 0xdd);
      std::copy(src.begin(), src.end(), want.begin() + kGuard - offset);
      EXPECT_EQ(read(d2, want.size()), want);
      std::vector<uint8_t> back(n + 2, 0x11);
      ASSERT_ACL_OK(
          aclrtMemcpy(back.data() + 1, n, p2 + kGuard - offset, n, ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(back.front(), 0x11);
      EXPECT_EQ(back.back(), 0x11);
      EXPECT_TRUE(std::equal(src.begin(), src.end(), back.begin() + 1));
    }
  }
}

TEST_F(R13_Memcpy, DefaultKindInfersDirection) {
  constexpr size_t n = 256;
  auto src = iota_bytes(n, 1);
  void *d = dev(n);
  std::vector<uint8_t> out(n);
  ASSERT_ACL_OK(aclrtMemcpy(d, n, src.data(), n, ACL_MEMCPY_DEFAULT));
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), n, d, n, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(out, src);
}

TEST_F(R13_Memcpy, KindContradictingPointersFailsAndCopiesNothing) {
  constexpr size_t n = 128;
  void *d = dev(n), *d2 = dev(n);
  fill(d, n, 0x11);
  fill(d2, n, 0x22);
  std::vector<uint8_t> h(n, 0x33), h2(n, 0x44);
  // H2D whose destination is host memory / whose source is device memory.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(h.data(), n, h2.data(), n, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(d, n, d2, n, ACL_MEMCPY_HOST_TO_DEVICE));
  // D2H whose source is host memory.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(h.data(), n, h2.data(), n, ACL_MEMCPY_DEVICE_TO_HOST));
  // D2D with a host side.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, n, h.data(), n, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(h.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_DEVICE));
  // H2H with a device side.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(h.data(), n, d, n, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(h, std::vector<uint8_t>(n, 0x33));
  EXPECT_EQ(read(d, n), std::vector<uint8_t>(n, 0x11));
}

TEST_F(R13_Memcpy, InvalidKindRejected) {
  void *d = dev(64);
  std::vector<uint8_t> h(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 64, h.data(), 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 64, h.data(), 64, static_cast<aclrtMemcpyKind>(42)));
}

TEST_F(R13_Memcpy, DestMaxSmallerThanCountFailsAndCopiesNothing) {
  // Reference M4: the runtime rejects count > destMax with ACL_ERROR_RT_PARAM_INVALID.
  void *d = dev(256);
  fill(d, 256, 0);
  auto src = iota_bytes(256, 1);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(d, 100, src.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(read(d, 256), std::vector<uint8_t>(256, 0));
}

TEST_F(R13_Memcpy, RangePastTheAllocationFailsAndCopiesNothing) {
  constexpr size_t n = 256;
  void *d = dev(n);
  fill(d, n, 0x5a);
  std::vector<uint8_t> big(2 * n, 0x77), out(2 * n, 0);
  auto *dp = static_cast<uint8_t *>(d);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 2 * n, big.data(), n + 1, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(dp + n - 8, 64, big.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(out.data(), 2 * n, d, n + 1, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(out, std::vector<uint8_t>(2 * n, 0));
  EXPECT_EQ(read(d, n), std::vector<uint8_t>(n, 0x5a));
  // Inside the allocation, at an offset, is fine.
  EXPECT_ACL_OK(aclrtMemcpy(dp + n - 16, 16, big.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_F(R13_Memcpy, FreedDeviceMemoryIsNoLongerDeviceMemory) {
  void *d = dev(64);
  ASSERT_ACL_OK(aclrtFree(d));
  std::vector<uint8_t> h(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 64, h.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_F(R13_Memcpy, NullPointersRejectedAndZeroCountSucceeds) {
  void *d = dev(64);
  std::vector<uint8_t> h(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(nullptr, 64, h.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(d, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  // Reference M4: count 0 returns success before any other check.
  EXPECT_ACL_OK(aclrtMemcpy(d, 64, h.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_F(R13_Memcpy, TwoDimensionalCopies) {
  constexpr size_t width = 48, height = 10, spitch = 64, dpitch = 80;
  auto src = iota_bytes(spitch * height, 3);
  void *d = dev(dpitch * height);
  fill(d, dpitch * height, 0);
  ASSERT_ACL_OK(
      aclrtMemcpy2d(d, dpitch, src.data(), spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE));
  auto img = read(d, dpitch * height);
  for (size_t r = 0; r < height; ++r)
    for (size_t c = 0; c < dpitch; ++c)
      ASSERT_EQ(img[r * dpitch + c], c < width ? src[r * spitch + c] : 0) << r << "," << c;
  std::vector<uint8_t> back(spitch * height, 0);
  ASSERT_ACL_OK(
      aclrtMemcpy2d(back.data(), spitch, d, dpitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t r = 0; r < height; ++r)
    for (size_t c = 0; c < width; ++c) ASSERT_EQ(back[r * spitch + c], src[r * spitch + c]);
}

TEST_F(R13_Memcpy, TwoDimensionalRejectsBadArguments) {
  void *d = dev(1024), *d2 = dev(1024);
  std::vector<uint8_t> h(1024);
  // Only H2D and D2H are supported, as AscendCL documents for aclrtMemcpy2d.
  EXPECT_ACL_FAILS(aclrtMemcpy2d(d, 32, d2, 32, 16, 4, ACL_MEMCPY_DEVICE_TO_DEVICE));
  // width larger than a pitch.
  EXPECT_ACL_FAILS(aclrtMemcpy2d(d, 16, h.data(), 32, 32, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  // rows running past the allocation.
  EXPECT_ACL_FAILS(aclrtMemcpy2d(d, 512, h.data(), 32, 32, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(nullptr, 32, h.data(), 32, 16, 4, ACL_MEMCPY_HOST_TO_DEVICE));
}

using R13_Memset = MemoryTest;

TEST_F(R13_Memset, FillsDeviceAndPageLockedMemory) {
  void *d = dev(300), *h = pinned(300);
  ASSERT_ACL_OK(aclrtMemset(d, 300, 0x3c, 200));
  ASSERT_ACL_OK(aclrtMemset(static_cast<uint8_t *>(d) + 200, 100, 0x01, 100));
  auto v = read(d, 300);
  for (size_t i = 0; i < 300; ++i) ASSERT_EQ(v[i], i < 200 ? 0x3c : 0x01) << i;
  ASSERT_ACL_OK(aclrtMemset(h, 300, 0x7e, 300));
  EXPECT_EQ(static_cast<uint8_t *>(h)[299], 0x7e);
}

TEST_F(R13_Memset, RejectsBadArguments) {
  void *d = dev(64);
  fill(d, 64, 9);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemset(nullptr, 64, 0, 64));
  EXPECT_ACL_FAILS(aclrtMemset(d, 32, 0, 64));    // count > maxCount
  EXPECT_ACL_FAILS(aclrtMemset(d, 128, 0, 128));  // past the allocation
  std::vector<uint8_t> host(64, 1);
  EXPECT_ACL_FAILS(aclrtMemset(host.data(), 64, 0, 64));  // not ACL memory
  EXPECT_EQ(read(d, 64), std::vector<uint8_t>(64, 9));
  EXPECT_EQ(host, std::vector<uint8_t>(64, 1));
  EXPECT_ACL_OK(aclrtMemset(d, 64, 0, 0));
}

using R13_Free = MemoryTest;

TEST_F(R13_Free, UnknownPointersFailWithInvalidParam) {
  void *d = dev(256);
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(host.data()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(static_cast<uint8_t *>(d) + 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtFree(reinterpret_cast<void *>(uintptr_t{0xdeadbeef0})));
  // Still allocated and intact.
  EXPECT_ACL_OK(aclrtMemset(d, 256, 1, 256));
  ASSERT_ACL_OK(aclrtFree(d));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(d));  // double free
}

TEST_F(R13_Free, HostAndDeviceFreesAreNotInterchangeable) {
  void *d = dev(64), *h = pinned(64);
  EXPECT_ACL_FAILS(aclrtFree(h));
  EXPECT_ACL_FAILS(aclrtFreeHost(d));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(nullptr));
  std::vector<uint8_t> plain(64);
  EXPECT_ACL_FAILS(aclrtFreeHost(plain.data()));
  EXPECT_ACL_OK(aclrtFreeHost(h));
  EXPECT_ACL_FAILS(aclrtFreeHost(h));
  EXPECT_ACL_OK(aclrtFree(d));
}

using R14_MemcpyAsync = MemoryTest;

TEST_F(R14_MemcpyAsync, PageLockedH2DReadsTheSourceWhenItRuns) {
  constexpr size_t n = 1024;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  auto *src = static_cast<uint8_t *>(pinned(n));
  std::memset(src, 1, n);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemcpyAsync(d, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  std::memset(src, 2, n);  // before the copy runs: the copy must see this
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d, n), std::vector<uint8_t>(n, 2));
}

TEST_F(R14_MemcpyAsync, PageLockedD2HWritesWhenItRuns) {
  constexpr size_t n = 1024;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  fill(d, n, 9);
  auto *dst = static_cast<uint8_t *>(pinned(n));
  std::memset(dst, 0, n);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_EQ(dst[0], 0);
  EXPECT_EQ(dst[n - 1], 0);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(dst[0], 9);
  EXPECT_EQ(dst[n - 1], 9);
}

TEST_F(R14_MemcpyAsync, PageableH2DConsumesTheSourceBeforeReturning) {
  constexpr size_t n = 4096;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  auto *src = static_cast<uint8_t *>(std::malloc(n));
  std::memset(src, 1, n);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemcpyAsync(d, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  std::memset(src, 2, n);
  std::free(src);  // the caller may even release it
  // Still in stream order: the copy has not landed while the stream is held.
  fill(d, n, 0);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d, n), std::vector<uint8_t>(n, 1));
}

TEST_F(R14_MemcpyAsync, PageableD2HCompletesBeforeReturning) {
  constexpr size_t n = 4096;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  fill(d, n, 0);
  // A stream-ordered memset, then a pageable D2H: when the call returns the bytes are there,
  // including the effect of the earlier task on the stream.
  ASSERT_ACL_OK(aclrtMemsetAsync(d, n, 0x42, n, s));
  std::vector<uint8_t> dst(n, 0);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dst.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_EQ(dst, std::vector<uint8_t>(n, 0x42));
}

TEST_F(R14_MemcpyAsync, PageableD2HWaitsForEarlierTasksOfTheStream) {
  // The stream is held when the call is made; the call completes the copy before returning,
  // so it must wait for the earlier tasks (opened by another thread once the gate runs).
  constexpr size_t n = 4096;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  fill(d, n, 0);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemsetAsync(d, n, 0x66, n, s));
  std::thread opener([&] {
    g.wait_started();
    g.open();
  });
  std::vector<uint8_t> dst(n, 0);
  EXPECT_ACL_OK(aclrtMemcpyAsync(dst.data(), n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_EQ(dst, std::vector<uint8_t>(n, 0x66));
  opener.join();
  EXPECT_FALSE(g.timed_out());
}

TEST_F(R14_MemcpyAsync, InteriorOfAPageLockedAllocationIsPageLocked) {
  constexpr size_t n = 4096;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  fill(d, n, 5);
  auto *h = static_cast<uint8_t *>(pinned(2 * n));
  std::memset(h, 0, 2 * n);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemcpyAsync(h + 512, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_EQ(h[512], 0) << "a page-locked D2H copy writes when it runs, not at the call";
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(h[512], 5);
  EXPECT_EQ(h[512 + n - 1], 5);
  EXPECT_EQ(h[511], 0);
  EXPECT_EQ(h[512 + n], 0);
}

TEST_F(R14_MemcpyAsync, CountZeroSucceedsAtOnce) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  Gate &g = block(s);
  void *d = dev(64);
  std::vector<uint8_t> h(64);
  EXPECT_ACL_OK(aclrtMemcpyAsync(h.data(), 64, d, 0, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_ACL_OK(aclrtMemcpyAsync(d, 64, h.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_FALSE(g.finished());
  g.open();
}

TEST_F(R14_MemcpyAsync, ValidatesLikeTheSynchronousCopy) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(128), *h = pinned(256);
  fill(d, 128, 0x11);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsync(h, 128, d, 128, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(d, 64, h, 128, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsync(d, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsync(nullptr, 128, h, 128, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d, 128), std::vector<uint8_t>(128, 0x11));
}

TEST_F(R14_MemcpyAsync, DeviceToDeviceAndMemsetAsyncRunInStreamOrder) {
  constexpr size_t n = 2048;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *a = dev(n), *b = dev(n);
  fill(a, n, 0);
  fill(b, n, 0);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemsetAsync(a, n, 0x21, n, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  EXPECT_EQ(read(b, n), std::vector<uint8_t>(n, 0));
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(b, n), std::vector<uint8_t>(n, 0x21));
}

TEST_F(R14_MemcpyAsync, TwoDimensionalAsyncWithPageLockedMemory) {
  constexpr size_t width = 16, height = 8, pitch = 32;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(pitch * height);
  fill(d, pitch * height, 0);
  auto *h = static_cast<uint8_t *>(pinned(pitch * height));
  for (size_t i = 0; i < pitch * height; ++i) h[i] = static_cast<uint8_t>(i);
  Gate &g = block(s);
  ASSERT_ACL_OK(
      aclrtMemcpy2dAsync(d, pitch, h, pitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE, s));
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  auto v = read(d, pitch * height);
  for (size_t r = 0; r < height; ++r)
    for (size_t c = 0; c < pitch; ++c)
      ASSERT_EQ(v[r * pitch + c], c < width ? h[r * pitch + c] : 0);
}

TEST_F(R14_MemcpyAsync, MemsetAsyncOnPageLockedHostMemoryRunsInStreamOrder) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  auto *h = static_cast<uint8_t *>(pinned(512));
  std::memset(h, 0, 512);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemsetAsync(h, 512, 0x19, 512, s));
  EXPECT_EQ(h[0], 0);
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(h[0], 0x19);
  EXPECT_EQ(h[511], 0x19);
}

TEST_F(R14_MemcpyAsync, MemsetAsyncRejectsBadArguments) {
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(nullptr, 64, 0, 64, s));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(d, 32, 0, 64, s));
  EXPECT_ACL_FAILS(aclrtMemsetAsync(d, 128, 0, 128, s));
  EXPECT_ACL_OK(aclrtMemsetAsync(d, 64, 0, 0, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
}

}  // namespace

namespace {

using R14_HostRegister = MemoryTest;

// Registered memory is page-locked memory of the program's: an async copy from it reads the
// source when it runs, as from aclrtMallocHost memory.
TEST_F(R14_HostRegister, RegisteredSourceIsReadWhenTheCopyRuns) {
  constexpr size_t n = 4096;
  std::vector<uint8_t> host(n, 1);
  void *mapped = nullptr;
  ASSERT_ACL_OK(aclrtHostRegister(host.data(), n, ACL_HOST_REGISTER_MAPPED, &mapped));
  EXPECT_EQ(mapped, host.data());
  void *inner = nullptr;
  ASSERT_ACL_OK(aclrtHostGetDevicePointer(host.data() + 100, &inner, 0));
  EXPECT_EQ(inner, host.data() + 100);
  aclrtPtrAttributes attr{};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(host.data(), &attr));
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);

  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void *d = dev(n);
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemcpyAsync(d, n, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  std::fill(host.begin(), host.end(), 2);  // before the copy runs: the copy must see this
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d, n), std::vector<uint8_t>(n, 2));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(host.data()));
  EXPECT_NE(oat::recent_msg().find("aclrtHostUnregister"), std::string::npos) << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtHostUnregister(host.data() + 1));
  ASSERT_ACL_OK(aclrtHostUnregister(host.data()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtHostUnregister(host.data()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(host.data(), &inner, 0));
}

TEST_F(R14_HostRegister, RejectsOverlapsAndBadArguments) {
  std::vector<uint8_t> host(8192);
  void *mapped = nullptr;
  ASSERT_ACL_OK(aclrtHostRegisterV2(host.data(), 4096, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(host.data() + 2048, 4096, ACL_HOST_REGISTER_MAPPED, &mapped));
  ASSERT_ACL_OK(aclrtHostRegister(host.data() + 4096, 4096, ACL_HOST_REGISTER_READONLY,
                                  &mapped));  // adjacent is fine
  void *p = pinned(256);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(p, 256, ACL_HOST_REGISTER_MAPPED, &mapped));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(nullptr, 256, ACL_HOST_REGISTER_MAPPED, &mapped));
  std::vector<uint8_t> other(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(other.data(), 0, ACL_HOST_REGISTER_MAPPED, &mapped));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtHostRegister(other.data(), 64, static_cast<aclrtHostRegisterType>(3), &mapped));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(other.data(), 64, ACL_HOST_REGISTER_MAPPED, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(other.data(), 64, 0x1));
  ASSERT_ACL_OK(aclrtHostUnregister(host.data()));
  ASSERT_ACL_OK(aclrtHostUnregister(host.data() + 4096));
  EXPECT_ACL_OK(aclrtFreeHost(p));
}

TEST_F(R13_Malloc, FlushAndInvalidateCheckTheirRange) {
  void *d = dev(256);
  EXPECT_ACL_OK(aclrtMemFlush(d, 256));
  EXPECT_ACL_OK(aclrtMemInvalidate(static_cast<char *>(d) + 64, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(d, 512));  // past the allocation
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate(d, 0));
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(host.data(), 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate(nullptr, 64));
}

using R13_MemcpyBatch = MemoryTest;

constexpr aclrtMemcpyBatchAttr kH2D{
    {0, ACL_MEM_LOCATION_TYPE_DEVICE}, {0, ACL_MEM_LOCATION_TYPE_HOST}, {}};
constexpr aclrtMemcpyBatchAttr kD2H{
    {0, ACL_MEM_LOCATION_TYPE_HOST}, {0, ACL_MEM_LOCATION_TYPE_DEVICE}, {}};

TEST_F(R13_MemcpyBatch, CopiesEachRangeInTheDirectionOfItsAttributes) {
  void *d0 = dev(64), *d1 = dev(128), *d2 = dev(32);
  auto a = iota_bytes(64, 1), b = iota_bytes(128, 100);
  fill(d2, 32, 0x5a);
  std::vector<uint8_t> back(32, 0);
  void *dsts[] = {d0, d1, back.data()};
  void *srcs[] = {a.data(), b.data(), d2};
  size_t sizes[] = {64, 128, 32}, maxs[] = {64, 128, 32};
  aclrtMemcpyBatchAttr attrs[] = {kH2D, kD2H};
  size_t first[] = {0, 2}, fail_at = 0;
  ASSERT_ACL_OK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, first, 2, &fail_at));
  EXPECT_EQ(read(d0, 64), a);
  EXPECT_EQ(read(d1, 128), b);
  EXPECT_EQ(back, std::vector<uint8_t>(32, 0x5a));

  // On a stream, with page-locked host memory: the copies run in stream order.
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  auto *host = static_cast<uint8_t *>(pinned(64));
  std::fill_n(host, 64, 0x33);
  void *adsts[] = {d0};
  void *asrcs[] = {host};
  size_t asizes[] = {64}, amaxs[] = {64}, afirst[] = {0};
  aclrtMemcpyBatchAttr aattrs[] = {kH2D};
  ASSERT_ACL_OK(
      aclrtMemcpyBatchAsync(adsts, amaxs, asrcs, asizes, 1, aattrs, afirst, 1, &fail_at, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d0, 64), std::vector<uint8_t>(64, 0x33));
  std::fill_n(host, 64, 0x44);
  ASSERT_ACL_OK(aclrtMemcpyBatchAsyncV2(adsts, amaxs, asrcs, asizes, 1, aattrs, afirst, 1, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(read(d0, 64), std::vector<uint8_t>(64, 0x44));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtFreeHost(host));
  for (void *p : {d0, d1, d2}) EXPECT_ACL_OK(aclrtFree(p));
}

TEST_F(R13_MemcpyBatch, AFailedCheckNamesTheCopyAndCopiesNothing) {
  void *d0 = dev(64), *d1 = dev(64);
  fill(d0, 64, 0);
  fill(d1, 64, 0);
  auto a = iota_bytes(64, 1);
  std::vector<uint8_t> host(64, 9);
  void *dsts[] = {d0, d1};
  void *srcs[] = {a.data(), host.data()};
  size_t sizes[] = {64, 64}, maxs[] = {64, 32}, first[] = {0};
  aclrtMemcpyBatchAttr attrs[] = {kH2D};
  size_t fail_at = 0;
  // Copy 1's size exceeds its destMax: nothing is copied, not even copy 0.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, attrs, first, 1, &fail_at));
  EXPECT_EQ(fail_at, 1u);
  EXPECT_NE(oat::recent_msg().find("copy 1"), std::string::npos) << oat::recent_msg();
  EXPECT_EQ(read(d0, 64), std::vector<uint8_t>(64, 0));
  // The attributes say device to host, the pointers say host to device.
  maxs[1] = 64;
  aclrtMemcpyBatchAttr wrong[] = {kD2H};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, wrong, first, 1, &fail_at));
  EXPECT_EQ(fail_at, 0u);
  // Device to device is not a batch direction; a bad attribute index is nobody's copy.
  aclrtMemcpyBatchAttr d2d[] = {
      {{0, ACL_MEM_LOCATION_TYPE_DEVICE}, {0, ACL_MEM_LOCATION_TYPE_DEVICE}, {}}};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, d2d, first, 1, &fail_at));
  size_t bad_first[] = {1};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, attrs, bad_first, 1, &fail_at));
  EXPECT_EQ(fail_at, SIZE_MAX);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(nullptr, maxs, srcs, sizes, 2, attrs, first, 1, &fail_at));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, attrs, first, 1, &fail_at));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, attrs, first, 3, &fail_at));
  for (void *p : {d0, d1}) EXPECT_ACL_OK(aclrtFree(p));
}

// Virtual memory: reserved ranges, physical allocations of a device, and their mappings.
class VirtualMemoryTest : public MemoryTest {
 protected:
  static aclrtPhysicalMemProp device0() {
    aclrtPhysicalMemProp prop{};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM;
    prop.location = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
    return prop;
  }
  size_t free_bytes() {
    size_t free = 0, total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
    return free;
  }
};

TEST_F(VirtualMemoryTest, MappingsAreDeviceMemoryAndShareTheirPhysicalBytes) {
  aclrtPhysicalMemProp prop = device0();
  size_t g = 0;
  ASSERT_ACL_OK(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
  ASSERT_GT(g, 0u);
  const size_t before = free_bytes();
  void *va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(va) % g, 0u);
  aclrtDrvMemHandle phys = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  EXPECT_EQ(before - free_bytes(), g);  // charged to the device
  void *second = static_cast<char *>(va) + g;
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
  ASSERT_ACL_OK(aclrtMapMem(second, g, 0, phys, 0));  // the same bytes, twice
  // Device memory for every API: a memset through one mapping reads back through the other.
  ASSERT_ACL_OK(aclrtMemset(va, g, 0x5a, g));
  EXPECT_EQ(read(second, 64), std::vector<uint8_t>(64, 0x5a));
  int32_t *word = static_cast<int32_t *>(second);
  ASSERT_ACL_OK(mark(word, 77, nullptr));  // a kernel writes through a mapping
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  int32_t got = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&got, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(got, 77);
  void *base = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char *>(va) + 100, &base, &size));
  EXPECT_EQ(base, va);
  EXPECT_EQ(size, g);
  aclrtDrvMemHandle retained = nullptr;
  ASSERT_ACL_OK(aclrtMemRetainAllocationHandle(static_cast<char *>(second) + 8, &retained));
  EXPECT_EQ(retained, phys);
  aclrtPhysicalMemProp got_prop{};
  ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(phys, &got_prop));
  EXPECT_EQ(got_prop.location.id, 0u);
  EXPECT_EQ(got_prop.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  // Released in order only: mappings, then the physical allocation and the reservation.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(va));
  EXPECT_NE(oat::recent_msg().find("aclrtUnmapMem"), std::string::npos) << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreePhysical(phys));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtUnmapMem(second));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  EXPECT_EQ(free_bytes(), before);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_HANDLE, aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

// A pool grows by mapping more physical memory right after what it mapped before (ggml's CANN
// pool does): one range may run across those mappings, but not past the last one.
TEST_F(VirtualMemoryTest, ARangeMayCrossAdjacentMappings) {
  aclrtPhysicalMemProp prop = device0();
  size_t g = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
  void *va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 3 * g, 0, nullptr, 1));
  aclrtDrvMemHandle a = nullptr, b = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&a, g, &prop, 0));
  ASSERT_ACL_OK(aclrtMallocPhysical(&b, g, &prop, 0));
  void *second = static_cast<char *>(va) + g;
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, a, 0));
  ASSERT_ACL_OK(aclrtMapMem(second, g, 0, b, 0));
  void *middle = static_cast<char *>(va) + g / 2;
  ASSERT_ACL_OK(aclrtMemset(middle, g, 0x3c, g));
  EXPECT_EQ(read(static_cast<char *>(second) + g / 2 - 64, 64), std::vector<uint8_t>(64, 0x3c));
  std::vector<uint8_t> host(g, 1);
  ASSERT_ACL_OK(aclrtMemcpy(middle, g, host.data(), g, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(read(static_cast<char *>(second) + g / 2 - 64, 64), std::vector<uint8_t>(64, 1));
  // Past the second mapping: the third granule is reserved but not mapped.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemset(middle, 2 * g, 0, 2 * g));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtUnmapMem(second));
  ASSERT_ACL_OK(aclrtFreePhysical(a));
  ASSERT_ACL_OK(aclrtFreePhysical(b));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(VirtualMemoryTest, BadRangesAreRefused) {
  aclrtPhysicalMemProp prop = device0();
  size_t g = 0;
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
  void *va = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&va, g + 1, 0, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&va, g, 3, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&va, g, 0, nullptr, 2));
  // Flags 1, the huge-page request ggml's memory pool makes, is accepted.
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 1));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  aclrtDrvMemHandle phys = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&phys, g / 2, &prop, 0));
  aclrtPhysicalMemProp host = prop;
  host.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&phys, g, &host, 0));
  aclrtPhysicalMemProp far = prop;
  far.location.id = 99;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMallocPhysical(&phys, g, &far, 0));
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, 2 * g, &prop, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMapMem(va, 2 * g, 0, phys, 0));  // past the reservation
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMapMem(va, g, 2 * g, phys, 0));  // past the physical bytes
  ASSERT_ACL_OK(aclrtMapMem(va, g, g, phys, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(va, g, 0, phys, 0));  // mapped already
  // Access: read-write for the devices, the one setting the simulator has.
  aclrtMemAccessDesc rw{ACL_RT_MEM_ACCESS_FLAGS_READWRITE, {1, ACL_MEM_LOCATION_TYPE_DEVICE}, {}};
  ASSERT_ACL_OK(aclrtMemSetAccess(va, g, &rw, 1));
  aclrtMemAccessDesc ro{ACL_RT_MEM_ACCESS_FLAGS_READ, {0, ACL_MEM_LOCATION_TYPE_DEVICE}, {}};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemSetAccess(va, g, &ro, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(va, 2 * g, &rw, 1));
  aclrtMemLocation dev0{0, ACL_MEM_LOCATION_TYPE_DEVICE};
  uint64_t flags = 0;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &dev0, &flags));
  EXPECT_EQ(flags, static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_READWRITE));
  // Left mapped: aclFinalize (TearDown) releases the mapping, the allocation and the range.
}

// DEV, RSVD, none: aclrtMalloc memory, a reservation (mapped or not), host memory.
TEST_F(VirtualMemoryTest, CheckMemTypeSortsAddressesByHowTheyWereAllocated) {
  aclrtPhysicalMemProp prop = device0();
  size_t g = 0;
  ASSERT_ACL_OK(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
  void *dev = nullptr, *va = nullptr, *host = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMallocHost(&host, 64));
  aclrtDrvMemHandle phys = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&phys, g, &prop, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, phys, 0));
  void *unmapped = static_cast<char *>(va) + g + 5;
  int on_stack = 0;
  auto check = [](std::vector<void *> list, uint32_t type) {
    uint32_t result = 7;
    EXPECT_ACL_OK(
        aclrtCheckMemType(list.data(), static_cast<uint32_t>(list.size()), type, &result, 0));
    return result;
  };
  const uint32_t kDev = ACL_RT_MEM_TYPE_DEV, kRsvd = ACL_RT_MEM_TYPE_RSVD;
  EXPECT_EQ(check({dev, static_cast<char *>(dev) + 63}, kDev), 1u);
  EXPECT_EQ(check({dev}, kRsvd), 0u);
  EXPECT_EQ(check({va, unmapped}, kRsvd), 1u);
  EXPECT_EQ(check({va}, kDev), 0u);
  EXPECT_EQ(check({dev, va}, kDev), 0u);
  EXPECT_EQ(check({dev, va}, kDev | kRsvd), 1u);
  EXPECT_EQ(check({dev, host}, kDev | kRsvd | ACL_RT_MEM_TYPE_DVPP), 0u);
  EXPECT_EQ(check({&on_stack}, kDev), 0u);
  EXPECT_EQ(check({nullptr}, kDev), 0u);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtFreePhysical(phys));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  EXPECT_EQ(check({va}, kRsvd), 0u);  // released
  ASSERT_ACL_OK(aclrtFree(dev));
  EXPECT_EQ(check({dev}, kDev), 0u);  // freed
  ASSERT_ACL_OK(aclrtFreeHost(host));
}

TEST_F(VirtualMemoryTest, CheckMemTypeRejectsBadArguments) {
  void *dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  void *list[1] = {dev};
  uint32_t result = 7;
  const uint32_t kDev = ACL_RT_MEM_TYPE_DEV;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(nullptr, 1, kDev, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, kDev, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 0, kDev, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, 0, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, 0x4, &result, 0));
  EXPECT_NE(oat::recent_msg().find("memType 4"), std::string::npos) << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, kDev, &result, 1));
  EXPECT_EQ(result, 7u);  // untouched by the failures
  ASSERT_ACL_OK(aclrtFree(dev));
}

}  // namespace
