#include "model/execution.h"

#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::model {
namespace {

const char *gear_call(GearKind kind) {
  return kind == GearKind::batch        ? "aclmdlSetDynamicBatchSize"
         : kind == GearKind::image_size ? "aclmdlSetDynamicHWSize"
                                        : "aclmdlSetInputDynamicDims";
}

std::string io_text(const char *what, size_t i, const ModelIo &io) {
  return std::string(what) + " " + std::to_string(i) + " ('" + io.name + "')";
}

// The model inputs' dims for this execution: the gear's, or the datasets' descriptors'.
std::vector<std::vector<int64_t>> input_dims(const Model &model, const Bindings &b) {
  const auto &model_in = model.inputs();
  const Gears &gears = model.gears();
  if (!gears.empty()) {
    if (b.gear >= gears.values.size())
      fail(Errc::model_input_not_match,
           std::string("the input dataset has no gear chosen: pick one with ") +
               gear_call(gears.kind));
    return gears.dims_of(b.gear);
  }
  std::vector<std::vector<int64_t>> dims;
  for (size_t i = 0; i < model_in.size(); ++i) {
    const InputBinding &in = b.inputs[i];
    const std::string what = io_text("input", i, model_in[i]);
    if (in.described && in.dtype != ops::DType::undefined && in.dtype != model_in[i].desc.dtype)
      fail(Errc::model_input_not_match, what + " is " + ops::dtype_name(model_in[i].desc.dtype) +
                                            "; the dataset's tensor descriptor says " +
                                            ops::dtype_name(in.dtype));
    std::vector<int64_t> d =
        in.described ? std::vector<int64_t>(in.dims.begin(), in.dims.end()) : model_in[i].desc.dims;
    for (auto x : d)
      if (x < 0)
        fail(Errc::model_input_not_match, what + " has dynamic dims " +
                                              dims_text(model_in[i].desc.dims) +
                                              ": give its shape with aclmdlSetDatasetTensorDesc");
    dims.push_back(std::move(d));
  }
  return dims;
}

}  // namespace

std::string dims_text(const std::vector<int64_t> &dims) {
  std::string s;
  for (auto d : dims) {
    if (!s.empty()) s += 'x';
    s += d < 0 ? std::string("?") : std::to_string(d);
  }
  return "[" + s + "]";
}

Execution bind(Model &model, const Stream &stream, const Bindings &b,
               const std::function<void(const std::vector<ops::TensorDesc> &)> &output_shapes) {
  if (&stream.device() != &model.context().device())
    fail(Errc::stream_context, "model " + std::to_string(model.id()) + " was loaded on device " +
                                   std::to_string(model.context().device().id()) +
                                   "; the stream belongs to device " +
                                   std::to_string(stream.device().id()));
  const auto &model_in = model.inputs();
  const auto &model_out = model.outputs();
  if (b.inputs.size() != model_in.size())
    fail(Errc::model_input_not_match, "the input dataset has " + std::to_string(b.inputs.size()) +
                                          " buffers; the model has " +
                                          std::to_string(model_in.size()) + " inputs");
  if (b.outputs.size() != model_out.size())
    fail(Errc::model_output_not_match,
         "the output dataset has " + std::to_string(b.outputs.size()) + " buffers; the model has " +
             std::to_string(model_out.size()) + " outputs");
  Execution e;
  e.plan = model.plan_for(model.graph_input_dims(input_dims(model, b)));
  auto &memory = Runtime::get().memory();
  for (size_t i = 0; i < model_in.size(); ++i) {
    const InputBinding &in = b.inputs[i];
    const size_t need = model.input_bytes(*e.plan, i);
    const std::string what = io_text("input", i, model_in[i]);
    if (in.length < need)
      fail(Errc::model_input_not_match, what + " needs " + std::to_string(need) +
                                            " bytes; its buffer holds " +
                                            std::to_string(in.length));
    memory.check_device_range(in.data, need, what.c_str());
    e.inputs.push_back(in.data);
  }
  output_shapes(e.plan->output_descs());
  for (size_t j = 0; j < model_out.size(); ++j) {
    const OutputBinding &out = b.outputs[j];
    const auto &desc = e.plan->output_descs()[j];
    const std::string what = io_text("output", j, model_out[j]);
    if (out.length < desc.byte_size())
      fail(Errc::model_output_not_match, what + " of shape " + dims_text(desc.dims) + " needs " +
                                             std::to_string(desc.byte_size()) +
                                             " bytes; its buffer holds " +
                                             std::to_string(out.length));
    memory.check_device_range(out.data, desc.byte_size(), what.c_str());
    e.outputs.push_back(out.data);
  }
  return e;
}

void enqueue(Model &model, Stream &stream, Execution e, const WorkspaceSource *source) {
  const size_t bytes = e.plan->workspace_bytes();
  if (source == nullptr || bytes == 0 || model.has_work_memory()) {
    model.enqueue(stream, std::move(e.plan), std::move(e.inputs), std::move(e.outputs));
    return;
  }
  void *block = source->alloc(bytes);
  if (block == nullptr)
    fail(Errc::out_of_memory, "the stream's allocator (aclrtAllocatorRegister) gave no block of " +
                                  std::to_string(bytes) + " bytes for the model's workspace");
  struct GiveBack {
    const WorkspaceSource &source;
    void *block;
    ~GiveBack() { source.free(block); }
  } give_back{*source, block};
  void *addr = source->address(block);
  Runtime::get().memory().check_device_range(addr, bytes, "the allocator's block");
  model.enqueue(stream, std::move(e.plan), std::move(e.inputs), std::move(e.outputs), addr);
}

}  // namespace openacl::model
