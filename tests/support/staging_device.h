// A device backend for tests whose device memory the host cannot address, as a discrete GPU's
// memory is to its host: the device addresses it hands out are pages without access, except
// while an operator kernel runs (the device computing), and its kernels read device memory only
// (a tensor handed to one in host memory fails the op). The runtime's copies and fills and the
// host views it grants (DeviceBackend::begin_host_access) reach the bytes through a second
// mapping of the same memory, and are counted; a view is a staged copy, written back at its
// end when taken to write. Host code that touched device memory by its address, outside an
// operator, would crash the test. Scheduling, AI cores and the operator kernels are sim's.
//
// staging::parts() is what a test passes to openacl::api::init_with instead of aclInit.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/init.h"
#include "backend/backend.h"
#include "ops/op.h"
#include "ops/registry.h"

namespace staging {

using openacl::backend::DeviceBackend;

struct Counts {
  std::atomic<int> copies{0}, views{0}, kernels{0};
};
inline Counts &counts() {
  static Counts c;
  return c;
}

class StagingDevice;

// The devices of the running runtime, and the window during which their device pages are
// open to the host (operator kernels running).
struct Window {
  Window();
  ~Window();
  static std::mutex &mu() {
    static std::mutex m;
    return m;
  }
  static std::vector<StagingDevice *> &devices() {
    static std::vector<StagingDevice *> d;
    return d;
  }
  static inline int depth = 0;
  // Whether [p, p + n) is device memory of a running device.
  static bool device_memory(const void *p, size_t n);
};

// An operator of sim's kernel table, run with the device pages open.
class WindowedOp final : public openacl::ops::PreparedOp {
 public:
  explicit WindowedOp(std::unique_ptr<openacl::ops::PreparedOp> op) : op_(std::move(op)) {}
  void run(const std::vector<openacl::ops::Tensor> &inputs,
           const std::vector<openacl::ops::Tensor> &outputs,
           openacl::backend::AiCores &cores) const override {
    for (const auto *tensors : {&inputs, &outputs})
      for (const openacl::ops::Tensor &t : *tensors)
        if (t.data != nullptr && t.bytes != 0 && !Window::device_memory(t.data, t.bytes))
          openacl::fail(openacl::Errc::task_failure,
                        "staging: an operator kernel was handed host memory");
    const Window open;
    ++counts().kernels;
    op_->run(inputs, outputs, cores);
  }
  // Host code: it reads the weight through the device's host views, not with the pages open.
  void bind_constant(size_t input, const void *data, size_t n, DeviceBackend &device) override {
    op_->bind_constant(input, data, n, device);
  }

 private:
  std::unique_ptr<openacl::ops::PreparedOp> op_;
};

inline std::unique_ptr<openacl::ops::PreparedOp> build(openacl::ops::OpCall &call) {
  return std::make_unique<WindowedOp>(openacl::ops::host_kernels().find(call.type())(call));
}

class StagingDevice final : public DeviceBackend {
 public:
  static constexpr size_t kBytes = size_t{128} << 20;

  StagingDevice(int id, const openacl::backend::DeviceProps &props,
                const openacl::backend::KernelTable *kernels)
      : sim_(openacl::backend::create_device("sim", id, props, kernels)), table_("staging") {
    const int fd = memfd_create("staging-device", 0);
    if (fd < 0 || ftruncate(fd, kBytes) != 0) throw std::runtime_error("memfd");
    device_ = static_cast<uint8_t *>(mmap(nullptr, kBytes, PROT_NONE, MAP_SHARED, fd, 0));
    shadow_ =
        static_cast<uint8_t *>(mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    close(fd);
    if (kernels)
      for (const std::string &type : kernels->types()) table_.add(type, &build);
    std::lock_guard lock(Window::mu());
    Window::devices().push_back(this);
  }
  ~StagingDevice() override {
    {
      std::lock_guard lock(Window::mu());
      auto &d = Window::devices();
      d.erase(std::find(d.begin(), d.end(), this));
    }
    munmap(device_, kBytes);
    munmap(shadow_, kBytes);
  }

  bool owns(const void *p, size_t n) const {
    const auto *q = static_cast<const uint8_t *>(p);
    return q >= device_ && q < device_ + kBytes && n <= kBytes - (q - device_);
  }
  void set_open(bool open) { mprotect(device_, kBytes, open ? PROT_READ | PROT_WRITE : PROT_NONE); }

  const openacl::backend::DeviceProps &props() const override { return sim_->props(); }
  void *allocate(size_t bytes) override {
    std::lock_guard lock(mu_);
    const size_t at = (used_ + 511) / 512 * 512;
    if (bytes > kBytes || at > kBytes - bytes) return nullptr;
    used_ = at + bytes;
    return device_ + at;
  }
  void deallocate(void *, size_t) override {}  // an arena for one test's runtime
  void *allocate_host(size_t bytes) override { return sim_->allocate_host(bytes); }
  void deallocate_host(void *p, size_t bytes) override { sim_->deallocate_host(p, bytes); }

  void copy(void *dst, const void *src, size_t n) override {
    ++counts().copies;
    if (n) std::memmove(backing(dst), backing(src), n);
  }
  void fill(void *dst, int value, size_t n) override { std::memset(backing(dst), value, n); }
  void fill32(void *dst, uint32_t value, size_t count) override {
    std::fill_n(static_cast<uint32_t *>(backing(dst)), count, value);
  }

  void *begin_host_access(void *p, size_t n, Access) override {
    if (!owns(p)) return p;  // host memory the device reaches: the host's own
    ++counts().views;
    auto *host = new uint8_t[std::max<size_t>(n, 1)];
    std::memcpy(host, backing(p), n);
    return host;
  }
  void end_host_access(void *host, void *p, size_t n, Access access) noexcept override {
    if (!owns(p)) return;
    if (access == Access::write) std::memcpy(backing(p), host, n);
    delete[] static_cast<uint8_t *>(host);
  }
  bool host_addressable() const override { return false; }

  void schedule(openacl::backend::Runnable *r) override { sim_->schedule(r); }
  bool unschedule(openacl::backend::Runnable *r) override { return sim_->unschedule(r); }
  openacl::backend::AiCores &cores() override { return sim_->cores(); }
  const openacl::backend::KernelTable &kernels() const override { return table_; }

 private:
  bool owns(const void *p) const { return owns(p, 1); }
  // Where the backend itself reaches the bytes at p.
  void *backing(const void *p) const {
    return owns(p) ? shadow_ + (static_cast<const uint8_t *>(p) - device_) : const_cast<void *>(p);
  }

  std::unique_ptr<DeviceBackend> sim_;
  openacl::backend::KernelTable table_;
  uint8_t *device_ = nullptr, *shadow_ = nullptr;
  std::mutex mu_;
  size_t used_ = 0;
};

inline Window::Window() {
  std::lock_guard lock(mu());
  if (depth++ == 0)
    for (StagingDevice *d : devices()) d->set_open(true);
}
inline bool Window::device_memory(const void *p, size_t n) {
  std::lock_guard lock(mu());
  return std::any_of(devices().begin(), devices().end(),
                     [&](const StagingDevice *d) { return d->owns(p, n); });
}
inline Window::~Window() {
  std::lock_guard lock(mu());
  if (--depth == 0)
    for (StagingDevice *d : devices()) d->set_open(false);
}

inline std::unique_ptr<DeviceBackend> create_device(const std::string &, int id,
                                                    const openacl::backend::DeviceProps &props,
                                                    const openacl::backend::KernelTable *kernels) {
  return std::make_unique<StagingDevice>(id, props, kernels);
}

// aclInit's parts with this backend in place of sim.
inline openacl::RuntimeParts parts() {
  openacl::RuntimeParts p = openacl::api::default_parts();
  p.create_device = &create_device;
  return p;
}

}  // namespace staging
