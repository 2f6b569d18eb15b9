// Streams (R8-R12): creation, destruction, synchronization, query.
#include "core/stream.h"
#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/context.h"
#include "core/device.h"
#include "core/observer.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/thread_state.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

void create(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  require_initialized();
  if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
  *stream = openacl::api::current_context()->create_stream(priority, flag)->handle();
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::stream, *stream, true);
}

// Waiting for, querying or destroying a stream makes no sense while its tasks are being
// captured rather than run.
std::shared_ptr<openacl::Stream> not_capturing(std::shared_ptr<openacl::Stream> s) {
  if (s->capturing()) {
    fail(Errc::stream_captured,
         "the stream is being captured (aclmdlRICaptureBegin): end the capture with "
         "aclmdlRICaptureEnd first");
  }
  return s;
}

void destroy(aclrtStream stream, bool force) {
  require_initialized();
  if (stream == nullptr) {
    fail(Errc::invalid_argument, "stream is NULL: the default stream cannot be destroyed");
  }
  auto s = not_capturing(openacl::api::stream_for_submit(stream));
  if (s == s->context().default_stream()) {
    fail(Errc::invalid_argument, "the default stream of a context cannot be destroyed");
  }
  Runtime::get().streams.remove(stream);
  s->context().forget_stream(s.get());
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::stream, stream, false);
  openacl::HostSpan span(force ? "aclrtDestroyStreamForce" : "aclrtDestroyStream");
  if (force) {
    s->drop_pending();
  } else {
    try {
      s->synchronize(-1);
    } catch (const openacl::Error &) {
      // The stream is destroyed whatever its tasks did; syncs before reported the failure.
    }
  }
  s->forget_subscriptions();
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream *stream) {
  return guarded(__func__, [&] { create(stream, 0, 0); });
}

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  return guarded(__func__, [&] { create(stream, priority, flag); });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return guarded(__func__, [&] { destroy(stream, false); });
}

aclError aclrtDestroyStreamForce(aclrtStream stream) {
  return guarded(__func__, [&] { destroy(stream, true); });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::HostSpan span("aclrtSynchronizeStream");
    not_capturing(openacl::api::stream_for_host(stream))->synchronize(-1);
  });
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    int32_t ms = openacl::api::timeout_ms(timeout);
    openacl::HostSpan span("aclrtSynchronizeStreamWithTimeout");
    not_capturing(openacl::api::stream_for_host(stream))->synchronize(ms);
  });
}

// Drops the stream's tasks that have not started; the running one finishes (a simulated AI
// core cannot be stopped). Event records among the dropped tasks complete with
// ACL_ERROR_RT_STREAM_ABORT, so streams waiting on them go on (and report it). The stream
// stays usable.
aclError aclrtStreamAbort(aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stream == nullptr) fail(Errc::invalid_argument, "stream is NULL");
    not_capturing(openacl::api::stream_for_host(stream))->drop_pending();
  });
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
  return guarded(__func__, [&] {
    require_initialized();
    if (status == nullptr) fail(Errc::invalid_argument, "status is NULL");
    *status = not_capturing(openacl::api::stream_for_host(stream))->query()
                  ? ACL_STREAM_STATUS_COMPLETE
                  : ACL_STREAM_STATUS_NOT_READY;
  });
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority) {
  return guarded(__func__, [&] {
    require_initialized();
    if (priority == nullptr) fail(Errc::invalid_argument, "priority is NULL");
    *priority = openacl::api::stream_for_host(stream)->priority();
  });
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (streamId == nullptr) fail(Errc::invalid_argument, "streamId is NULL");
    *streamId = static_cast<int32_t>(
        openacl::handle_serial(openacl::api::stream_for_host(stream)->handle()));
  });
}

// The id of the calling thread's latest task, in its stream's numbering (from 1): the task id
// that exception callbacks report.
aclError aclrtGetThreadLastTaskId(uint32_t *taskId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (taskId == nullptr) fail(Errc::invalid_argument, "taskId is NULL");
    *taskId = openacl::this_thread().last_task_id;
  });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags) {
  return guarded(__func__, [&] {
    require_initialized();
    if (flags == nullptr) fail(Errc::invalid_argument, "flags is NULL");
    *flags = openacl::api::stream_for_host(stream)->flags();
  });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  return guarded(__func__, [&] {
    require_initialized();
    openacl::api::stream_for_submit(stream);
    if (mode != ACL_STOP_ON_FAILURE && mode != ACL_CONTINUE_ON_FAILURE) {
      fail(Errc::invalid_argument, "mode must be ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE");
    }
    // Streams always stop on failure (R20); continuing past a failed task is not simulated.
    if (mode == ACL_CONTINUE_ON_FAILURE) {
      fail(Errc::feature_not_supported,
           "ACL_CONTINUE_ON_FAILURE is not supported: a failed task always stops its stream");
    }
  });
}

// Streams still creatable on the current device (Device::kMaxStreams, default streams counted).
aclError aclrtGetStreamAvailableNum(uint32_t *streamCount) {
  return guarded(__func__, [&] {
    require_initialized();
    if (streamCount == nullptr) fail(Errc::invalid_argument, "streamCount is NULL");
    const auto &device = openacl::api::current_device();
    const uint32_t live = device.live_streams();
    *streamCount = live >= openacl::Device::kMaxStreams ? 0 : openacl::Device::kMaxStreams - live;
  });
}

}  // extern "C"
