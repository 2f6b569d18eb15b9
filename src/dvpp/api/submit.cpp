#include "dvpp/api/submit.h"

#include <memory>

#include "api/handles.h"
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
  auto task = std::make_unique<FunctionTask>(
      TaskKind::dvpp, std::move(label),
      [work = std::move(work)](ExecContext &ctx) { work(ctx.cores); });
  for (const auto &r : ranges) task->add_range(r.p, r.n, r.write);
  s->enqueue(std::move(task));
}

}  // namespace openacl::dvpp::api
