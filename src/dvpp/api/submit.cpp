#include "dvpp/api/submit.h"

#include <algorithm>
#include <memory>

#include "api/handles.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"

namespace openacl::dvpp::api {

namespace {

backend::DeviceBackend::Access mode(const Access &r) {
  return r.write ? backend::DeviceBackend::Access::write : backend::DeviceBackend::Access::read;
}

void enqueue(Stream &stream, std::string label, const std::vector<Access> &ranges, Work work) {
  auto task = std::make_unique<FunctionTask>(TaskKind::dvpp, std::move(label),
                                             on_host(ranges, std::move(work)));
  for (const auto &r : ranges) task->add_range(r.p, r.n, r.write);
  stream.enqueue(std::move(task));
}

}  // namespace

HostRanges::HostRanges(backend::DeviceBackend &device, const std::vector<Access> &ranges)
    : device_(device), spans_(ranges) {
  std::sort(spans_.begin(), spans_.end(),
            [](const Access &a, const Access &b) { return a.p < b.p; });
  size_t kept = 0;
  for (const Access &r : spans_) {
    Access &last = spans_[kept == 0 ? 0 : kept - 1];
    const auto *first = static_cast<const uint8_t *>(r.p);
    const auto *last_end = static_cast<const uint8_t *>(last.p) + last.n;
    if (kept > 0 && first < last_end) {
      last.n = std::max<size_t>(last.n, first + r.n - static_cast<const uint8_t *>(last.p));
      last.write = last.write || r.write;
    } else {
      spans_[kept++] = r;
    }
  }
  spans_.resize(kept);
  hosts_.reserve(kept);
  try {
    for (const Access &r : spans_)
      hosts_.push_back(device.begin_host_access(const_cast<void *>(r.p), r.n, mode(r)));
  } catch (...) {
    end();
    throw;
  }
}

void HostRanges::end() noexcept {
  for (size_t i = hosts_.size(); i-- > 0;)
    device_.end_host_access(hosts_[i], const_cast<void *>(spans_[i].p), spans_[i].n,
                            mode(spans_[i]));
  hosts_.clear();
}

uint8_t *HostRanges::at(const void *p) const {
  const auto *q = static_cast<const uint8_t *>(p);
  for (size_t i = 0; i < spans_.size(); ++i) {
    const auto *first = static_cast<const uint8_t *>(spans_[i].p);
    if (q >= first && q < first + spans_[i].n)
      return static_cast<uint8_t *>(hosts_[i]) + (q - first);
  }
  fail(Errc::internal, "a DVPP task reached memory outside the ranges it declared");
}

BytesAtCall::BytesAtCall(const void *p, size_t n) : data_(static_cast<const uint8_t *>(p)) {
  Allocation a;
  if (p != nullptr && Runtime::get().memory().find(p, a) && a.device != nullptr) {
    if (n > a.base + a.size - reinterpret_cast<uintptr_t>(p))
      fail(Errc::invalid_argument, std::to_string(n) + " bytes at " + "the address" +
                                       " run past the end of their device allocation");
    view_.emplace(a.device->backend(), p, n, backend::DeviceBackend::Access::read);
    data_ = static_cast<const uint8_t *>(view_->data());
  }
}

void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges, Work work) {
  enqueue(*openacl::api::stream_for_submit(stream), std::move(label), ranges, std::move(work));
}

std::function<void(ExecContext &)> on_host(std::vector<Access> ranges, Work work) {
  return [ranges = std::move(ranges), work = std::move(work)](ExecContext &ctx) {
    const HostRanges views(ctx.device.backend(), ranges);
    work(ctx.cores, views);
  };
}

}  // namespace openacl::dvpp::api
