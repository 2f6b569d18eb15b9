// Single-op execution (R17): aclopExecuteV2 and friends run the built-in op library. Every
// call is validated in full before anything is enqueued (op errors, buffer sizes, device
// ranges); the op then runs on the stream as one task, in order with copies and kernels, and
// records which device memory it reads and writes. Built-in ops need no compilation: the
// model-dir calls are accepted and validate what they can (the compile calls of
// acl_op_compiler.h are in op_compiler.cpp, built into libacl_op_compiler).
#include <vector>

#include "acl/acl.h"
#include "api/data_buffer.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/op/op_attr.h"
#include "api/op/op_exec.h"
#include "api/op/tensor_desc.h"
#include "core/stream.h"
#include "ops/call.h"

using openacl::Errc;
using openacl::fail;
namespace ops = openacl::ops;

struct aclopHandle {
  ops::PreparedCall call;
};

namespace {

const ops::Attrs kNoAttrs;

const ops::Attrs &attrs_of(const aclopAttr *attr) { return attr ? attr->attrs : kNoAttrs; }

template <class D>
void check_array(int n, D *const *arr, const char *count_name, const char *arr_name) {
  if (n < 0)
    fail(Errc::invalid_argument,
         std::string(count_name) + " " + std::to_string(n) + " is negative");
  if (n > 0 && arr == nullptr)
    fail(Errc::invalid_argument,
         std::string(arr_name) + " is NULL while " + count_name + " is " + std::to_string(n));
}

// The op layer's views of the caller's descriptors and buffers (ops/call.h); no copies.
ops::ViewArray<ops::DescView> desc_views(int n, const aclTensorDesc *const descs[]) {
  ops::ViewArray<ops::DescView> out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const aclTensorDesc *d = descs[i];
    if (d == nullptr) continue;
    out[i] = {true,    static_cast<ops::DType>(d->dtype),  static_cast<ops::Format>(d->format),
              d->dims, d->placement != ACL_MEMTYPE_DEVICE, d->is_const ? &d->const_data : nullptr};
  }
  return out;
}

ops::ViewArray<ops::BufferView> buffer_views(int n, const aclDataBuffer *const buffers[]) {
  ops::ViewArray<ops::BufferView> out(buffers == nullptr ? 0 : static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i)
    if (const aclDataBuffer *b = buffers[i]) out[i] = {true, b->data, b->length};
  return out;
}

}  // namespace

namespace openacl::api {

void prepare_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                int numOutputs, const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  ops::prepare_call(opType, desc_views(numInputs, inputDesc), {},
                    desc_views(numOutputs, outputDesc), attrs_of(attr));
}

void execute_op(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                const aclDataBuffer *const inputs[], int numOutputs,
                const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                const aclopAttr *attr, aclrtStream stream) {
  require_initialized();
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  check_array(numInputs, inputs, "numInputs", "inputs");
  check_array(numOutputs, outputs, "numOutputs", "outputs");
  ops::BoundCall call = ops::bind_call(
      opType, desc_views(numInputs, inputDesc), buffer_views(numInputs, inputs),
      desc_views(numOutputs, outputDesc), buffer_views(numOutputs, outputs), attrs_of(attr));
  ops::enqueue_call(*stream_for_submit(stream), std::move(call));
}

aclopHandle *create_op_handle(const char *opType, int numInputs,
                              const aclTensorDesc *const inputDesc[], int numOutputs,
                              const aclTensorDesc *const outputDesc[], const aclopAttr *attr) {
  require_initialized();
  if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
  check_array(numInputs, inputDesc, "numInputs", "inputDesc");
  check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
  return new aclopHandle{ops::prepare_call(opType, desc_views(numInputs, inputDesc), {},
                                           desc_views(numOutputs, outputDesc), attrs_of(attr))};
}

}  // namespace openacl::api

extern "C" {

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs,
                                            aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                                            int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr,
                                            aclrtStream stream) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs,
                                          const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[],
                                          aclDataBuffer *const outputs[], const aclopAttr *attr,
                                          aclrtStream stream) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[],
                                               int numOutputs,
                                               const aclTensorDesc *const outputDesc[],
                                               const aclopAttr *opAttr, aclopHandle **handle) {
  return openacl::api::guarded(__func__, [&] {
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    *handle = openacl::api::create_op_handle(opType, numInputs, inputDesc, numOutputs, outputDesc,
                                             opAttr);
  });
}

ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle) { delete handle; }

ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle *handle, int numInputs,
                                                 const aclDataBuffer *const inputs[],
                                                 int numOutputs, aclDataBuffer *const outputs[],
                                                 aclrtStream stream) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    const ops::PreparedCall &op = handle->call;
    if (static_cast<size_t>(numInputs) != op.inputs.size())
      fail(Errc::op_input_not_match, op.op_type + ": " + std::to_string(numInputs) +
                                         " input buffers for " + std::to_string(op.inputs.size()) +
                                         " input descriptors");
    if (static_cast<size_t>(numOutputs) != op.outputs.size())
      fail(Errc::op_output_not_match,
           op.op_type + ": " + std::to_string(numOutputs) + " output buffers for " +
               std::to_string(op.outputs.size()) + " output descriptors");
    check_array(numInputs, inputs, "numInputs", "inputs");
    check_array(numOutputs, outputs, "numOutputs", "outputs");
    ops::BoundCall call =
        ops::bind_call(op, buffer_views(numInputs, inputs), buffer_views(numOutputs, outputs));
    ops::enqueue_call(*openacl::api::stream_for_submit(stream), std::move(call));
  });
}

// `truncate` is accepted and ignored: float -> int casts always saturate towards zero.
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer,
                                       const aclTensorDesc *dstDesc, aclDataBuffer *dstBuffer,
                                       uint8_t truncate, aclrtStream stream) {
  return openacl::api::guarded(__func__, [&] {
    if (srcDesc == nullptr || dstDesc == nullptr)
      fail(Errc::invalid_argument, "srcDesc or dstDesc is NULL");
    aclopAttr attr;
    attr.attrs["dst_type"] = static_cast<ops::DType>(dstDesc->dtype);
    const aclTensorDesc *in_d[] = {srcDesc};
    const aclDataBuffer *in_b[] = {srcBuffer};
    const aclTensorDesc *out_d[] = {dstDesc};
    aclDataBuffer *out_b[] = {dstBuffer};
    openacl::api::execute_op("Cast", 1, in_d, in_b, 1, out_d, out_b, &attr, stream);
  });
}

ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(aclTensorDesc *srcDesc,
                                                      aclTensorDesc *dstDesc, uint8_t truncate,
                                                      aclopHandle **handle) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::require_initialized();
    if (srcDesc == nullptr || dstDesc == nullptr)
      fail(Errc::invalid_argument, "srcDesc or dstDesc is NULL");
    if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
    ops::Attrs attrs{{"dst_type", static_cast<ops::DType>(dstDesc->dtype)}};
    const aclTensorDesc *in_d[] = {srcDesc};
    const aclTensorDesc *out_d[] = {dstDesc};
    *handle = new aclopHandle{ops::prepare_call("Cast", desc_views(1, in_d), {},
                                                desc_views(1, out_d), attrs, "srcDesc", "dstDesc")};
  });
}

ACL_FUNC_VISIBILITY aclError aclopInferShape(const char *opType, int numInputs,
                                             aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                                             int numOutputs, aclTensorDesc *outputDesc[],
                                             aclopAttr *attr) {
  return openacl::api::guarded(__func__, [&] {
    if (opType == nullptr) fail(Errc::invalid_argument, "opType is NULL");
    check_array(numInputs, inputDesc, "numInputs", "inputDesc");
    check_array(numOutputs, outputDesc, "numOutputs", "outputDesc");
    auto out = ops::infer_call(opType, desc_views(numInputs, inputDesc),
                               buffer_views(numInputs, inputs), attrs_of(attr));
    if (static_cast<size_t>(numOutputs) != out.size())
      fail(Errc::op_output_not_match, std::string(opType) + ": expected " +
                                          std::to_string(out.size()) + " outputs, got " +
                                          std::to_string(numOutputs));
    for (int i = 0; i < numOutputs; ++i)
      if (outputDesc[i] == nullptr)
        fail(Errc::invalid_argument, "outputDesc[" + std::to_string(i) + "] is NULL");
    for (int i = 0; i < numOutputs; ++i) {
      outputDesc[i]->dims = out[i].dims;
      outputDesc[i]->dtype = static_cast<aclDataType>(out[i].dtype);
    }
  });
}

// ---- compilation: built-in ops need none ----

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir) {
  return openacl::api::guarded(__func__, [&] {
    if (modelDir == nullptr) fail(Errc::invalid_argument, "modelDir is NULL");
  });
}

ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize) {
  return openacl::api::guarded(__func__, [&] {
    if (model == nullptr) fail(Errc::invalid_argument, "model is NULL");
    if (modelSize == 0) fail(Errc::invalid_argument, "modelSize is 0");
  });
}

// Built-in ops have no kernel parameters to refresh: the call validates the op like aclopCompile.
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(const char *opType, int numInputs,
                                               const aclTensorDesc *const inputDesc[],
                                               int numOutputs,
                                               const aclTensorDesc *const outputDesc[],
                                               const aclopAttr *attr) {
  return openacl::api::guarded(__func__, [&] {
    openacl::api::prepare_op(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
  });
}

// The per-thread cache of prepared ops has a fixed size; the limit is validated and accepted.
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
  return openacl::api::guarded(__func__, [&] {
    if (maxOpNum == 0) fail(Errc::invalid_argument, "maxOpNum is 0");
  });
}

}  // extern "C"
