#include "model/model.h"

#include <optional>

#include "acl/acl_mdl.h"
#include "backend/backend.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "model/convert.h"
#include "model/dump.h"
#include "model/om_file.h"
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

// AIPP turns the caller's images at src (src_bytes) into graph input dst (desc), from a host
// view of the one into a host view of the other: a backend may stage both.
void convert_input(backend::DeviceBackend &device, const AippOp &op,
                   const std::vector<AippParams> &dynamic, const AippParams &fixed,
                   const ops::TensorDesc &desc, const void *src, size_t src_bytes, void *dst) {
  using Access = backend::DeviceBackend::Access;
  const backend::HostView from(device, src, src_bytes, Access::read);
  const backend::HostView to(device, dst, desc.byte_size(), Access::write);
  const auto *images = static_cast<const uint8_t *>(from.data());
  auto *out = static_cast<uint8_t *>(to.data());
  if (!op.dynamic) return run_aipp(fixed, images, desc.dims[0], out, desc.dtype);
  const size_t per_image = desc.byte_size() / desc.dims[0];
  for (const AippParams &image : dynamic) {  // the images lie one after another
    run_aipp(image, images, 1, out, desc.dtype);
    images += image.image_bytes();
    out += per_image;
  }
}

bool is_static(const std::vector<int64_t> &dims) {
  for (auto d : dims)
    if (d < 0) return false;
  return true;
}

}  // namespace

Graph optimize(Graph graph) {
  Graph g = fold_constants(graph);
  fuse_hard_swish(g);
  fuse_conv_affine(g);
  fuse_activation_affine(g);
  remove_dead_nodes(g);
  return g;
}

Graph compile(const void *data, size_t size) {
  if (is_huawei_om(data, size))
    fail(Errc::parse_model,
         "the model is a .om made by Huawei's ATC for an Ascend NPU, which openacl cannot "
         "run: export the original model to ONNX and convert that with openacl's atc "
         "(--framework=5), or load the ONNX file directly");
  if (!is_openacl_om(data, size)) return optimize(import_onnx(data, size));
  const OmFile om = read_om(data, size);
  Graph g = import_onnx(om.onnx, om.onnx_size);
  apply_options(g, om.options);
  return optimize(std::move(g));
}

namespace {

// The shapes of the graph's inputs that describe the model: the static ones, or the gear whose
// inputs take the most bytes (its index in `gear`); empty when some dims are dynamic.
std::vector<std::vector<int64_t>> describing_dims(const Graph &g, size_t *gear = nullptr) {
  const Gears &gears = g.conversion.gears;
  if (!gears.empty()) {
    size_t best = 0;
    int64_t best_elems = -1;
    for (size_t i = 0; i < gears.values.size(); ++i) {
      int64_t elems = 0;
      for (const auto &d : gears.dims_of(i)) {
        ops::TensorDesc desc;
        desc.dims = d;
        elems += desc.element_count();
      }
      if (elems > best_elems) best = i, best_elems = elems;
    }
    if (gear) *gear = best;
    return gears.dims_of(best);
  }
  std::vector<std::vector<int64_t>> dims;
  for (int v : g.inputs) {
    if (!is_static(g.values[v].desc.dims)) return {};
    dims.push_back(g.values[v].desc.dims);
  }
  return dims;
}

// The static AIPP of graph input `input` for its dims in an execution: with image size gears
// each gear has its own image size, so the configured parameters are fitted to the gear's.
AippParams fitted_aipp(const Graph &g, const AippOp &op, std::vector<int64_t> dims) {
  if (g.conversion.gears.kind != GearKind::image_size) return op.params;
  AippParams p = op.configured;
  dims[0] = 1;
  fit_aipp(p, dims);
  return p;
}

}  // namespace

Interface describe(const Graph &g, const Plan *largest) {
  Interface io;
  size_t gear = 0;
  const auto dims = describing_dims(g, &gear);
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const auto &v = g.values[g.inputs[i]];
    ops::TensorDesc d = v.desc;
    if (!dims.empty()) d.dims = dims[i];
    io.inputs.push_back({v.name, v.desc, dims.empty() ? 0 : d.byte_size()});
    if (const AippOp *op = g.conversion.aipp_of(i)) {
      // The caller gives uint8 images (as many as the batch, the largest gear's with gears);
      // AIPP makes the graph's input of them. Dynamic AIPP learns their size per execution.
      auto &in = io.inputs.back();
      if (op->dynamic) {
        in.desc.dtype = ops::DType::u8;
        in.desc.format = ops::Format::nd;
        in.desc.dims = {static_cast<int64_t>(op->max_src_bytes)};
        in.bytes = op->max_src_bytes;
      } else {
        in.desc = aipp_source_desc(op->params, v.desc.dims[0]);
        if (g.conversion.gears.kind == GearKind::image_size) in.desc.dims[1] = in.desc.dims[2] = -1;
        in.bytes = dims.empty() ? 0 : fitted_aipp(g, *op, dims[i]).image_bytes() * dims[i][0];
      }
    }
  }
  const Gears &gears = g.conversion.gears;
  if (const size_t n = gears.value_count()) {
    ops::TensorDesc d;
    d.dtype = ops::DType::u64;
    d.dims = {static_cast<int64_t>(n)};
    io.inputs.push_back({ACL_DYNAMIC_TENSOR_NAME, d, d.byte_size()});
  }
  for (const auto &op : g.conversion.aipp)
    if (op.dynamic) {
      ops::TensorDesc d;
      d.dtype = ops::DType::u8;
      d.dims = {
          static_cast<int64_t>(dynamic_aipp_bytes(g.values[g.inputs[op.input]].desc.dims[0]))};
      io.inputs.push_back({ACL_DYNAMIC_AIPP_NAME, d, d.byte_size()});
    }
  for (int v : g.outputs) io.outputs.push_back({g.values[v].name, g.values[v].desc, 0});
  if (dims.empty()) return io;
  std::optional<Plan> own;
  if (!largest) largest = &own.emplace(g, std::unordered_map<int, const void *>{}, dims, nullptr);
  std::optional<Plan> other;  // another gear: the output dims that differ are the gear's (-1)
  if (!gears.empty())
    other.emplace(g, std::unordered_map<int, const void *>{}, gears.dims_of(gear == 0 ? 1 : 0),
                  nullptr);
  for (size_t j = 0; j < io.outputs.size(); ++j) {
    ops::TensorDesc d = largest->output_descs()[j];
    io.outputs[j].bytes = d.byte_size();
    if (other)
      for (size_t k = 0; k < d.dims.size(); ++k)
        if (k >= other->output_descs()[j].dims.size() ||
            other->output_descs()[j].dims[k] != d.dims[k])
          d.dims[k] = -1;
    io.outputs[j].desc = d;
  }
  return io;
}

ModelSizes query_sizes(const Graph &graph) {
  ModelSizes s;
  weight_layout(graph, s.weight);
  const Gears &gears = graph.conversion.gears;
  std::vector<std::vector<std::vector<int64_t>>> shapes;
  for (size_t i = 0; i < gears.values.size(); ++i) shapes.push_back(gears.dims_of(i));
  if (gears.empty()) shapes.push_back(describing_dims(graph));
  for (const auto &dims : shapes) {
    if (dims.size() != graph.inputs.size()) return s;  // dynamic: no fixed size
    Plan plan(graph, {}, dims, nullptr);
    s.work = std::max(s.work, plan.workspace_bytes() + plan.constant_bytes());
  }
  return s;
}

Model::Model(Graph graph, std::shared_ptr<Context> context, const MemoryOptions &memory,
             const std::string &file_stem)
    : graph_(std::move(graph)),
      context_(std::move(context)),
      device_(context_->device()),
      memory_(memory) {
  if (!file_stem.empty()) names_.push_back(file_stem);
  if (!graph_.name.empty()) names_.push_back(graph_.name);
  if (names_.empty()) names_.push_back("model");

  const auto layout = weight_layout(graph_, weight_bytes_);
  if (memory_.weights) {
    if (memory_.weight_size < weight_bytes_)
      fail(Errc::invalid_argument,
           "the weight memory given holds " + std::to_string(memory_.weight_size) +
               " bytes; the model needs " + std::to_string(weight_bytes_) + " (aclmdlQuerySize)");
    weights_ = memory_.weights;
  } else if (weight_bytes_) {
    weights_ = device_.allocate(weight_bytes_);
  }
  for (auto &[v, offset] : layout) {
    auto *dst = static_cast<uint8_t *>(weights_) + offset;
    const auto &data = graph_.values[v].constant->data;
    if (!data.empty()) device_.backend().copy(dst, data.data(), data.size());
    weight_ptrs_[v] = dst;
  }

  try {
    std::shared_ptr<const Plan> plan;
    if (auto dims = describing_dims(graph_); !dims.empty()) plan = plan_for(dims);
    Interface io = describe(graph_, plan.get());
    inputs_ = std::move(io.inputs);
    outputs_ = std::move(io.outputs);
    if (plan) {
      if (memory_.work && memory_.work_size < plan->workspace_bytes())
        fail(Errc::invalid_argument,
             "the work memory given holds " + std::to_string(memory_.work_size) +
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
  const Gears &gears = graph_.conversion.gears;
  if (!gears.empty() && gears.find(input_dims) == Gears::npos) {
    std::string shapes;
    for (const auto &d : input_dims) {
      shapes += shapes.empty() ? "" : ", ";
      shapes += ops::dims_str(d);
    }
    fail(Errc::model_input_not_match, "input shapes " + shapes +
                                          " are no gear of the model (converted with " +
                                          gear_option(gears.kind) +
                                          "): pick a gear with aclmdlSetDynamicBatchSize, "
                                          "aclmdlSetDynamicHWSize or aclmdlSetInputDynamicDims");
  }
  std::lock_guard lock(mu_);
  for (auto it = plans_.begin(); it != plans_.end(); ++it) {
    if ((*it)->input_dims() == input_dims) {
      plans_.splice(plans_.begin(), plans_, it);
      return plans_.front();
    }
  }
  auto plan = std::make_shared<const Plan>(graph_, weight_ptrs_, input_dims, &device_, context_);
  if (memory_.work && memory_.work_size < plan->workspace_bytes())
    fail(Errc::model_input_not_match, "these input shapes need " +
                                          std::to_string(plan->workspace_bytes()) +
                                          " bytes of work memory; the model was loaded with " +
                                          std::to_string(memory_.work_size));
  plans_.push_front(plan);
  if (plans_.size() > kMaxPlans) plans_.pop_back();  // in-flight executions keep theirs alive
  return plan;
}

std::unique_ptr<Task> Model::make_task(std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                                       std::vector<void *> outputs,
                                       std::shared_ptr<std::exception_ptr> error, void *workspace) {
  // The extra inputs only chose the plan (gears) or carry dynamic AIPP's parameters.
  const void *aipp_data = nullptr;
  size_t aipp_data_bytes = 0;
  if (const size_t at = dynamic_aipp_input(); at < inputs.size()) {
    aipp_data = inputs[at];
    aipp_data_bytes = inputs_[at].bytes;
  }
  inputs.resize(plan->input_descs().size());
  std::vector<const AippOp *> aipp(inputs.size());
  // Dynamic AIPP's parameters are read when the execution is queued: aclmdlSetInputAIPP wrote
  // them before it returned, and bad ones fail the call instead of the stream.
  std::vector<std::vector<AippParams>> dynamic(inputs.size());
  std::vector<AippParams> fixed(inputs.size());  // static AIPP, fitted to this plan's dims
  for (size_t i = 0; i < inputs.size(); ++i) {
    aipp[i] = graph_.conversion.aipp_of(i);
    if (aipp[i] && aipp[i]->dynamic) dynamic[i] = dynamic_params(aipp_data, aipp_data_bytes, i);
    if (aipp[i] && !aipp[i]->dynamic)
      fixed[i] = fitted_aipp(graph_, *aipp[i], plan->input_descs()[i].dims);
  }
  {
    std::lock_guard lock(mu_);
    for (size_t j = 0; j < outputs_.size(); ++j) current_outputs_[j] = plan->output_descs()[j].dims;
  }
  const std::string label = "model " + (graph_.name.empty() ? std::string("onnx") : graph_.name);
  std::shared_ptr<const StepDumper> dumper = StepDumper::create(
      Runtime::get().dump().active(), names_, id_.load(std::memory_order_relaxed), device_.id(),
      executions_.fetch_add(1, std::memory_order_relaxed));
  std::shared_ptr<OpTimeSink> sink;
  {
    std::lock_guard lock(mu_);
    sink = op_sink_;
  }
  std::vector<std::pair<const void *, size_t>> reads, writes;
  std::vector<size_t> image_bytes(inputs.size());  // what AIPP reads of each input
  for (size_t i = 0; i < inputs.size(); ++i) {
    image_bytes[i] = input_bytes(*plan, i);
    reads.push_back({inputs[i], image_bytes[i]});
  }
  for (size_t j = 0; j < outputs.size(); ++j)
    writes.push_back({outputs[j], plan->output_descs()[j].byte_size()});
  auto task = std::make_unique<FunctionTask>(
      TaskKind::model, label,
      [self = shared_from_this(), plan, inputs = std::move(inputs), outputs = std::move(outputs),
       error, dumper, sink, workspace, aipp = std::move(aipp), dynamic = std::move(dynamic),
       fixed = std::move(fixed), image_bytes = std::move(image_bytes)](ExecContext &ctx) {
        backend::DeviceBackend &device = ctx.device.backend();
        std::unique_lock<std::mutex> turn;
        if (self->memory_.work && !workspace) turn = std::unique_lock(self->work_mu_);
        auto state = plan->acquire(workspace ? workspace : self->memory_.work);
        try {
          std::vector<void *> graph_inputs = inputs;
          for (size_t i = 0; i < inputs.size(); ++i) {
            if (!aipp[i]) continue;
            graph_inputs[i] = state->converted_input(i);
            convert_input(device, *aipp[i], dynamic[i], fixed[i], plan->input_descs()[i], inputs[i],
                          image_bytes[i], graph_inputs[i]);
          }
          if (dumper) {
            const Plan::StepHook hook =
                [&](size_t i, const PlanStep &st, const std::vector<ops::Tensor> &in,
                    const std::vector<ops::Tensor> &out) { (*dumper)(device, i, st, in, out); };
            plan->run(*state, graph_inputs, outputs, device, ctx.cores, &hook, sink != nullptr);
          } else {
            plan->run(*state, graph_inputs, outputs, device, ctx.cores, nullptr, sink != nullptr);
          }
          if (sink) sink->on_ops(self->id(), state->spans);
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

uint64_t Model::enqueue(Stream &stream, std::shared_ptr<const Plan> plan,
                        std::vector<void *> inputs, std::vector<void *> outputs, void *workspace) {
  auto task = make_task(plan, std::move(inputs), std::move(outputs), nullptr, workspace);
  if (workspace) task->add_range(workspace, plan->workspace_bytes(), true);
  return stream.enqueue(std::move(task));
}

void Model::execute(Stream &stream, std::shared_ptr<const Plan> plan, std::vector<void *> inputs,
                    std::vector<void *> outputs, int32_t timeout_ms) {
  auto error = std::make_shared<std::exception_ptr>();
  const uint64_t seq = stream.enqueue(
      make_task(std::move(plan), std::move(inputs), std::move(outputs), error), timeout_ms < 0);
  if (!stream.wait_for(seq, timeout_ms))
    fail(Errc::stream_sync_timeout,
         "the model execution did not finish within " + std::to_string(timeout_ms) +
             " ms (ACL_MDL_STREAM_SYNC_TIMEOUT); it stays queued on the stream");
  if (*error) std::rethrow_exception(*error);
  // Skipped because an earlier task failed the stream (R20).
  if (auto failure = stream.failure()) throw *failure;
}

std::shared_ptr<OpTimeSink> Model::set_op_sink(std::shared_ptr<OpTimeSink> sink) {
  std::lock_guard lock(mu_);
  std::swap(op_sink_, sink);
  return sink;
}

std::vector<std::vector<int64_t>> Model::graph_input_dims(
    std::vector<std::vector<int64_t>> dims) const {
  dims.resize(graph_.inputs.size());
  if (!graph_.conversion.gears.empty()) return dims;  // a gear's dims are the graph's already
  for (size_t i = 0; i < dims.size(); ++i)
    if (graph_.conversion.aipp_of(i)) dims[i] = graph_.values[graph_.inputs[i]].desc.dims;
  return dims;
}

size_t Model::input_bytes(const Plan &plan, size_t i) const {
  if (i >= plan.input_descs().size()) return inputs_.at(i).bytes;
  const auto &desc = plan.input_descs()[i];
  if (const AippOp *op = graph_.conversion.aipp_of(i))
    return op->dynamic ? inputs_.at(i).bytes
                       : fitted_aipp(graph_, *op, desc.dims).image_bytes() * desc.dims[0];
  return desc.byte_size();
}

size_t Model::dynamic_aipp_input() const {
  for (size_t i = graph_.inputs.size(); i < inputs_.size(); ++i)
    if (inputs_[i].name == ACL_DYNAMIC_AIPP_NAME) return i;
  return inputs_.size();
}

std::vector<AippParams> Model::dynamic_params(const void *data, size_t size, size_t input) const {
  const backend::HostView view(device_.backend(), data, size, backend::DeviceBackend::Access::read);
  auto images = read_dynamic_aipp(view.data(), size);
  check_dynamic_aipp(images, input);
  return images;
}

void Model::check_dynamic_aipp(std::vector<AippParams> &images, size_t input) const {
  const auto &dims = graph_.values[graph_.inputs.at(input)].desc.dims;
  const AippOp *op = graph_.conversion.aipp_of(input);
  if (static_cast<int64_t>(images.size()) != dims[0])
    fail(Errc::invalid_argument,
         "the AIPP parameters are for " + std::to_string(images.size()) +
             " images (aclmdlCreateAIPP); the model input takes a batch of " +
             std::to_string(dims[0]));
  size_t total = 0;
  for (size_t b = 0; b < images.size(); ++b) {
    if (images[b].src_w <= 0 || images[b].src_h <= 0)
      fail(Errc::invalid_argument,
           "image " + std::to_string(b) + " has no source size (aclmdlSetAIPPSrcImageSize)");
    images[b].nhwc = op->configured.nhwc;  // the model's layout, not the caller's to set
    fit_aipp(images[b], dims, Errc::invalid_argument, "dynamic AIPP of image " + std::to_string(b));
    total += images[b].image_bytes();
  }
  if (total > op->max_src_bytes)
    fail(Errc::invalid_argument, "the images take " + std::to_string(total) +
                                     " bytes; the model was converted for at "
                                     "most " +
                                     std::to_string(op->max_src_bytes) + " (max_src_image_size)");
}

void Model::write_gear(void *buffer, size_t gear) const {
  const auto &values = graph_.conversion.gears.values.at(gear);
  std::vector<uint64_t> data(values.begin(), values.end());
  device_.backend().copy(buffer, data.data(), data.size() * sizeof(uint64_t));
}

void Model::write_aipp_params(void *buffer, const std::vector<AippParams> &images) const {
  std::vector<uint8_t> record(dynamic_aipp_bytes(images.size()));
  write_dynamic_aipp(record.data(), images);
  device_.backend().copy(buffer, record.data(), record.size());
}

std::vector<int64_t> Model::current_output_dims(size_t index) const {
  std::lock_guard lock(mu_);
  return current_outputs_.at(index);
}

}  // namespace openacl::model
