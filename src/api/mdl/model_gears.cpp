// Gears (CANN's dynamic batch, image size and dims): a model converted by atc
// with --dynamic_batch_size, --dynamic_image_size or --dynamic_dims takes one of its gears
// per execution, chosen through its last input ACL_DYNAMIC_TENSOR_NAME. The aclmdlSetDynamic*
// calls write the gear's values into that input's buffer (as CANN does) and note the gear in
// the dataset, which picks the execution's plan. An ONNX model without gears takes any shape
// of its dynamic dims (aclmdlSetInputDynamicDims on the input itself).
#include <cstring>

#include "acl/acl_mdl.h"
#include "api/guard.h"
#include "api/mdl/dataset.h"
#include "api/mdl/model_calls.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::model::GearKind;
using openacl::model::Gears;

namespace openacl::api {
namespace {

std::unique_ptr<aclTensorDesc> input_desc(const model::ModelIo &io, std::vector<int64_t> dims) {
  auto t = std::make_unique<aclTensorDesc>();
  t->dtype = static_cast<aclDataType>(io.desc.dtype);
  t->format = dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
  t->dims = std::move(dims);
  t->storage_format = t->format;
  t->storage_dims = t->dims;
  t->name = io.name;
  return t;
}

std::string gear_list(const Gears &gears) {
  std::string s;
  for (const auto &g : gears.values) {
    std::string one;
    for (auto v : g) {
      one += one.empty() ? "" : ",";
      one += std::to_string(v);
    }
    s += s.empty() ? "" : "; ";
    s += one;
  }
  return s;
}

void check_kind(const Gears &gears, uint32_t modelId, GearKind kind) {
  if (gears.kind != kind)
    fail(Errc::model_not_dynamic, "model " + std::to_string(modelId) + " was not converted with " +
                                      model::gear_option(kind) +
                                      (gears.empty() ? std::string(" (it has no gears)")
                                                     : std::string(" (its gears are ") +
                                                           model::gear_option(gears.kind) + ")"));
}

// Gear `find(gears)` of the model for the dataset: its values into the gear input's buffer at
// `index` (as CANN writes them), its index into the dataset (which picks the plan).
template <class Find>
void set_gear(uint32_t modelId, aclmdlDataset *dataset, size_t index, GearKind kind,
              const std::string &wanted, Find find) {
  require_initialized();
  auto m = find_model(modelId);
  aclmdlDataset &d = dataset_of(dataset, "dataset");
  const Gears &gears = m->gears();
  check_kind(gears, modelId, kind);
  const size_t gear_input = m->graph_input_count();
  if (index != gear_input)
    fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                     " is not the model's input " ACL_DYNAMIC_TENSOR_NAME
                                     " (index " +
                                     std::to_string(gear_input) + ", aclmdlGetInputIndexByName)");
  if (index >= d.buffers.size())
    fail(Errc::invalid_argument,
         "the dataset has no buffer " + std::to_string(index) + " yet (aclmdlAddDatasetBuffer)");
  const size_t gear = find(gears);
  if (gear == Gears::npos)
    fail(Errc::invalid_argument,
         wanted + " is no gear of the model; its gears: " + gear_list(gears));
  const aclDataBuffer *b = d.buffers[index];
  const size_t bytes = gears.value_count() * sizeof(uint64_t);
  if (b->length < bytes)
    fail(Errc::invalid_argument, "the buffer of " ACL_DYNAMIC_TENSOR_NAME " holds " +
                                     std::to_string(b->length) + " bytes; it needs " +
                                     std::to_string(bytes));
  Runtime::get().memory().check_device_range(b->data, bytes, ACL_DYNAMIC_TENSOR_NAME);
  m->write_gear(b->data, gear);
  d.gear = gear;
}

// For an ONNX model's dynamic input: the dims given become its shape in this dataset.
void set_input_dims(uint32_t modelId, aclmdlDataset *dataset, size_t index,
                    const aclmdlIODims &dims) {
  auto m = find_model(modelId);
  aclmdlDataset &d = dataset_of(dataset, "dataset");
  if (index >= m->inputs().size())
    fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                     " is out of range: the model has " +
                                     std::to_string(m->inputs().size()) + " inputs");
  if (index >= d.buffers.size())
    fail(Errc::invalid_argument,
         "the dataset has no buffer " + std::to_string(index) + " yet (aclmdlAddDatasetBuffer)");
  const auto &io = m->inputs()[index];
  bool dynamic = false;
  for (auto x : io.desc.dims) dynamic = dynamic || x < 0;
  if (!dynamic)
    fail(Errc::model_not_dynamic, "input " + std::to_string(index) + " ('" + io.name +
                                      "') has fixed dims " + dims_text(io.desc.dims));
  d.descs[index] = input_desc(io, {dims.dims, dims.dims + dims.dimCount});
}

const Gears &gears_of(const aclmdlDesc *modelDesc) {
  return model_desc_of(modelDesc, "modelDesc").gears;
}

}  // namespace
}  // namespace openacl::api

using namespace openacl::api;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset,
                                                       size_t index, uint64_t batchSize) {
  return guarded(__func__, [&] {
    const std::vector<int64_t> values{static_cast<int64_t>(batchSize)};
    set_gear(modelId, dataset, index, GearKind::batch, "batch size " + std::to_string(batchSize),
             [&](const Gears &g) { return g.find_values(values); });
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset,
                                                    size_t index, uint64_t height, uint64_t width) {
  return guarded(__func__, [&] {
    const std::vector<int64_t> values{static_cast<int64_t>(height), static_cast<int64_t>(width)};
    set_gear(modelId, dataset, index, GearKind::image_size,
             "height " + std::to_string(height) + ", width " + std::to_string(width),
             [&](const Gears &g) { return g.find_values(values); });
  });
}

// With gears (--dynamic_dims), index is the gear input's and dims lists every input's dims one
// after another, as aclmdlGetInputDynamicDims gives them.
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset,
                                                       size_t index, const aclmdlIODims *dims) {
  return guarded(__func__, [&] {
    require_initialized();
    if (dims == nullptr) fail(Errc::invalid_argument, "dims is NULL");
    if (dims->dimCount > ACL_MAX_DIM_CNT)
      fail(Errc::invalid_argument, "dims.dimCount exceeds ACL_MAX_DIM_CNT");
    auto m = find_model(modelId);
    if (m->gears().empty()) return set_input_dims(modelId, dataset, index, *dims);
    check_kind(m->gears(), modelId, GearKind::dims);
    std::vector<std::vector<int64_t>> per_input;
    size_t at = 0;
    for (const auto &shape : m->gears().shapes) {
      if (at + shape.size() > dims->dimCount) break;
      per_input.emplace_back(dims->dims + at, dims->dims + at + shape.size());
      at += shape.size();
    }
    if (per_input.size() != m->gears().shapes.size() || at != dims->dimCount)
      fail(Errc::invalid_argument, "dims.dimCount is " + std::to_string(dims->dimCount) +
                                       "; the model's inputs have " + std::to_string(at) +
                                       " dims together (see aclmdlGetInputDynamicDims)");
    std::string wanted;
    for (const auto &d : per_input) wanted += dims_text(d);
    set_gear(modelId, dataset, index, GearKind::dims, "dims " + wanted,
             [&](const Gears &g) { return g.find(per_input); });
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc,
                                                   aclmdlBatch *batch) {
  return guarded(__func__, [&] {
    const Gears &g = gears_of(modelDesc);
    if (batch == nullptr) fail(Errc::invalid_argument, "batch is NULL");
    batch->batchCount = 0;
    if (g.kind != GearKind::batch) return;
    for (const auto &v : g.values) batch->batch[batch->batchCount++] = static_cast<uint64_t>(v[0]);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index,
                                                aclmdlHW *hw) {
  return guarded(__func__, [&] {
    (void)index;  // CANN's gears are the model's, whichever input is asked about
    const Gears &g = gears_of(modelDesc);
    if (hw == nullptr) fail(Errc::invalid_argument, "hw is NULL");
    hw->hwCount = 0;
    if (g.kind != GearKind::image_size) return;
    for (const auto &v : g.values) {
      hw->hw[hw->hwCount][0] = static_cast<uint64_t>(v[0]);
      hw->hw[hw->hwCount][1] = static_cast<uint64_t>(v[1]);
      ++hw->hwCount;
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc,
                                                            size_t index, size_t *gearCount) {
  return guarded(__func__, [&] {
    const aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    if (gearCount == nullptr) fail(Errc::invalid_argument, "gearCount is NULL");
    if (index != static_cast<size_t>(-1) && index >= d.inputs.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " is out of range: the model has " +
                                       std::to_string(d.inputs.size()) + " inputs (-1: all)");
    *gearCount = d.gears.kind == GearKind::dims ? d.gears.values.size() : 0;
  });
}

// Each gear as the dims of all inputs one after another (CANN's form for index -1).
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index,
                                                       aclmdlIODims *dims, size_t gearCount) {
  return guarded(__func__, [&] {
    const aclmdlDesc &d = model_desc_of(modelDesc, "modelDesc");
    if (dims == nullptr) fail(Errc::invalid_argument, "dims is NULL");
    if (index != static_cast<size_t>(-1) && index >= d.inputs.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) + " is out of range (-1: all)");
    const size_t count = d.gears.kind == GearKind::dims ? d.gears.values.size() : 0;
    if (gearCount != count)
      fail(Errc::invalid_argument, "gearCount is " + std::to_string(gearCount) +
                                       "; the model has " + std::to_string(count) +
                                       " gears of --dynamic_dims (aclmdlGetInputDynamicGearCount)");
    for (size_t g = 0; g < count; ++g) {
      std::vector<int64_t> all;
      for (const auto &in : d.gears.dims_of(g)) all.insert(all.end(), in.begin(), in.end());
      if (all.size() > ACL_MAX_DIM_CNT)
        fail(Errc::invalid_argument, "the inputs have more than ACL_MAX_DIM_CNT dims");
      std::memset(dims[g].name, 0, sizeof(dims[g].name));
      dims[g].dimCount = all.size();
      for (size_t k = 0; k < all.size(); ++k) dims[g].dims[k] = all[k];
    }
  });
}

}  // extern "C"
