// Configured model loading and execution (aclmdlLoadWithConfig with an
// aclmdlConfigHandle, aclmdlExecuteV2 / aclmdlExecuteAsyncV2 with an aclmdlExecConfigHandle).
// Values are passed by address with their size, as in CANN: a _PTR attribute's value is the
// address of the pointer. Attributes that describe Ascend hardware (QoS, priorities,
// performance modes) are accepted and have no effect on the simulated device; those that need
// features openacl lacks (queues, external weight files, task images) fail at once.
#include <cstring>
#include <optional>
#include <string>

#include "acl/acl_mdl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/mdl/model_calls.h"
#include "api/option_value.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::api::option_value;

struct aclmdlConfigHandle {
  std::optional<size_t> load_type;
  std::string path;
  const void *mem = nullptr;
  size_t mem_size = 0;
  void *weights = nullptr, *work = nullptr;
  size_t weight_size = 0, work_size = 0;
};

struct aclmdlExecConfigHandle {
  int32_t stream_timeout_ms = -1;
};

namespace openacl::api {
namespace {

Registry<aclmdlConfigHandle> &configs() { return Runtime::get().tables.kept<aclmdlConfigHandle>(); }
Registry<aclmdlExecConfigHandle> &exec_configs() {
  return Runtime::get().tables.kept<aclmdlExecConfigHandle>();
}

template <class Handle>
Handle &live(Registry<Handle> &registry, const Handle *handle, const char *kind) {
  if (handle == nullptr) fail(Errc::invalid_argument, "handle is NULL");
  auto h = registry.find(handle);
  if (!h)
    fail(Errc::invalid_argument,
         std::string("handle is not a live ") + kind + " (unknown or destroyed)");
  return *h;  // the caller's handle keeps it alive during the call
}

void set_option(aclmdlConfigHandle &h, aclmdlConfigAttr attr, const void *v, size_t n) {
  switch (enum_value(attr)) {
    case ACL_MDL_PRIORITY_INT32:
      option_value<int32_t>(v, n, "ACL_MDL_PRIORITY_INT32");
      return;
    case ACL_NPU_PERF_MODE:
      option_value<int32_t>(v, n, "ACL_NPU_PERF_MODE");
      return;
    case ACL_MDL_WORKSPACE_MEM_OPTIMIZE:
      option_value<size_t>(v, n, "ACL_MDL_WORKSPACE_MEM_OPTIMIZE");
      return;
    case ACL_MDL_LOAD_TYPE_SIZET: {
      const auto t = option_value<size_t>(v, n, "ACL_MDL_LOAD_TYPE_SIZET");
      if (t == ACL_MDL_LOAD_FROM_FILE_WITH_Q || t == ACL_MDL_LOAD_FROM_MEM_WITH_Q)
        fail(Errc::api_not_supported,
             "loading with queues (ACL_MDL_LOAD_FROM_*_WITH_Q) is not supported by openacl");
      if (t < ACL_MDL_LOAD_FROM_FILE || t > ACL_MDL_LOAD_FROM_MEM_WITH_MEM)
        fail(Errc::invalid_argument,
             "ACL_MDL_LOAD_TYPE_SIZET " + std::to_string(t) + " is not a load type (1 to 4)");
      h.load_type = t;
      return;
    }
    case ACL_MDL_PATH_PTR: {
      const auto *p = option_value<const char *>(v, n, "ACL_MDL_PATH_PTR");
      if (p == nullptr) fail(Errc::invalid_argument, "the ACL_MDL_PATH_PTR path is NULL");
      h.path = p;
      return;
    }
    case ACL_MDL_MEM_ADDR_PTR:
      h.mem = option_value<const void *>(v, n, "ACL_MDL_MEM_ADDR_PTR");
      return;
    case ACL_MDL_MEM_SIZET:
      h.mem_size = option_value<size_t>(v, n, "ACL_MDL_MEM_SIZET");
      return;
    case ACL_MDL_WEIGHT_ADDR_PTR:
      h.weights = option_value<void *>(v, n, "ACL_MDL_WEIGHT_ADDR_PTR");
      return;
    case ACL_MDL_WEIGHT_SIZET:
      h.weight_size = option_value<size_t>(v, n, "ACL_MDL_WEIGHT_SIZET");
      return;
    case ACL_MDL_WORKSPACE_ADDR_PTR:
      h.work = option_value<void *>(v, n, "ACL_MDL_WORKSPACE_ADDR_PTR");
      return;
    case ACL_MDL_WORKSPACE_SIZET:
      h.work_size = option_value<size_t>(v, n, "ACL_MDL_WORKSPACE_SIZET");
      return;
    default:
      fail(Errc::api_not_supported,
           "aclmdlConfigAttr " + std::to_string(enum_value(attr)) +
               " (queues, external weights, task images, FIFOs) is not supported by openacl");
  }
}

void set_exec_option(aclmdlExecConfigHandle &h, aclmdlExecConfigAttr attr, const void *v,
                     size_t n) {
  switch (enum_value(attr)) {
    case ACL_MDL_STREAM_SYNC_TIMEOUT: {
      const auto t = option_value<int32_t>(v, n, "ACL_MDL_STREAM_SYNC_TIMEOUT");
      if (t < -1 || t == 0)
        fail(
            Errc::invalid_argument,
            "ACL_MDL_STREAM_SYNC_TIMEOUT must be -1 (forever) or > 0 ms, got " + std::to_string(t));
      h.stream_timeout_ms = t;
      return;
    }
    case ACL_MDL_EVENT_SYNC_TIMEOUT: {  // a model of openacl waits on no events
      const auto t = option_value<int32_t>(v, n, "ACL_MDL_EVENT_SYNC_TIMEOUT");
      if (t < -1 || t == 0)
        fail(Errc::invalid_argument,
             "ACL_MDL_EVENT_SYNC_TIMEOUT must be -1 (forever) or > 0 ms, got " + std::to_string(t));
      return;
    }
    case ACL_MDL_WORK_ADDR_PTR:
    case ACL_MDL_WORK_SIZET:
      fail(Errc::api_not_supported,
           "ACL_MDL_WORK_ADDR_PTR / ACL_MDL_WORK_SIZET are not supported (as in CANN): give work "
           "memory at load time (aclmdlLoadFromFileWithMem)");
    case ACL_MDL_MPAIMID_SIZET:
    case ACL_MDL_AICQOS_SIZET:
    case ACL_MDL_AICOST_SIZET:
    case ACL_MDL_MEC_TIMETHR_SIZET:
      option_value<size_t>(v, n, "a reserved aclmdlExecConfigAttr");
      return;
    case ACL_MDL_EXEC_PRIORITY_INT32:
      option_value<int32_t>(v, n, "ACL_MDL_EXEC_PRIORITY_INT32");
      return;
    case ACL_MDL_NPU_PERF_MODE:
      option_value<int32_t>(v, n, "ACL_MDL_NPU_PERF_MODE");
      return;
    default:
      fail(Errc::invalid_argument,
           "aclmdlExecConfigAttr " + std::to_string(enum_value(attr)) + " is unknown");
  }
}

void load_with(const aclmdlConfigHandle &h, uint32_t *modelId) {
  require_initialized();
  if (!h.load_type) fail(Errc::invalid_argument, "the config sets no ACL_MDL_LOAD_TYPE_SIZET");
  const size_t type = *h.load_type;
  const bool from_file = type == ACL_MDL_LOAD_FROM_FILE || type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
  const bool with_mem =
      type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
  const model::MemoryOptions mem =
      with_mem ? model::MemoryOptions{h.work, h.work_size, h.weights, h.weight_size}
               : model::MemoryOptions{};
  if (from_file) {
    if (h.path.empty()) fail(Errc::invalid_argument, "a load from file needs ACL_MDL_PATH_PTR");
    auto bytes = read_model_file(h.path.c_str());
    load_model(bytes.data(), bytes.size(), modelId, mem, model_file_stem(h.path.c_str()));
  } else {
    if (h.mem == nullptr || h.mem_size == 0)
      fail(Errc::invalid_argument,
           "a load from memory needs ACL_MDL_MEM_ADDR_PTR and ACL_MDL_MEM_SIZET");
    load_model(h.mem, h.mem_size, modelId, mem);
  }
}

}  // namespace
}  // namespace openacl::api

using namespace openacl::api;

extern "C" {

ACL_FUNC_VISIBILITY aclmdlConfigHandle *aclmdlCreateConfigHandle() {
  aclmdlConfigHandle *out = nullptr;
  guarded(__func__, [&] {
    auto h = std::make_shared<aclmdlConfigHandle>();
    out = h.get();
    configs().add(std::move(h));
  });
  return out;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle) {
  return guarded(__func__, [&] {
    live(configs(), handle, "model config handle");
    configs().remove(handle);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr,
                                                const void *attrValue, size_t valueSize) {
  return guarded(__func__, [&] {
    set_option(live(configs(), handle, "model config handle"), attr, attrValue, valueSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle,
                                                  uint32_t *modelId) {
  return guarded(__func__, [&] {
    if (modelId == nullptr) fail(Errc::invalid_argument, "modelId is NULL");
    load_with(live(configs(), handle, "model config handle"), modelId);
  });
}

ACL_FUNC_VISIBILITY aclmdlExecConfigHandle *aclmdlCreateExecConfigHandle() {
  aclmdlExecConfigHandle *out = nullptr;
  guarded(__func__, [&] {
    auto h = std::make_shared<aclmdlExecConfigHandle>();
    out = h.get();
    exec_configs().add(std::move(h));
  });
  return out;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyExecConfigHandle(const aclmdlExecConfigHandle *handle) {
  return guarded(__func__, [&] {
    live(exec_configs(), handle, "model execution config handle");
    exec_configs().remove(handle);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlSetExecConfigOpt(aclmdlExecConfigHandle *handle,
                                                    aclmdlExecConfigAttr attr,
                                                    const void *attrValue, size_t valueSize) {
  return guarded(__func__, [&] {
    set_exec_option(live(exec_configs(), handle, "model execution config handle"), attr, attrValue,
                    valueSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset *input,
                                             aclmdlDataset *output, aclrtStream stream,
                                             const aclmdlExecConfigHandle *handle) {
  return guarded(__func__, [&] {
    const int32_t timeout =
        live(exec_configs(), handle, "model execution config handle").stream_timeout_ms;
    ModelCall call = prepare_call(modelId, input, output, stream);
    openacl::model::Execution &e = call.execution;
    call.model->execute(*call.stream, std::move(e.plan), std::move(e.inputs), std::move(e.outputs),
                        timeout);
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset *input,
                                                  aclmdlDataset *output, aclrtStream stream,
                                                  const aclmdlExecConfigHandle *handle) {
  return guarded(__func__, [&] {
    live(exec_configs(), handle, "model execution config handle");
    ModelCall call = prepare_call(modelId, input, output, stream);
    enqueue_call(call);
  });
}

}  // extern "C"
