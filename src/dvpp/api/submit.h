// Puts DVPP work on a stream as one task, like any other device work: FIFO with the stream's
// other tasks, seen by the timeline trace and the race checker through its memory ranges.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "backend/ai_cores.h"
#include "backend/backend.h"
#include "dvpp/image.h"

namespace openacl {
class Device;
struct ExecContext;
}  // namespace openacl

namespace openacl::dvpp::api {

struct Access {
  const void *p;
  size_t n;
  bool write;
};

// A task's ranges as the host sees them while its work runs: host views the device's backend
// grants (DeviceBackend::begin_host_access), the memory itself on sim, staged copies on a
// backend whose memory the host cannot address (written back at the end of the work).
class HostRanges {
 public:
  // ranges outlive the object.
  HostRanges(backend::DeviceBackend &device, const std::vector<Access> &ranges);
  ~HostRanges() { end(); }
  HostRanges(const HostRanges &) = delete;
  HostRanges &operator=(const HostRanges &) = delete;
  // The host address of device address p, which lies in one of the ranges.
  uint8_t *at(const void *p) const;
  // img with its bytes at their host address.
  Image image(Image img) const {
    img.data = at(img.data);
    return img;
  }

 private:
  void end() noexcept;

  backend::DeviceBackend &device_;
  const std::vector<Access> &ranges_;
  std::vector<void *> hosts_;  // the view of each range begun so far
};

using Work = std::function<void(backend::AiCores &, const HostRanges &)>;

// stream: NULL for the current context's default stream, else one of that context (R7).
// work throws openacl::Error to fail the stream (R20). It reaches the ranges' bytes only
// through the HostRanges it is given.
void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges, Work work);
// For the units that compute at the buffers' own addresses (the V2 channels, docs/dvpp.md):
// fails with feature_not_supported, naming the unit and the backend, unless the host
// addresses device's memory itself (DeviceBackend::host_addressable).
void require_in_place(Device &device, const std::string &unit);

// A task's body: work, under host views of its ranges for its duration.
std::function<void(ExecContext &)> on_host(std::vector<Access> ranges, Work work);

}  // namespace openacl::dvpp::api
