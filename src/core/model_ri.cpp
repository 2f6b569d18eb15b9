#include "core/model_ri.h"

#include "core/context.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"

namespace openacl {

ModelRI::ModelRI(const std::shared_ptr<Stream> &origin, int32_t mode, uint32_t thread)
    : context_(origin->context().shared_from_this()), mode_(mode), thread_(thread) {
  lanes_.push_back(Lane{origin});
}

ModelRI::~ModelRI() {
  // The side streams are the instance's own: unregister them (pending launches still finish),
  // unless their context has released them already.
  auto ctx = context_.lock();
  if (!ctx || ctx->destroyed()) return;
  for (auto &s : side_streams_) {
    Runtime::get().streams.remove(s->handle());
    ctx->forget_stream(s.get());
  }
}

std::shared_ptr<Stream> ModelRI::origin() const {
  std::lock_guard lock(mu_);
  return lanes_.front().stream.lock();
}

uint32_t ModelRI::join(const std::shared_ptr<Stream> &stream) {
  std::lock_guard lock(mu_);
  lanes_.push_back(Lane{stream});
  return static_cast<uint32_t>(lanes_.size() - 1);
}

std::vector<std::shared_ptr<Stream>> ModelRI::lanes() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<Stream>> out;
  for (const Lane &l : lanes_) {
    if (auto s = l.stream.lock()) out.push_back(std::move(s));
  }
  return out;
}

void ModelRI::add(Step step) {
  std::lock_guard lock(mu_);
  Lane &lane = lanes_.at(step.lane);
  ++lane.steps;
  if (step.lane != 0) lane.joined = false;
  if (steps_.use_count() > 1) steps_ = std::make_shared<std::vector<Step>>(*steps_);
  steps_->push_back(std::move(step));
}

void ModelRI::add(std::unique_ptr<Task> task, uint32_t lane) {
  std::shared_ptr<const Task> model(std::move(task));
  if (!model->replica(origin())) {
    std::lock_guard lock(mu_);
    if (!invalid_) invalid_ = "a " + model->label() + " task cannot be captured";
    return;
  }
  add(Step{model->kind(), model->label(),
           [model](const std::shared_ptr<Stream> &s) {
             std::unique_ptr<Task> task = model->replica(s);
             // Resource limits apply as they were at capture (aclrtSetDeviceResLimit); the
             // overflow check, when the capture's stream or the launch's has it on.
             task->core_limit = model->core_limit;
             task->overflow_check = model->overflow_check;
             s->enqueue(std::move(task));
           },
           lane});
}

void ModelRI::recorded(const Event *event, uint32_t lane) {
  std::lock_guard lock(mu_);
  records_[event] = Record{lane, lanes_.at(lane).steps};
}

void ModelRI::waited(const Event *event, uint32_t lane) {
  std::lock_guard lock(mu_);
  auto it = records_.find(event);
  if (lane != 0 || it == records_.end() || it->second.lane == 0) return;
  Lane &side = lanes_.at(it->second.lane);
  if (it->second.lane_steps == side.steps) side.joined = true;
}

std::vector<uint32_t> ModelRI::unjoined() const {
  std::lock_guard lock(mu_);
  std::vector<uint32_t> out;
  for (uint32_t i = 1; i < lanes_.size(); ++i) {
    if (!lanes_[i].joined) out.push_back(i);
  }
  return out;
}

std::optional<std::string> ModelRI::invalid() const {
  std::lock_guard lock(mu_);
  return invalid_;
}

void ModelRI::end_capture() {
  std::vector<std::shared_ptr<Stream>> joined;
  {
    std::lock_guard lock(mu_);
    if (!capturing_) return;
    capturing_ = false;
    for (size_t i = 1; i < lanes_.size(); ++i) {
      if (auto s = lanes_[i].stream.lock()) joined.push_back(std::move(s));
    }
  }
  for (auto &s : joined) s->end_capture();
}

bool ModelRI::capturing() const {
  std::lock_guard lock(mu_);
  return capturing_;
}

void ModelRI::launch(const std::shared_ptr<Stream> &target) {
  std::lock_guard launching(launch_mu_);
  std::shared_ptr<const std::vector<Step>> steps;
  size_t lanes;
  {
    std::lock_guard lock(mu_);
    steps = steps_;
    lanes = lanes_.size();
  }
  auto ctx = context_.lock();
  if (ctx.get() != &target->context() || ctx->destroyed()) {
    fail(Errc::stream_context,
         "a model run instance runs only on streams of the context it was captured in");
  }
  while (side_streams_.size() + 1 < lanes) side_streams_.push_back(ctx->create_stream(0, 0));
  // Unlocked (mu_): a stream of this launch may itself be capturing, into another instance.
  for (const Step &step : *steps)
    step.submit(step.lane == 0 ? target : side_streams_[step.lane - 1]);
}

std::vector<ModelRI::Step> ModelRI::steps() const {
  std::lock_guard lock(mu_);
  return *steps_;
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
