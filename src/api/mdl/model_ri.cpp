// Model run instances by stream capture (aclmdlRICapture*, aclmdlRIExecute*): the tasks
// submitted to a captured stream (and to the streams that join it through events) are kept
// (src/core/model_ri.h) and run at each launch.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/rt/capture.h"
#include "core/context.h"
#include "core/runtime.h"
#include "core/thread_state.h"

using openacl::Errc;
using openacl::fail;
using openacl::ModelRI;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

static_assert(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL == openacl::kCaptureModeGlobal &&
              ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL == openacl::kCaptureModeThreadLocal &&
              ACL_MODEL_RI_CAPTURE_MODE_RELAXED == openacl::kCaptureModeRelaxed);

int32_t capture_mode(const aclmdlRICaptureMode &mode) {
  const int64_t m = openacl::api::enum_value(mode);
  if (m < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || m > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
    fail(Errc::invalid_argument,
         "mode " + std::to_string(m) + " is not an aclmdlRICaptureMode (0 to 2)");
  }
  return static_cast<int32_t>(m);
}

std::shared_ptr<ModelRI> model_ri_of(aclmdlRI modelRI) {
  if (modelRI == nullptr) fail(Errc::invalid_argument, "modelRI is NULL");
  auto ri = Runtime::get().model_ris.find(modelRI);
  if (!ri) fail(Errc::invalid_handle, "modelRI is an unknown or destroyed model run instance");
  return ri;
}

// A model run instance whose capture has finished: one to launch or destroy.
std::shared_ptr<ModelRI> ready(aclmdlRI modelRI) {
  auto ri = model_ri_of(modelRI);
  if (ri->capturing())
    fail(Errc::model_captured,
         "the model run instance is still being captured: call aclmdlRICaptureEnd first");
  return ri;
}

}  // namespace

namespace openacl::api {

void require_capture_safe(const char *api) { Runtime::get().captures().require_safe(api); }

}  // namespace openacl::api

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  return guarded(__func__, [&] {
    require_initialized();
    const int32_t m = capture_mode(mode);
    auto s = openacl::api::stream_for_submit(stream);
    if (stream == nullptr || s == s->context().default_stream()) {
      fail(Errc::capture_implicit,
           "the default stream cannot be captured: capture a stream from aclrtCreateStream");
    }
    auto ri = std::make_shared<ModelRI>(s, m, openacl::os_thread_id());
    s->begin_capture(ri, 0);
    Runtime::get().model_ris.add(ri);
    Runtime::get().captures().track(ri, true);
  });
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                aclmdlRI *modelRI) {
  return guarded(__func__, [&] {
    require_initialized();
    if (status == nullptr) fail(Errc::invalid_argument, "status is NULL");
    if (modelRI == nullptr) fail(Errc::invalid_argument, "modelRI is NULL");
    auto ri = openacl::api::stream_for_host(stream)->capture();
    *status = !ri             ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
              : ri->invalid() ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                              : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    *modelRI = ri ? ri->handle() : nullptr;
  });
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
  return guarded(__func__, [&] {
    require_initialized();
    if (modelRI == nullptr) fail(Errc::invalid_argument, "modelRI is NULL");
    auto s = openacl::api::stream_for_host(stream);
    auto ri = s->capture();
    if (!ri)
      fail(Errc::stream_not_captured,
           "the stream is not being captured (no aclmdlRICaptureBegin on it)");
    if (s->capture_lane() != 0) {
      fail(Errc::capture_unmatched,
           "the stream joined a capture through an event; end the capture on the stream that began "
           "it");
    }
    if (ri->mode() == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
        ri->thread() != openacl::os_thread_id()) {
      fail(Errc::capture_wrong_thread,
           "a THREAD_LOCAL capture must end on the thread that began it");
    }
    s->end_capture();
    Runtime::get().captures().track(ri, false);
    *modelRI = nullptr;
    if (auto why = ri->invalid()) {
      Runtime::get().model_ris.remove(ri->handle());
      fail(Errc::capture_invalidated, "the capture was invalidated: " + *why);
    }
    if (auto lanes = ri->unjoined(); !lanes.empty()) {
      Runtime::get().model_ris.remove(ri->handle());
      fail(Errc::stream_unjoined, std::to_string(lanes.size()) +
                                      " stream(s) joined the capture through an event but were not "
                                      "joined back: record an event at the end of each and make "
                                      "the capturing stream wait on it");
    }
    *modelRI = ri->handle();
  });
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
  return guarded(__func__, [&] {
    if (mode == nullptr) fail(Errc::invalid_argument, "mode is NULL");
    const int32_t wanted = capture_mode(*mode);
    int32_t &current = openacl::this_thread().capture_mode;
    *mode = static_cast<aclmdlRICaptureMode>(current);
    current = wanted;
  });
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto ri = ready(modelRI);
    ri->launch(openacl::api::stream_for_submit(stream));
  });
}

// Runs the instance on the stream it was captured from and waits; timeout in ms, -1 (or 0)
// waits forever.
aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    auto ri = ready(modelRI);
    const int32_t ms = openacl::api::timeout_ms(timeout);
    auto s = ri->origin();
    if (!s)
      fail(Errc::invalid_handle,
           "the stream the model run instance was captured from is destroyed: use "
           "aclmdlRIExecuteAsync");
    ri->launch(s);
    s->synchronize(ms);
  });
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  return guarded(__func__, [&] {
    require_initialized();
    ready(modelRI);
    Runtime::get().model_ris.remove(modelRI);  // launches already submitted run on
  });
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (modelRIId == nullptr) fail(Errc::invalid_argument, "modelRIId is NULL");
    *modelRIId = openacl::handle_serial(model_ri_of(modelRI)->handle());
  });
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name) {
  return guarded(__func__, [&] {
    require_initialized();
    if (name == nullptr) fail(Errc::invalid_argument, "name is NULL");
    model_ri_of(modelRI)->set_name(name);
  });
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name) {
  return guarded(__func__, [&] {
    require_initialized();
    if (name == nullptr) fail(Errc::invalid_argument, "name is NULL");
    const std::string n = model_ri_of(modelRI)->name();
    if (maxLen <= n.size()) {
      fail(Errc::invalid_argument, "maxLen " + std::to_string(maxLen) + " cannot hold the name (" +
                                       std::to_string(n.size()) +
                                       " characters and the terminating NUL)");
    }
    std::memcpy(name, n.c_str(), n.size() + 1);
  });
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams) {
  return guarded(__func__, [&] {
    require_initialized();
    if (numStreams == nullptr) fail(Errc::invalid_argument, "numStreams is NULL");
    auto lanes = model_ri_of(modelRI)->lanes();
    const auto n = static_cast<uint32_t>(lanes.size());
    if (streams != nullptr) {
      if (*numStreams < n) {
        fail(Errc::invalid_argument, "numStreams " + std::to_string(*numStreams) +
                                         " is less than the model's " + std::to_string(n) +
                                         " stream(s)");
      }
      for (uint32_t i = 0; i < n; ++i) streams[i] = lanes[i]->handle();
    }
    *numStreams = n;
  });
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  return guarded(__func__, [&] {
    require_initialized();
    auto ri = model_ri_of(modelRI);
    auto steps = ri->steps();
    std::fprintf(stderr, "openacl: model run instance %u \"%s\": %zu task(s) on %zu stream(s)%s\n",
                 openacl::handle_serial(ri->handle()), ri->name().c_str(), steps.size(),
                 ri->lanes().size(), ri->capturing() ? " (capture in progress)" : "");
    for (size_t i = 0; i < steps.size(); ++i) {
      std::fprintf(stderr, "  %zu  stream %u  %-13s %s\n", i, steps[i].lane,
                   openacl::task_kind_name(steps[i].kind), steps[i].label.c_str());
    }
  });
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags) {
  return guarded(__func__, [&] {
    require_initialized();
    if (path == nullptr) fail(Errc::invalid_argument, "path is NULL");
    if (flags != 0) fail(Errc::invalid_argument, "flags must be 0");
    auto ri = model_ri_of(modelRI);
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto &step : ri->steps()) {
      tasks.push_back({{"type", openacl::task_kind_name(step.kind)},
                       {"label", step.label},
                       {"stream", step.lane}});
    }
    nlohmann::json doc = {
        {"id", openacl::handle_serial(ri->handle())}, {"name", ri->name()}, {"tasks", tasks}};
    std::ofstream out(path);
    if (!(out << doc.dump(2) << '\n'))
      fail(Errc::invalid_file, std::string("cannot write ") + path);
  });
}

}  // extern "C"
