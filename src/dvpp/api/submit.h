// Puts DVPP work on a stream as one task, like any other device work: FIFO with the stream's
// other tasks, seen by the timeline trace and the race checker through its memory ranges.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "backend/ai_cores.h"
#include "backend/backend.h"
#include "dvpp/image.h"

namespace openacl {
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
// backend whose memory the host cannot address (written back at the end of the work). Ranges
// that overlap are viewed as one (written if any of them is), so that work pasting twice into
// one picture, or filtering a picture in place, sees one copy of its bytes.
class HostRanges {
 public:
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
  // The backend, for work that learns only as it runs which memory it writes (VDEC's reordered
  // pictures): it takes views of its own (backend::HostView) outside the ranges.
  backend::DeviceBackend &device() const { return device_; }

 private:
  void end() noexcept;

  backend::DeviceBackend &device_;
  std::vector<Access> spans_;  // the ranges merged where they overlap, by address
  std::vector<void *> hosts_;  // the view of each span begun so far
};

// The n bytes at p that a call reads on the host as it is made (a stream's header): through a
// view of the owning device's backend when they are device memory, else the bytes themselves.
class BytesAtCall {
 public:
  BytesAtCall(const void *p, size_t n);
  const uint8_t *data() const { return data_; }

 private:
  std::optional<backend::HostView> view_;
  const uint8_t *data_;
};

using Work = std::function<void(backend::AiCores &, const HostRanges &)>;

// stream: NULL for the current context's default stream, else one of that context (R7).
// work throws openacl::Error to fail the stream (R20). It reaches the ranges' bytes only
// through the HostRanges it is given.
void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges, Work work);
// A task's body: work, under host views of its ranges for its duration.
std::function<void(ExecContext &)> on_host(std::vector<Access> ranges, Work work);

}  // namespace openacl::dvpp::api
