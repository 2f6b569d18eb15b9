// The steps of an aclnn plan that are no operator (strided copies, index copies, int4
// unpacking) reach device memory only through the backend's host views: run here on a backend
// whose device memory the host cannot address (pages without access, as a discrete GPU's
// memory is to the host), whose views are staged copies of a backing store.
#include <sys/mman.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "gtest/gtest.h"
#include "nn/objects.h"
#include "nn/plan.h"

namespace {

using openacl::backend::DeviceBackend;
using openacl::nn::Home;
using openacl::nn::Plan;
using openacl::nn::Step;
using openacl::nn::Value;
using openacl::ops::DType;

class SerialCores final : public openacl::backend::AiCores {
 public:
  unsigned count() const override { return 1; }
  void parallel_for(size_t n, const std::function<void(size_t)> &body) override {
    for (size_t i = 0; i < n; ++i) body(i);
  }
};

// Device memory is a range of pages the host may not touch; its bytes live in `store`. A view
// is a host copy, written back at its end when taken to write.
class StagingDevice final : public DeviceBackend {
 public:
  static constexpr size_t kBytes = 1 << 16;
  StagingDevice() : store(kBytes) {
    base_ = static_cast<uint8_t *>(
        mmap(nullptr, kBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  }
  ~StagingDevice() override { munmap(base_, kBytes); }
  uint8_t *device(size_t offset) { return base_ + offset; }

  void *begin_host_access(void *p, size_t n, Access) override {
    const size_t at = static_cast<size_t>(static_cast<uint8_t *>(p) - base_);
    if (at + n > kBytes) throw std::logic_error("a view outside device memory");
    ++begun;
    auto *host = new uint8_t[n + 1];
    std::memcpy(host, store.data() + at, n);
    return host;
  }
  void end_host_access(void *host, void *p, size_t n, Access access) noexcept override {
    ++ended;
    if (access == Access::write)
      std::memcpy(store.data() + (static_cast<uint8_t *>(p) - base_), host, n);
    delete[] static_cast<uint8_t *>(host);
  }
  bool host_addressable() const override { return false; }

  const openacl::backend::DeviceProps &props() const override { throw std::logic_error("unused"); }
  void *allocate(size_t) override { throw std::logic_error("unused"); }
  void deallocate(void *, size_t) override {}
  void *allocate_host(size_t) override { throw std::logic_error("unused"); }
  void deallocate_host(void *, size_t) override {}
  void copy(void *, const void *, size_t) override { throw std::logic_error("unused"); }
  void fill(void *, int, size_t) override { throw std::logic_error("unused"); }
  void fill32(void *, uint32_t, size_t) override { throw std::logic_error("unused"); }
  void schedule(openacl::backend::Runnable *) override {}
  bool unschedule(openacl::backend::Runnable *) override { return false; }
  openacl::backend::AiCores &cores() override { return cores_; }
  const openacl::backend::KernelTable &kernels() const override {
    throw std::logic_error("unused");
  }

  std::vector<uint8_t> store;
  int begun = 0, ended = 0;

 private:
  uint8_t *base_;
  SerialCores cores_;
};

Value slot(size_t index, DType dtype, std::vector<int64_t> dims, std::vector<int64_t> strides) {
  Value v;
  v.desc.dtype = dtype;
  v.desc.dims = std::move(dims);
  v.home = Home::slot;
  v.index = index;
  v.strides = std::move(strides);
  return v;
}

// A plan of one step that reads values `in` and writes value `out`.
Plan one_step(std::vector<Value> values, Step::Kind kind, std::vector<size_t> in, size_t out) {
  Plan plan;
  plan.name = "Seam";
  plan.values = std::move(values);
  Step s;
  s.kind = kind;
  s.in = std::move(in);
  s.out = {out};
  plan.steps = {s};
  return plan;
}

template <class T>
void put(StagingDevice &dev, size_t offset, const std::vector<T> &values) {
  std::memcpy(dev.store.data() + offset, values.data(), values.size() * sizeof(T));
}

template <class T>
std::vector<T> get(const StagingDevice &dev, size_t offset, size_t n) {
  std::vector<T> out(n);
  std::memcpy(out.data(), dev.store.data() + offset, n * sizeof(T));
  return out;
}

void run(const Plan &plan, StagingDevice &dev, const std::vector<size_t> &offsets) {
  std::vector<void *> addresses;
  for (size_t o : offsets) addresses.push_back(dev.device(o));
  openacl::nn::run_plan(plan, addresses, nullptr, dev, dev.cores(), false);
}

TEST(RunPlanSeam, StridedCopyGoesThroughHostViews) {
  StagingDevice dev;
  const Plan plan =
      one_step({slot(0, DType::i32, {3, 2}, {1, 3}), slot(1, DType::i32, {3, 2}, {2, 1})},
               Step::Kind::copy, {0}, 1);
  put<int32_t>(dev, 0, {1, 2, 3, 4, 5, 6});     // [2, 3]
  put<int32_t>(dev, 4096, {0, 0, 0, 0, 0, 0});  // its transpose [3, 2]
  run(plan, dev, {0, 4096});
  EXPECT_EQ(get<int32_t>(dev, 4096, 6), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(dev.begun, 2);
  EXPECT_EQ(dev.ended, 2);
}

TEST(RunPlanSeam, IndexCopyReadsItsIndicesThroughAView) {
  StagingDevice dev;
  const Plan plan = one_step({slot(0, DType::i32, {2, 2}, {2, 1}), slot(1, DType::i64, {2}, {1}),
                              slot(2, DType::i32, {3, 2}, {2, 1})},
                             Step::Kind::index_copy, {0, 1}, 2);  // along axis 0
  put<int32_t>(dev, 0, {1, 2, 3, 4});
  put<int64_t>(dev, 1024, {2, -3});
  put<int32_t>(dev, 2048, {9, 9, 9, 9, 9, 9});
  run(plan, dev, {0, 1024, 2048});
  EXPECT_EQ(get<int32_t>(dev, 2048, 6), (std::vector<int32_t>{3, 4, 9, 9, 1, 2}));
  EXPECT_EQ(dev.begun, 3);
  EXPECT_EQ(dev.ended, 3);
}

TEST(RunPlanSeam, Int4UnpackingReadsAndWritesThroughViews) {
  StagingDevice dev;
  Value int4 = slot(0, openacl::nn::kInt4, {3}, {1});
  int4.offset = 1;  // a view from the second nibble on
  const Plan plan = one_step({int4, slot(1, DType::i8, {3}, {1})}, Step::Kind::unpack_int4, {0}, 1);
  put<uint8_t>(dev, 0, {0x21, 0xF8});  // nibbles 1, 2, 8 (-8), 15 (-1)
  run(plan, dev, {0, 512});
  EXPECT_EQ(get<int8_t>(dev, 512, 3), (std::vector<int8_t>{2, -8, -1}));
  EXPECT_EQ(dev.begun, 2);
  EXPECT_EQ(dev.ended, 2);
}

}  // namespace
