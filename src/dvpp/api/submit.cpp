#include "dvpp/api/submit.h"

#include <memory>

#include "api/handles.h"
#include "backend/backend.h"
#include "core/device.h"
#include "core/stream.h"
#include "core/task.h"

namespace openacl::dvpp::api {

void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges,
            std::function<void()> work) {
  submit(stream, std::move(label), ranges,
         [work = std::move(work)](backend::AiCores &) { work(); });
}

void submit(aclrtStream stream, std::string label, const std::vector<Access> &ranges,
            std::function<void(backend::AiCores &)> work) {
  auto s = openacl::api::stream_for_submit(stream);
  auto task = std::make_unique<FunctionTask>(TaskKind::dvpp, std::move(label),
                                             on_host(ranges, std::move(work)));
  for (const auto &r : ranges) task->add_range(r.p, r.n, r.write);
  s->enqueue(std::move(task));
}

namespace {

void run_on_host(ExecContext &ctx, const std::vector<Access> &ranges,
                 const std::function<void(backend::AiCores &)> &work) {
  using Mode = backend::DeviceBackend::Access;
  backend::DeviceBackend &device = ctx.device.backend();
  size_t granted = 0;
  auto end_views = [&] {
    for (size_t i = granted; i-- > 0;) {
      void *p = const_cast<void *>(ranges[i].p);
      device.end_host_access(p, p, ranges[i].n, ranges[i].write ? Mode::write : Mode::read);
    }
  };
  try {
    for (; granted < ranges.size(); ++granted) {
      void *p = const_cast<void *>(ranges[granted].p);
      const Mode mode = ranges[granted].write ? Mode::write : Mode::read;
      void *host = device.begin_host_access(p, ranges[granted].n, mode);
      if (host != p) {
        device.end_host_access(host, p, ranges[granted].n, mode);
        fail(Errc::feature_not_supported,
             "the DVPP units need device memory the host addresses in place; backend '" +
                 device.kernels().backend() + "' stages it");
      }
    }
    work(ctx.cores);
  } catch (...) {
    end_views();
    throw;
  }
  end_views();
}

}  // namespace

std::function<void(ExecContext &)> on_host(std::vector<Access> ranges,
                                           std::function<void(backend::AiCores &)> work) {
  return [ranges = std::move(ranges), work = std::move(work)](ExecContext &ctx) {
    run_on_host(ctx, ranges, work);
  };
}

}  // namespace openacl::dvpp::api
