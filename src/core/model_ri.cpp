#include "core/model_ri.h"

#include "core/stream.h"

namespace openacl {

void ModelRI::add(Step step) {
  std::lock_guard lock(mu_);
  steps_.push_back(std::move(step));
}

void ModelRI::add(std::unique_ptr<Task> task) {
  std::shared_ptr<const Task> model(std::move(task));
  if (!model->replica(origin())) {
    std::lock_guard lock(mu_);
    if (!invalid_) invalid_ = "a " + model->label() + " task cannot be captured";
    return;
  }
  add(Step{model->kind(), model->label(),
           [model](const std::shared_ptr<Stream> &s) { s->enqueue(model->replica(s)); }});
}

std::optional<std::string> ModelRI::invalid() const {
  std::lock_guard lock(mu_);
  return invalid_;
}

void ModelRI::end_capture() {
  std::lock_guard lock(mu_);
  capturing_ = false;
}

bool ModelRI::capturing() const {
  std::lock_guard lock(mu_);
  return capturing_;
}

void ModelRI::launch(const std::shared_ptr<Stream> &target) const {
  std::vector<Step> steps;
  {
    std::lock_guard lock(mu_);
    steps = steps_;
  }
  // Unlocked: the target may itself be capturing, into another instance.
  for (const Step &step : steps) step.submit(target);
}

std::vector<std::pair<TaskKind, std::string>> ModelRI::describe() const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<TaskKind, std::string>> out;
  for (const Step &step : steps_) out.emplace_back(step.kind, step.label);
  return out;
}

void ModelRI::set_name(std::string name) {
  std::lock_guard lock(mu_);
  name_ = std::move(name);
}

std::string ModelRI::name() const {
  std::lock_guard lock(mu_);
  return name_;
}

}  // namespace openacl
