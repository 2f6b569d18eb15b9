#include "dvpp/api/submit.h"

#include <memory>

#include "api/handles.h"
#include "core/device.h"
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
    : device_(device), ranges_(ranges) {
  hosts_.reserve(ranges.size());
  try {
    for (const Access &r : ranges)
      hosts_.push_back(device.begin_host_access(const_cast<void *>(r.p), r.n, mode(r)));
  } catch (...) {
    end();
    throw;
  }
}

void HostRanges::end() noexcept {
  for (size_t i = hosts_.size(); i-- > 0;)
    device_.end_host_access(hosts_[i], const_cast<void *>(ranges_[i].p), ranges_[i].n,
                            mode(ranges_[i]));
  hosts_.clear();
}

uint8_t *HostRanges::at(const void *p) const {
  const auto *q = static_cast<const uint8_t *>(p);
  for (size_t i = 0; i < ranges_.size(); ++i) {
    const auto *first = static_cast<const uint8_t *>(ranges_[i].p);
    if (q >= first && q < first + ranges_[i].n)
      return static_cast<uint8_t *>(hosts_[i]) + (q - first);
  }
  fail(Errc::internal, "a DVPP task reached memory outside the ranges it declared");
}

void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges, Work work) {
  enqueue(*openacl::api::stream_for_submit(stream), std::move(label), ranges, std::move(work));
}

void require_in_place(Device &device, const std::string &unit) {
  backend::DeviceBackend &b = device.backend();
  if (!b.host_addressable())
    fail(Errc::feature_not_supported,
         unit + " computes on device memory in place, which backend '" + b.kernels().backend() +
             "' does not let the host address");
}

std::function<void(ExecContext &)> on_host(std::vector<Access> ranges, Work work) {
  return [ranges = std::move(ranges), work = std::move(work)](ExecContext &ctx) {
    const HostRanges views(ctx.device.backend(), ranges);
    work(ctx.cores, views);
  };
}

}  // namespace openacl::dvpp::api
