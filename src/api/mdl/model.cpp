// The model API (acl/acl_mdl.h; docs/RULES.md R18): load ONNX models, or the .om files
// openacl's atc makes of them, from a file or memory, describe their inputs and outputs, and
// execute them synchronously or on a stream (gears: model_gears.cpp; AIPP: model_aipp*.cpp).
// Model ids are process-wide; a model belongs to the context that loaded it and runs on
// streams of that context's device.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "acl/acl_mdl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/mdl/dataset.h"
#include "api/mdl/model_calls.h"
#include "api/rt/allocator.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "model/execution.h"
#include "model/model.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::model::Model;

namespace openacl::api {
namespace {

void describe(aclmdlDesc &d, const model::Graph &g) {
  auto io = model::describe(g);
  d.inputs = std::move(io.inputs);
  d.outputs = std::move(io.outputs);
  d.gears = g.conversion.gears;
}

const model::ModelIo *io_at(const aclmdlDesc *desc, size_t index, bool input) {
  const aclmdlDesc &d = model_desc_of(desc, "modelDesc");
  const auto &list = input ? d.inputs : d.outputs;
  if (index >= list.size())
    fail(Errc::invalid_argument, std::string(input ? "input" : "output") + " index " +
                                     std::to_string(index) + " is out of range: the model has " +
                                     std::to_string(list.size()));
  return &list[index];
}

// X5: dynamic dims have no fixed size (0); a gear model's input needs its largest gear's.
size_t io_size(const model::ModelIo &io) { return io.bytes; }

// An AIPP input takes NHWC images; other 4-D tensors are ONNX's NCHW.
aclFormat io_format(const model::ModelIo &io) {
  if (io.desc.format == ops::Format::nhwc) return ACL_FORMAT_NHWC;
  return io.desc.dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
}

void fill_dims(const std::string &name, const std::vector<int64_t> &dims, aclmdlIODims *out) {
  if (out == nullptr) fail(Errc::invalid_argument, "dims is NULL");
  if (dims.size() > ACL_MAX_DIM_CNT)
    fail(Errc::invalid_argument, "the tensor has more than ACL_MAX_DIM_CNT dims");
  std::memset(out->name, 0, sizeof(out->name));
  std::strncpy(out->name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  out->dimCount = dims.size();
  for (size_t i = 0; i < dims.size(); ++i) out->dims[i] = dims[i];
}

}  // namespace

std::vector<uint8_t> read_model_file(const char *path) {
  if (path == nullptr) fail(Errc::invalid_argument, "modelPath is NULL");
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f)
    fail(Errc::read_model,
         std::string("cannot open model file '") + path + "': " + std::strerror(errno));
  const std::streamoff size = f.tellg();
  if (size <= 0)
    fail(Errc::read_model, std::string("model file '") + path + "' is empty or not a regular file");
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  f.seekg(0);
  if (!f.read(reinterpret_cast<char *>(bytes.data()), size))
    fail(Errc::read_model, std::string("cannot read model file '") + path + "'");
  return bytes;
}

void check_mem(const void *model, size_t size) {
  if (model == nullptr) fail(Errc::invalid_argument, "model is NULL");
  if (size == 0) fail(Errc::invalid_argument, "modelSize is 0");
}

std::string model_file_stem(const char *path) {
  return std::filesystem::path(path).stem().string();
}

uint32_t load_model(const void *data, size_t size, uint32_t *modelId,
                    const model::MemoryOptions &mem, const std::string &file_stem) {
  require_initialized();
  if (modelId == nullptr) fail(Errc::invalid_argument, "modelId is NULL");
  auto ctx = current_context();
  auto &map = Runtime::get().memory();
  if (mem.work) map.check_device_range(mem.work, mem.work_size, "workPtr");
  if (mem.weights) map.check_device_range(mem.weights, mem.weight_size, "weightPtr");
  auto m = std::make_shared<Model>(model::compile(data, size), ctx, mem, file_stem);
  Model &model = *m;
  *modelId = model::add_model(std::move(m));
  model.set_id(*modelId);
  return *modelId;
}

// The model layer's view of the datasets (model/execution.h): their buffers and descriptors.
model::Bindings bindings(const aclmdlDataset &in, const aclmdlDataset &out) {
  model::Bindings b;
  b.gear = in.gear;
  b.inputs.reserve(in.buffers.size());
  for (size_t i = 0; i < in.buffers.size(); ++i) {
    model::InputBinding &x = b.inputs.emplace_back();
    x.data = in.buffers[i]->data;
    x.length = in.buffers[i]->length;
    if (const aclTensorDesc *td = in.descs[i].get()) {
      x.described = true;
      x.dtype = static_cast<ops::DType>(td->dtype);
      x.dims = td->dims;
    }
  }
  b.outputs.reserve(out.buffers.size());
  for (const aclDataBuffer *buf : out.buffers) b.outputs.push_back({buf->data, buf->length});
  return b;
}

// The output shapes an execution will produce, as the output dataset's tensor descriptors.
void set_output_descs(aclmdlDataset &out, const std::vector<model::ModelIo> &model_out,
                      const std::vector<ops::TensorDesc> &descs) {
  for (size_t j = 0; j < descs.size(); ++j) {
    auto t = std::make_unique<aclTensorDesc>();
    t->dtype = static_cast<aclDataType>(descs[j].dtype);
    t->format = descs[j].dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
    t->dims = descs[j].dims;
    t->storage_format = t->format;
    t->storage_dims = descs[j].dims;
    t->name = model_out[j].name;
    out.descs[j] = std::move(t);
  }
}

ModelCall prepare_call(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                       aclrtStream stream) {
  require_initialized();
  ModelCall call;
  call.model = find_model(modelId);
  const aclmdlDataset &in = dataset_of(input, "input");
  aclmdlDataset &out = dataset_of(output, "output");
  call.stream = stream_for_submit(stream);
  call.execution =
      model::bind(*call.model, *call.stream, bindings(in, out),
                  [&](const auto &descs) { set_output_descs(out, call.model->outputs(), descs); });
  return call;
}

void enqueue_call(ModelCall &call) {
  std::optional<StreamAllocator> a = stream_allocator(call.stream->handle());
  std::optional<model::WorkspaceSource> source;
  if (a) {
    source = model::WorkspaceSource{[&](size_t bytes) { return a->alloc(a->allocator, bytes); },
                                    [&](void *block) { a->free(a->allocator, block); },
                                    [&](void *block) { return a->get_addr(block); }};
  }
  model::enqueue(*call.model, *call.stream, std::move(call.execution), source ? &*source : nullptr);
}

}  // namespace openacl::api

using namespace openacl::api;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  return guarded(__func__, [&] {
    require_initialized();
    auto bytes = read_model_file(modelPath);
    load_model(bytes.data(), bytes.size(), modelId, {}, model_file_stem(modelPath));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void *model, size_t modelSize,
                                               uint32_t *modelId) {
  return guarded(__func__, [&] {
    check_mem(model, modelSize);
    load_model(model, modelSize, modelId, {});
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId,
                                                       void *workPtr, size_t workSize,
                                                       void *weightPtr, size_t weightSize) {
  return guarded(__func__, [&] {
    require_initialized();
    auto bytes = read_model_file(modelPath);
    load_model(bytes.data(), bytes.size(), modelId, {workPtr, workSize, weightPtr, weightSize},
               model_file_stem(modelPath));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize,
                                                      uint32_t *modelId, void *workPtr,
                                                      size_t workSize, void *weightPtr,
                                                      size_t weightSize) {
  return guarded(__func__, [&] {
    check_mem(model, modelSize);
    load_model(model, modelSize, modelId, {workPtr, workSize, weightPtr, weightSize});
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::model::remove_model(modelId);  // queued executions keep the model until they end
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char *fileName, size_t *workSize,
                                             size_t *weightSize) {
  return guarded(__func__, [&] {
    if (workSize == nullptr || weightSize == nullptr)
      fail(Errc::invalid_argument, "workSize or weightSize is NULL");
    auto bytes = read_model_file(fileName);
    auto sizes = openacl::model::query_sizes(openacl::model::compile(bytes.data(), bytes.size()));
    *workSize = sizes.work;
    *weightSize = sizes.weight;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize,
                                                    size_t *workSize, size_t *weightSize) {
  return guarded(__func__, [&] {
    check_mem(model, modelSize);
    if (workSize == nullptr || weightSize == nullptr)
      fail(Errc::invalid_argument, "workSize or weightSize is NULL");
    auto sizes = openacl::model::query_sizes(openacl::model::compile(model, modelSize));
    *workSize = sizes.work;
    *weightSize = sizes.weight;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) {
  return guarded(__func__, [&] {
    require_initialized();
    aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    auto m = find_model(modelId);
    d.model_id = modelId;
    d.inputs = m->inputs();
    d.outputs = m->outputs();
    d.gears = m->gears();
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath) {
  return guarded(__func__, [&] {
    aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    auto bytes = read_model_file(modelPath);
    describe(d, openacl::model::compile(bytes.data(), bytes.size()));
    d.model_id = 0;
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model,
                                                  size_t modelSize) {
  return guarded(__func__, [&] {
    aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    check_mem(model, modelSize);
    describe(d, openacl::model::compile(model, modelSize));
    d.model_id = 0;
  });
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc) {
  size_t n = 0;
  guarded(__func__, [&] { n = model_desc_of(modelDesc, "modelDesc").inputs.size(); });
  return n;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc) {
  size_t n = 0;
  guarded(__func__, [&] { n = model_desc_of(modelDesc, "modelDesc").outputs.size(); });
  return n;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  size_t n = 0;
  guarded(__func__, [&] { n = io_size(*io_at(modelDesc, index, true)); });
  return n;
}

ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  size_t n = 0;
  guarded(__func__, [&] { n = io_size(*io_at(modelDesc, index, false)); });
  return n;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index,
                                                aclmdlIODims *dims) {
  return guarded(__func__, [&] {
    const auto *io = io_at(modelDesc, index, true);
    fill_dims(io->name, io->desc.dims, dims);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc *modelDesc, size_t index,
                                                  aclmdlIODims *dims) {
  return guarded(__func__, [&] {
    const auto *io = io_at(modelDesc, index, true);
    fill_dims(io->name, io->desc.dims, dims);
  });
}

// A dynamic ONNX dim has no configured range: its range is [1, -1] (-1: unbounded, as CANN
// writes it); a static dim's range is [d, d].
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index,
                                                     aclmdlIODimsRange *dimsRange) {
  return guarded(__func__, [&] {
    const auto *io = io_at(modelDesc, index, true);
    if (dimsRange == nullptr) fail(Errc::invalid_argument, "dimsRange is NULL");
    const auto &dims = io->desc.dims;
    if (dims.size() > ACL_MAX_DIM_CNT)
      fail(Errc::invalid_argument, "the tensor has more than ACL_MAX_DIM_CNT dims");
    dimsRange->rangeCount = dims.size();
    for (size_t i = 0; i < dims.size(); ++i) {
      dimsRange->range[i][0] = dims[i] < 0 ? 1 : dims[i];
      dimsRange->range[i][1] = dims[i];
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                                 aclmdlIODims *dims) {
  return guarded(__func__, [&] {
    const auto *io = io_at(modelDesc, index, false);
    fill_dims(io->name, io->desc.dims, dims);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                                    aclmdlIODims *dims) {
  return guarded(__func__, [&] {
    const auto *io = io_at(modelDesc, index, false);
    const uint32_t id = model_desc_of(modelDesc, "modelDesc").model_id;
    if (id == 0) return fill_dims(io->name, io->desc.dims, dims);
    fill_dims(io->name, find_model(id)->current_output_dims(index), dims);
  });
}

ACL_FUNC_VISIBILITY const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc,
                                                          size_t index) {
  const char *name = "";
  guarded(__func__, [&] { name = io_at(modelDesc, index, true)->name.c_str(); });
  return name;
}

ACL_FUNC_VISIBILITY const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc,
                                                           size_t index) {
  const char *name = "";
  guarded(__func__, [&] { name = io_at(modelDesc, index, false)->name.c_str(); });
  return name;
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index) {
  aclFormat f = ACL_FORMAT_UNDEFINED;
  guarded(__func__, [&] { f = io_format(*io_at(modelDesc, index, true)); });
  return f;
}

ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index) {
  aclFormat f = ACL_FORMAT_UNDEFINED;
  guarded(__func__, [&] { f = io_format(*io_at(modelDesc, index, false)); });
  return f;
}

ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index) {
  aclDataType t = ACL_DT_UNDEFINED;
  guarded(__func__,
          [&] { t = static_cast<aclDataType>(io_at(modelDesc, index, true)->desc.dtype); });
  return t;
}

ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index) {
  aclDataType t = ACL_DT_UNDEFINED;
  guarded(__func__,
          [&] { t = static_cast<aclDataType>(io_at(modelDesc, index, false)->desc.dtype); });
  return t;
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc,
                                                       const char *name, size_t *index) {
  return guarded(__func__, [&] {
    const aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    if (name == nullptr || index == nullptr) fail(Errc::invalid_argument, "name or index is NULL");
    for (size_t i = 0; i < d.inputs.size(); ++i)
      if (d.inputs[i].name == name) return void(*index = i);
    fail(Errc::invalid_argument, std::string("the model has no input named '") + name + "'");
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc,
                                                        const char *name, size_t *index) {
  return guarded(__func__, [&] {
    const aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    if (name == nullptr || index == nullptr) fail(Errc::invalid_argument, "name or index is NULL");
    for (size_t i = 0; i < d.outputs.size(); ++i)
      if (d.outputs[i].name == name) return void(*index = i);
    fail(Errc::invalid_argument, std::string("the model has no output named '") + name + "'");
  });
}

// ONNX keeps the names it was given: a tensor's real name is its name.
ACL_FUNC_VISIBILITY const char *aclmdlGetTensorRealName(const aclmdlDesc *modelDesc,
                                                        const char *name) {
  const char *real = nullptr;
  guarded(__func__, [&] {
    const aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    if (name == nullptr) fail(Errc::invalid_argument, "name is NULL");
    for (const auto *list : {&d.inputs, &d.outputs})
      for (const auto &io : *list)
        if (io.name == name) real = io.name.c_str();
    if (real == nullptr)
      fail(Errc::invalid_argument, std::string("the model has no tensor named '") + name + "'");
  });
  return real;
}

ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
                                           aclmdlDataset *output) {
  return guarded(__func__, [&] {
    ModelCall call = prepare_call(modelId, input, output, nullptr);
    openacl::model::Execution &e = call.execution;
    call.model->execute(*call.stream, std::move(e.plan), std::move(e.inputs), std::move(e.outputs));
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
                                                aclmdlDataset *output, aclrtStream stream) {
  return guarded(__func__, [&] {
    ModelCall call = prepare_call(modelId, input, output, stream);
    enqueue_call(call);
  });
}

}  // extern "C"
