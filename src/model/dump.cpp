#include "model/dump.h"

#include <chrono>
#include <filesystem>

#include "core/status.h"
#include "ops/dump.h"

namespace openacl::model {
namespace {

// Node names such as "/backbone/conv1/Conv" become one path component, as CANN does.
std::string file_safe(std::string s) {
  for (char &ch : s)
    if (ch == '/' || ch == '\\' || ch == ' ' || ch == ':') ch = '_';
  return s;
}

}  // namespace

std::unique_ptr<StepDumper> StepDumper::create(std::shared_ptr<const DumpConfig> config,
                                               std::vector<std::string> model_names,
                                               uint32_t model_id, int32_t device,
                                               uint64_t iteration) {
  if (!config || !config->wants_model(model_names)) return nullptr;
  auto d = std::make_unique<StepDumper>();
  d->dir_ = config->path + "/" + config->started + "/" + std::to_string(device) + "/" +
            file_safe(model_names.front()) + "/" + std::to_string(model_id) + "/" +
            std::to_string(iteration);
  d->config_ = std::move(config);
  d->model_names_ = std::move(model_names);
  std::error_code ec;
  std::filesystem::create_directories(d->dir_, ec);
  if (ec) fail(Errc::task_failure, "model dump: cannot create '" + d->dir_ + "': " + ec.message());
  return d;
}

void StepDumper::operator()(backend::DeviceBackend &device, size_t index, const PlanStep &step,
                            const std::vector<ops::Tensor> &in,
                            const std::vector<ops::Tensor> &out) const {
  if (!config_->wants(model_names_, step.node)) return;
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  const std::string base = dir_ + "/" + step.type + "." + file_safe(step.node) + "." +
                           std::to_string(index) + "." + std::to_string(us);
  if (config_->inputs)
    for (size_t k = 0; k < in.size(); ++k)
      ops::write_dump_tensor(device, base + ".input." + std::to_string(k) + ".npy", in[k]);
  if (config_->outputs)
    for (size_t k = 0; k < out.size(); ++k)
      ops::write_dump_tensor(device, base + ".output." + std::to_string(k) + ".npy", out[k]);
}

}  // namespace openacl::model
