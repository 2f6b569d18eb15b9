// Single-op execution (R17): aclopExecuteV2 and friends run the built-in op library. Every
// call is validated in full before anything is enqueued (op errors, buffer sizes, device
// ranges); the op then runs on the stream as one task, in order with copies and kernels, and
// records which device memory it reads and writes. Built-in ops need no compilation: the
// model-dir calls are accepted and validate what they can (the compile calls of
// acl_op_compiler.h are in op_compiler.cpp, built into libacl_op_compiler).
#include <algorithm>

#include "acl/acl.h"
#include "api/data_buffer.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/op_attr.h"
#include "api/op_exec.h"
#include "api/tensor_desc.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "model/dump.h"
#include "ops/op_cache.h"

using openacl::Errc;
using openacl::fail;
namespace ops = openacl::ops;

struct aclopHandle {
  std::string op_type;
  std::vector<ops::TensorDesc> inputs, outputs;
  std::vector<bool> host_inputs;  // placed in host memory (aclSetTensorPlaceMent)
  std::shared_ptr<const ops::PreparedOp> op;
};

namespace {

const ops::Attrs kNoAttrs;

// Ops are prepared for the AI-core count of the calling thread's device; before any device is
// set (aclopCreateHandle may come first) for one core. They run on any device either way.
unsigned prepare_threads() {
  try {
    return openacl::api::current_device().cores().count();
  } catch (const openacl::Error &) {
    return 1;
  }
}

std::string idx(const char *what, size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

template <class D>
void check_array(int n, D *const *arr, const char *count_name, const char *arr_name) {
  if (n < 0) fail(Errc::invalid_argument, std::string(count_name) + " " + std::to_string(n) + " is negative");
  if (n > 0 && arr == nullptr) fail(Errc::invalid_argument, std::string(arr_name) + " is NULL while " + count_name + " is " + std::to_string(n));
}

// Descriptors as the op library sees them; const and host-placed inputs carry their bytes.
std::vector<ops::TensorDesc> to_descs(int n, const aclTensorDesc *const descs[], const char *name,
                                      const aclDataBuffer *const buffers[], std::vector<bool> *host) {
  std::vector<ops::TensorDesc> out;
  for (int i = 0; i < n; ++i) {
    const aclTensorDesc *d = descs[i];
    if (d == nullptr) fail(Errc::invalid_argument, idx(name, i) + " is NULL");
    out.push_back(openacl::api::to_ops_desc(*d));
    const bool on_host = d->placement != ACL_MEMTYPE_DEVICE;
    if (host) host->push_back(on_host);
    if (d->is_const) {
      out.back().value = d->const_data;
    } else if (on_host && buffers != nullptr && buffers[i] != nullptr && buffers[i]->data != nullptr) {
      const auto *p = static_cast<const uint8_t *>(buffers[i]->data);
      out.back().value.assign(p, p + std::min(buffers[i]->length, out.back().byte_size()));
    }
  }
  return out;
}

// [p, p+n) must lie in one device allocation. The common (valid) case takes one lookup; the
// memory map's own check runs only to word the error.
void check_device(const openacl::MemoryMap &memory, const void *p, size_t n, const std::string &what) {
  auto a = memory.find(p);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  if (a && a->kind == openacl::MemoryKind::device && n <= a->size - (addr - a->base)) return;
  memory.check_device_range(p, n, what.c_str());
  fail(Errc::invalid_argument, what + " is not a valid device range");
}

// Checks the buffers against the prepared descriptors and builds the op's tensors. Host-placed
// inputs are copied now: the caller may reuse that memory once the call returns.
struct Bound {
  std::vector<ops::Tensor> inputs, outputs;
  std::vector<std::shared_ptr<std::vector<uint8_t>>> host_copies;
};

Bound bind_buffers(const std::string &op_type, const std::vector<ops::TensorDesc> &in_descs, const std::vector<bool> &host,
           int num_inputs, const aclDataBuffer *const inputs[], const std::vector<ops::TensorDesc> &out_descs,
           int num_outputs, aclDataBuffer *const outputs[]) {
  if (static_cast<size_t>(num_inputs) != in_descs.size())
    fail(Errc::op_input_not_match, op_type + ": " + std::to_string(num_inputs) + " input buffers for " + std::to_string(in_descs.size()) + " input descriptors");
  if (static_cast<size_t>(num_outputs) != out_descs.size())
    fail(Errc::op_output_not_match, op_type + ": " + std::to_string(num_outputs) + " output buffers for " + std::to_string(out_descs.size()) + " output descriptors");
  check_array(num_inputs, inputs, "numInputs", "inputs");
  check_array(num_outputs, outputs, "numOutputs", "outputs");
  auto &memory = openacl::Runtime::get().memory();
  Bound b;
  for (size_t i = 0; i < in_descs.size(); ++i) {
    const auto &d = in_descs[i];
    ops::Tensor t{d, nullptr, 0};
    const aclDataBuffer *buf = inputs[i];
    if (d.dtype == ops::DType::undefined) {  // an unused optional input
      b.inputs.push_back(t);
      continue;
    }
    if (buf == nullptr) fail(Errc::invalid_argument, idx("inputs", i) + " is NULL");
    const size_t need = d.byte_size();
    if (buf->length < need)
      fail(Errc::op_input_not_match, op_type + ": input " + std::to_string(i) + " buffer holds " + std::to_string(buf->length) +
                                         " bytes; its descriptor " + ops::dtype_name(d.dtype) + ops::dims_str(d.dims) + " needs " + std::to_string(need));
    t.data = buf->data;
    t.bytes = buf->length;
    if (need != 0 && buf->data == nullptr) fail(Errc::invalid_argument, idx("inputs", i) + " has a NULL data address");
    if (need != 0 && host[i]) {
      auto copy = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t *>(buf->data), static_cast<const uint8_t *>(buf->data) + need);
      t.data = copy->data();
      b.host_copies.push_back(std::move(copy));
    } else if (need != 0) {
      check_device(memory, buf->data, need, idx("inputs", i));
    }
    b.inputs.push_back(t);
  }
  for (size_t i = 0; i < out_descs.size(); ++i) {
    const auto &d = out_descs[i];
    const aclDataBuffer *buf = outputs[i];
    if (buf == nullptr) fail(Errc::invalid_argument, idx("outputs", i) + " is NULL");
    const size_t need = d.byte_size();
    if (buf->length < need)
      fail(Errc::op_output_not_match, op_type + ": output " + std::to_string(i) + " buffer holds " + std::to_string(buf->length) +
                                          " bytes; its descriptor " + ops::dtype_name(d.dtype) + ops::dims_str(d.dims) + " needs " + std::to_string(need));
    if (need != 0) check_device(memory, buf->data, need, idx("outputs", i));
    b.outputs.push_back({d, buf->data, buf->length});
  }
  return b;
}

void submit(const std::string &op_type, std::shared_ptr<const ops::PreparedOp> op, Bound bound, aclrtStream stream) {
  auto s = openacl::api::stream_for_submit(stream);
  std::vector<std::pair<const void *, size_t>> reads, writes;
  for (const auto &t : bound.inputs)
    if (t.data != nullptr) reads.emplace_back(t.data, t.desc.byte_size());
  for (const auto &t : bound.outputs) writes.emplace_back(t.data, t.desc.byte_size());
  auto dump = openacl::model::single_op_dumper(openacl::Runtime::get().dump().active(), s->device().id());
  auto task = std::make_unique<openacl::FunctionTask>(
      openacl::TaskKind::op, op_type,
      [op = std::move(op), inputs = std::move(bound.inputs), outputs = std::move(bound.outputs),
       keep = std::move(bound.host_copies), dump = std::move(dump), op_type](openacl::ExecContext &ctx) {
        op->run(inputs, outputs, ctx.cores);
        if (dump) dump(op_type, inputs, outputs);
      });
  for (const auto &[p, n] : reads) task->add_range(p, n, false);
  for (const auto &[p, n] : writes) task->add_range(p, n, true);
  s->enqueue(std::move(task));
}

bool same_desc(const ops::TensorDesc &d, const aclTensorDesc &a) {
  return static_cast<int32_t>(d.dtype) == static_cast<int32_t>(a.dtype) && d.dims == a.dims &&
         static_cast<int32_t>(d.format) == static_cast<int32_t>(a.format) &&
         (a.is_const ? d.value == a.const_data : d.value.empty());
}

std::shared_ptr<const ops::PreparedOp> cached_prepare(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
    const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
    const aclopAttr *attr, std::vector<ops::TensorDesc> &in, std::vector<ops::TensorDesc> &out,
    std::vector<bool> &host) {
  const ops::Attrs &attrs = attr ? attr->attrs : kNoAttrs;
  bool cacheable = true;
  for (int i = 0; i < numInputs; ++i)
    if (inputDesc[i] == nullptr || (inputDesc[i]->placement != ACL_MEMTYPE_DEVICE && !inputDesc[i]->is_const)) cacheable = false;
  for (int i = 0; i < numOutputs; ++i)
    if (outputDesc[i] == nullptr) cacheable = false;
  ops::OpCache &cache = ops::OpCache::of_this_thread();
  if (cacheable) {
    const ops::CachedOp *c = cache.find([&](const ops::CachedOp &e) {
      if (e.op_type != opType || e.inputs.size() != static_cast<size_t>(numInputs) ||
          e.outputs.size() != static_cast<size_t>(numOutputs) || e.attrs != attrs)
        return false;
      for (int i = 0; i < numInputs; ++i)
        if (!same_desc(e.inputs[i], *inputDesc[i])) return false;
      for (int i = 0; i < numOutputs; ++i)
        if (!same_desc(e.outputs[i], *outputDesc[i])) return false;
      return true;
    });
    if (c != nullptr) {
      in = c->inputs;
      out = c->outputs;
      host.clear();
      for (int i = 0; i < numInputs; ++i) host.push_back(inputDesc[i]->placement != ACL_MEMTYPE_DEVICE);
      return c->op;
    }
  }
  in = to_descs(numInputs, inputDesc, "inputDesc", inputs, &host);
  out = to_descs(numOutputs, outputDesc, "outputDesc", nullptr, nullptr);
  std::shared_ptr<const ops::PreparedOp> op = ops::prepare(opType, in, out, attrs, prepare_threads());
  if (cacheable) cache.add({opType, in, out, attrs, op});
  return op;
}

}  // namespace

namespace openacl::api {

void prepare_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  auto in = to_descs(numInputs, inputDesc, "inputDesc", nullptr, nullptr);
  auto out = to_descs(numOutputs, outputDesc, "outputDesc", nullptr, nullptr);
  ops::prepare(opType, in, out, attr ? attr->attrs : kNoAttrs, prepare_threads());
}

void execute_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], const aclDataBuffer *const inputs[],
                int numOutputs, const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[], const aclopAttr *attr,
                aclrtStream stream) {
  require_initialized();
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  check_array(numInputs, inputs, "numInputs", "inputs");
  std::vector<bool> host;
  std::vector<ops::TensorDesc> in, out;
  auto op = cached_prepare(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, attr, in, out, host);
  Bound b = bind_buffers(opType, in, host, numInputs, inputs, out, numOutputs, outputs);
  submit(opType, std::move(op), std::move(b), stream);
}

aclopHandle *create_op_handle(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                              const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
  require_initialized();
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  auto h = std::make_unique<aclopHandle>();
  h->op_type = opType;
  h->inputs = to_descs(numInputs, inputDesc, "inputDesc", nullptr, &h->host_inputs);
  h->outputs = to_descs(numOutputs, outputDesc, "outputDesc", nullptr, nullptr);
  h->op = ops::prepare(opType, h->inputs, h->outputs, attr ? attr->attrs : kNoAttrs, prepare_threads());
  return h.release();
}

}  // namespace openacl::api

extern "C" {

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                                            int numOutputs, aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr,
                                            aclrtStream stream) {
  return openacl::api::guarded("aclopExecuteV2", [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
                                          aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream) {
  return openacl::api::guarded("aclopExecute", [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                                               const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopHandle **handle) {
  return openacl::api::guarded("aclopCreateHandle", [&] {
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    *handle = openacl::api::create_op_handle(opType, numInputs, inputDesc, numOutputs, outputDesc, opAttr);
  });
}

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle) { delete handle; }

ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[], int numOutputs,
                                                 aclDataBuffer *const outputs[], aclrtStream stream) {
  return openacl::api::guarded("aclopExecWithHandle", [&] {
    openacl::api::require_initialized();
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    Bound b = bind_buffers(handle->op_type, handle->inputs, handle->host_inputs, numInputs, inputs, handle->outputs, numOutputs, outputs);
    submit(handle->op_type, handle->op, std::move(b), stream);
  });
}

// `truncate` is accepted and ignored: float -> int casts always saturate towards zero.
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer, const aclTensorDesc *dstDesc,
                                       aclDataBuffer *dstBuffer, uint8_t truncate, aclrtStream stream) {
  return openacl::api::guarded("aclopCast", [&] {
    if (srcDesc == nullptr || dstDesc == nullptr) fail(Errc::invalid_argument, "srcDesc or dstDesc is NULL");
    aclopAttr attr;
    attr.attrs["dst_type"] = static_cast<ops::DType>(dstDesc->dtype);
    const aclTensorDesc *in_d[] = {srcDesc};
    const aclDataBuffer *in_b[] = {srcBuffer};
    const aclTensorDesc *out_d[] = {dstDesc};
    aclDataBuffer *out_b[] = {dstBuffer};
    openacl::api::execute_op("Cast", 1, in_d, in_b, 1, out_d, out_b, &attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc, aclTensorDesc *dstDesc, uint8_t truncate, aclopHandle **handle) {
  return openacl::api::guarded("aclopCreateHandleForCast", [&] {
    openacl::api::require_initialized();
    if (srcDesc == nullptr || dstDesc == nullptr) fail(Errc::invalid_argument, "srcDesc or dstDesc is NULL");
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    ops::Attrs attrs{{"dst_type", static_cast<ops::DType>(dstDesc->dtype)}};
    auto h = std::make_unique<aclopHandle>();
    h->op_type = "Cast";
    const aclTensorDesc *in_d[] = {srcDesc};
    const aclTensorDesc *out_d[] = {dstDesc};
    h->inputs = to_descs(1, in_d, "srcDesc", nullptr, &h->host_inputs);
    h->outputs = to_descs(1, out_d, "dstDesc", nullptr, nullptr);
    h->op = ops::prepare("Cast", h->inputs, h->outputs, attrs, prepare_threads());
    *handle = h.release();
  });
}

ACL_FUNC_VISIBILITY aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                                             int numOutputs, aclTensorDesc *outputDesc[], aclopAttr *attr) {
  return openacl::api::guarded("aclopInferShape", [&] {
    if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
    check_array(numInputs, inputDesc, "numInputs", "inputDesc");
    check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
    std::vector<bool> host;
    auto in = to_descs(numInputs, inputDesc, "inputDesc", inputs, &host);
    auto out = ops::infer(opType, in, attr ? attr->attrs : kNoAttrs);
    if (static_cast<size_t>(numOutputs) != out.size())
      fail(Errc::op_output_not_match, std::string(opType) + ": expected " + std::to_string(out.size()) + " outputs, got " + std::to_string(numOutputs));
    for (int i = 0; i < numOutputs; ++i)
      if (outputDesc[i] == nullptr) fail(Errc::invalid_argument, idx("outputDesc", i) + " is NULL");
    for (int i = 0; i < numOutputs; ++i) {
      outputDesc[i]->dims = out[i].dims;
      outputDesc[i]->dtype = static_cast<aclDataType>(out[i].dtype);
    }
  });
}

// ---- compilation: built-in ops need none ----

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir) {
  return openacl::api::guarded("aclopSetModelDir", [&] {
    if (modelDir == nullptr) fail(Errc::invalid_argument, "modelDir is NULL");
  });
}

ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize) {
  return openacl::api::guarded("aclopLoad", [&] {
    if (model == nullptr) fail(Errc::invalid_argument, "model is NULL");
    if (modelSize == 0) fail(Errc::invalid_argument, "modelSize is 0");
  });
}

// Built-in ops have no kernel parameters to refresh: the call validates the op like aclopCompile.
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                               int numOutputs, const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
  return openacl::api::guarded("aclopUpdateParams", [&] {
    openacl::api::prepare_op(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
  });
}

// The per-thread cache of prepared ops has a fixed size; the limit is validated and accepted.
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
  return openacl::api::guarded("aclopSetMaxOpQueueNum", [&] {
    if (maxOpNum == 0) fail(Errc::invalid_argument, "maxOpNum is 0");
  });
}

}  // extern "C"
