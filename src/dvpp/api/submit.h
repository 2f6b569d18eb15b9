// Puts DVPP work on a stream as one task, like any other device work: FIFO with the stream's
// other tasks, seen by the timeline trace and the race checker through its memory ranges.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "backend/ai_cores.h"

namespace openacl {
struct ExecContext;
}  // namespace openacl

namespace openacl::dvpp::api {

struct Access {
  const void *p;
  size_t n;
  bool write;
};

// stream: NULL for the current context's default stream, else one of that context (R7).
// work throws openacl::Error to fail the stream (R20).
void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges,
            std::function<void()> work);
// The same for work that spreads over the device's AI cores.
void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges,
            std::function<void(backend::AiCores &)> work);

// A task's body: work, under host views of its ranges (DeviceBackend::begin_host_access) for
// its duration. The media units compute on the host at the buffers' own addresses, so they
// need views in place, as sim grants them; on a backend that stages its views the task fails
// with feature_not_supported, naming the backend.
std::function<void(ExecContext &)> on_host(std::vector<Access> ranges,
                                           std::function<void(backend::AiCores &)> work);

}  // namespace openacl::dvpp::api
