#include "model/model.h"

#include <cstring>

#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "model/dump.h"
#include "model/onnx_import.h"
#include "model/optimize.h"

namespace openacl::model {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kMaxPlans = 8;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// The constants that nodes read, in a fixed order, with their offsets in the weight blob.
std::vector<std::pair<int, size_t>> weight_layout(const Graph &g, size_t &total) {
  std::vector<bool> seen(g.values.size(), false);
  std::vector<std::pair<int, size_t>> layout;
  total = 0;
  for (const Node &n : g.nodes)
    for (int v : n.inputs)
      if (v >= 0 && g.values[v].constant && !seen[v]) {
        seen[v] = true;
        layout.push_back({v, total});
        total += align_up(g.values[v].constant->data.size());
      }
  return layout;
}

bool is_static(const std::vector<int64_t> &dims) {
  for (auto d : dims)
    if (d < 0) return false;
  return true;
}

}  // namespace

Graph compile(const void *data, size_t size) {
  Graph g = fold_constants(import_onnx(data, size));
  fuse_hard_swish(g);
  fuse_conv_affine(g);
  remove_dead_nodes(g);
  return g;
}

ModelSizes query_sizes(const Graph &graph) {
  ModelSizes s;
  weight_layout(graph, s.weight);
  std::vector<std::vector<int64_t>> dims;
  for (int v : graph.inputs) {
    if (!is_static(graph.values[v].desc.dims)) return s;
    dims.push_back(graph.values[v].desc.dims);
  }
  Plan plan(graph, {}, dims, nullptr);
  s.work = plan.workspace_bytes() + plan.constant_bytes();
  return s;
}

Model::Model(Graph graph, std::shared_ptr<Context> context, const MemoryOptions &memory,
             const std::string &file_stem)
    : graph_(std::move(graph)), context_(std::move(context)), device_(context_->device()), memory_(memory) {
  if (!file_stem.empty()) names_.push_back(file_stem);
  if (!graph_.name.empty()) names_.push_back(graph_.name);
  if (names_.empty()) names_.push_back("model");
  for (int v : graph_.inputs) inputs_.push_back({graph_.values[v].name, graph_.values[v].desc});
  for (int v : graph_.outputs) outputs_.push_back({graph_.values[v].name, graph_.values[v].desc});

  const auto layout = weight_layout(graph_, weight_bytes_);
  if (memory_.weights) {
    if (memory_.weight_size < weight_bytes_)
      fail(Errc::invalid_argument, "the weight memory given holds " + std::to_string(memory_.weight_size) +
                                       " bytes; the model needs " + std::to_string(weight_bytes_) + " (aclmdlQuerySize)");
    weights_ = memory_.weights;
  } else if (weight_bytes_) {
    weights_ = device_.allocate(weight_bytes_);
  }
  // The sim device's memory is host-addressable: the upload is a plain copy.
  for (auto &[v, offset] : layout) {
    auto *dst = static_cast<uint8_t *>(weights_) + offset;
    const auto &data = graph_.values[v].constant->data;
    if (!data.empty()) std::memcpy(dst, data.data(), data.size());
    weight_ptrs_[v] = dst;
  }

  try {
    std::vector<std::vector<int64_t>> dims;
    for (const auto &in : inputs_) dims.push_back(in.desc.dims);
    bool all_static = true;
    for (const auto &d : dims) all_static = all_static && is_static(d);
    if (all_static) {
      auto plan = plan_for(dims);
      for (size_t j = 0; j < outputs_.size(); ++j) outputs_[j].desc = plan->output_descs()[j];
      if (memory_.work && memory_.work_size < plan->workspace_bytes())
        fail(Errc::invalid_argument, "the work memory given holds " + std::to_string(memory_.work_size) +
                                         " bytes; the model needs " + std::to_string(plan->workspace_bytes()) +
                                         " (aclmdlQuerySize)");
    }
  } catch (...) {
    plans_.clear();
    if (weights_ && !memory_.weights) device_.release(weights_);
    throw;
  }
  for (const auto &o : outputs_) current_outputs_.push_back(o.desc.dims);
}

Model::~Model() {
  plans_.clear();
  // After aclFinalize (or the end of the context) the device memory is already gone.
  if (weights_ && !memory_.weights && !context_->destroyed()) device_.release(weights_);
}

std::shared_ptr<const Plan> Model::plan_for(const std::vector<std::vector<int64_t>> &input_dims) {
  std::lock_guard lock(mu_);
  for (auto it = plans_.begin(); it != plans_.end(); ++it) {
    if ((*it)->input_dims() == input_dims) {
      plans_.splice(plans_.begin(), plans_, it);
      return plans_.front();
    }
  }
  auto plan = std::make_shared<const Plan>(graph_, weight_ptrs_, input_dims, &device_, context_);
  if (memory_.work && memory_.work_size < plan->workspace_bytes())
    fail(Errc::model_input_not_match, "these input shapes need " + std::to_string(plan->workspace_bytes()) +
                                          " bytes of work memory; the model was loaded with " +
                                          std::to_string(memory_.work_size));
  plans_.push_front(plan);
  if (plans_.size() > kMaxPlans) plans_.pop_back();  // in-flight executions keep theirs alive
  return plan;
}

std::unique_ptr<Task> Model::make_task(std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                                       std::vector<void *> outputs, std::shared_ptr<std::exception_ptr> error,
                                       void *workspace) {
  {
    std::lock_guard lock(mu_);
    for (size_t j = 0; j < outputs_.size(); ++j) current_outputs_[j] = plan->output_descs()[j].dims;
  }
  const std::string label = "model " + (graph_.name.empty() ? std::string("onnx") : graph_.name);
  std::shared_ptr<const StepDumper> dumper = StepDumper::create(
      Runtime::get().dump().active(), names_, id_.load(std::memory_order_relaxed), device_.id(),
      executions_.fetch_add(1, std::memory_order_relaxed));
  std::vector<std::pair<const void *, size_t>> reads, writes;
  for (size_t i = 0; i < inputs.size(); ++i) reads.push_back({inputs[i], plan->input_descs()[i].byte_size()});
  for (size_t j = 0; j < outputs.size(); ++j) writes.push_back({outputs[j], plan->output_descs()[j].byte_size()});
  auto task = std::make_unique<FunctionTask>(
      TaskKind::model, label,
      [self = shared_from_this(), plan, inputs = std::move(inputs), outputs = std::move(outputs), error,
       dumper, workspace](ExecContext &ctx) {
        std::unique_lock<std::mutex> turn;
        if (self->memory_.work && !workspace) turn = std::unique_lock(self->work_mu_);
        auto state = plan->acquire(workspace ? workspace : self->memory_.work);
        try {
          if (dumper) {
            const Plan::StepHook hook = [&](size_t i, const PlanStep &st, const std::vector<ops::Tensor> &in,
                                            const std::vector<ops::Tensor> &out) { (*dumper)(i, st, in, out); };
            plan->run(*state, inputs, outputs, ctx.cores, &hook);
          } else {
            plan->run(*state, inputs, outputs, ctx.cores);
          }
        } catch (...) {
          plan->give_back(std::move(state));
          if (error) *error = std::current_exception();
          throw;
        }
        plan->give_back(std::move(state));
      });
  for (auto &[p, n] : reads) task->add_range(p, n, false);
  for (auto &[p, n] : writes) task->add_range(p, n, true);
  return task;
}

uint64_t Model::enqueue(Stream &stream, std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                        std::vector<void *> outputs, void *workspace) {
  auto task = make_task(plan, std::move(inputs), std::move(outputs), nullptr, workspace);
  if (workspace) task->add_range(workspace, plan->workspace_bytes(), true);
  return stream.enqueue(std::move(task));
}

void Model::execute(Stream &stream, std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                    std::vector<void *> outputs, int32_t timeout_ms) {
  auto error = std::make_shared<std::exception_ptr>();
  const uint64_t seq = stream.enqueue(make_task(std::move(plan), std::move(inputs), std::move(outputs), error));
  if (!stream.wait_for(seq, timeout_ms))
    fail(Errc::stream_sync_timeout, "the model execution did not finish within " + std::to_string(timeout_ms) +
                                        " ms (ACL_MDL_STREAM_SYNC_TIMEOUT); it stays queued on the stream");
  if (*error) std::rethrow_exception(*error);
  // Skipped because an earlier task failed the stream (R20).
  if (auto failure = stream.failure()) throw *failure;
}

std::vector<int64_t> Model::current_output_dims(size_t index) const {
  std::lock_guard lock(mu_);
  return current_outputs_.at(index);
}

}  // namespace openacl::model
