// Events (R11, R12): record, wait, reset, query, synchronize, timing.
#include "core/event.h"
#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/rt/capture.h"
#include "core/context.h"
#include "core/device.h"
#include "core/observer.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/signal.h"
#include "core/stream.h"
#include "core/tasks.h"

using openacl::Errc;
using openacl::Event;
using openacl::fail;
using openacl::Runtime;
using openacl::api::event_of;
using openacl::api::guarded;
using openacl::api::require_initialized;
using openacl::api::submit_or_capture;

namespace {

constexpr uint32_t kKnownFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                 ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                 ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

void create(aclrtEvent *event, uint32_t flags, bool ex) {
  require_initialized();
  if (event == nullptr) fail(Errc::invalid_argument, "event is NULL");
  if ((flags & ~kKnownFlags) != 0) {
    fail(Errc::invalid_argument,
         "unknown event flag bits 0x" + std::to_string(flags & ~kKnownFlags));
  }
  if ((flags & (ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)) != 0) {
    fail(Errc::feature_not_supported, "external and IPC events are not supported by openacl");
  }
  *event = openacl::api::current_context()->create_event(flags, ex)->handle();
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::event, *event, true);
}

// An event used by a stream must belong to the stream's context (R7).
std::shared_ptr<Event> event_for(aclrtEvent event, const openacl::Stream &s) {
  auto e = event_of(event);
  if (&e->context() != &s.context()) {
    fail(Errc::stream_context, "the event belongs to another context than the stream");
  }
  return e;
}

// Events from aclrtCreateEventWithFlag without ACL_EVENT_SYNC cannot synchronize streams.
void require_sync_flag(const Event &e, const char *what) {
  if (!e.ex() && e.flags() != 0 && (e.flags() & ACL_EVENT_SYNC) == 0) {
    fail(Errc::invalid_argument,
         std::string("the event was created without ACL_EVENT_SYNC and cannot be used by ") + what);
  }
}

void record(aclrtEvent event, aclrtStream stream) {
  require_initialized();
  auto s = openacl::api::stream_for_submit(stream);
  auto e = event_for(event, *s);
  auto capture =
      submit_or_capture(s, openacl::TaskKind::event_record,
                        [e](const std::shared_ptr<openacl::Stream> &t) { e->record(*t); });
  if (capture) {
    e->set_captured_by(capture);
    capture->recorded(e.get(), s->capture_lane());
  }
}

bool complete(const Event &e) {
  auto r = e.latest();
  if (!r) return true;
  if (!r->done()) return false;
  openacl::notify(&openacl::TaskObserver::on_record_synchronized, *r);
  return true;
}

// A wait of `stream` for the event's latest record; timeout_s > 0 fails the stream with
// Errc::wait_timeout (reported by its next synchronization) when the record takes longer.
void wait_event(aclrtStream stream, aclrtEvent event, uint32_t timeout_s, const char *api) {
  require_initialized();
  auto s = openacl::api::stream_for_submit(stream);
  auto e = event_for(event, *s);
  require_sync_flag(*e, api);
  if (auto c = e->captured_by(); c && c->capturing()) {  // the event was recorded in a capture
    auto mine = s->capturing() ? s->capture() : nullptr;
    if (mine && mine != c) {
      fail(Errc::capture_conflict,
           "the event was recorded in another stream capture than the one the stream belongs to");
    }
    if (!mine) {  // fork: the stream joins the capture
      if (s == s->context().default_stream()) {
        fail(Errc::capture_implicit, "the default stream cannot join a stream capture");
      }
      s->begin_capture(c, c->join(s));
    }
  }
  // Binds to the latest record when submitted: at each launch, for a captured wait.
  auto capture = submit_or_capture(
      s, openacl::TaskKind::event_wait,
      [e, timeout_s, api](const std::shared_ptr<openacl::Stream> &t) {
        auto r = e->latest();
        if (!r) return;
        if (timeout_s > 0 && !r->done()) {
          r = openacl::with_deadline(r, int64_t{timeout_s} * 1000,
                                     std::string(api) + ": the event was not recorded within " +
                                         std::to_string(timeout_s) +
                                         " s; the stream's later tasks do not run");
        }
        t->enqueue(std::make_unique<openacl::WaitTask>(std::move(r)));
      });
  if (capture) capture->waited(e.get(), s->capture_lane());
}

// CANN's conditions on ACL_EVENT_WAIT_EXTERNAL.
void require_external_wait(const openacl::Stream &s, const Event &e, uint32_t timeout) {
  if (!s.capturing()) {
    fail(Errc::stream_not_captured,
         "ACL_EVENT_WAIT_EXTERNAL waits in a stream capture only, and the stream is not captured");
  }
  if (!e.ex() || e.flags() != ACL_EVENT_SYNC) {
    fail(Errc::invalid_argument,
         "ACL_EVENT_WAIT_EXTERNAL takes only an event from aclrtCreateEventExWithFlag with the "
         "flag ACL_EVENT_SYNC");
  }
  if (timeout != 0) {
    fail(Errc::invalid_argument, "timeout " + std::to_string(timeout) +
                                     " with ACL_EVENT_WAIT_EXTERNAL: it must be 0 (no limit)");
  }
  if (auto c = e.captured_by(); c && c == s.capture()) {
    fail(Errc::invalid_argument,
         "the event is recorded in this capture: ACL_EVENT_WAIT_EXTERNAL waits for a record made "
         "outside it");
  }
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent *event) {
  return guarded(__func__, [&] { create(event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, false); });
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  return guarded(__func__, [&] { create(event, flag, false); });
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  return guarded(__func__, [&] { create(event, flag, true); });
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  return guarded(__func__, [&] {
    require_initialized();
    if (event == nullptr) fail(Errc::invalid_argument, "event is NULL");
    auto e = Runtime::get().events.remove(event);
    if (!e) fail(Errc::invalid_handle, "unknown or already destroyed event");
    e->context().forget_event(e.get());
    openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::event, event, false);
  });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  return guarded(__func__, [&] { record(event, stream); });
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  return guarded(__func__, [&] {
    if (flag != ACL_EVENT_RECORD_DEFAULT) {
      fail(Errc::feature_not_supported, "only ACL_EVENT_RECORD_DEFAULT is supported");
    }
    record(event, stream);
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_submit(stream);
    auto e = event_for(event, *s);
    if (e->ex())
      fail(Errc::invalid_argument, "events from aclrtCreateEventExWithFlag cannot be reset");
    require_sync_flag(*e, "aclrtResetEvent");
    submit_or_capture(s, openacl::TaskKind::event_reset,
                      [e](const std::shared_ptr<openacl::Stream> &t) {
                        t->enqueue(std::make_unique<openacl::ResetTask>(e, e->latest()));
                      });
  });
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  return guarded(__func__, [&] {
    wait_event(stream, event, Runtime::get().op_wait_timeout_s(), "aclrtStreamWaitEvent");
  });
}

// timeout: seconds; 0 waits without a limit.
aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  return guarded(__func__, [&] {
    if (timeout < 0)
      fail(Errc::invalid_argument,
           "timeout " + std::to_string(timeout) + " is negative (seconds; 0 = no limit)");
    wait_event(stream, event, static_cast<uint32_t>(timeout), "aclrtStreamWaitEventWithTimeout");
  });
}

// ACL_EVENT_WAIT_DEFAULT is aclrtStreamWaitEventWithTimeout (timeout in seconds, 0 = no limit).
// ACL_EVENT_WAIT_EXTERNAL, in a stream capture only, waits for a record made outside the
// capture: at each launch the run instance waits for the event's latest record then.
aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                      uint32_t flag) {
  return guarded(__func__, [&] {
    if (flag == ACL_EVENT_WAIT_EXTERNAL) {
      require_initialized();
      auto s = openacl::api::stream_for_submit(stream);
      auto e = event_for(event, *s);
      require_external_wait(*s, *e, timeout);
    } else if (flag != ACL_EVENT_WAIT_DEFAULT) {
      fail(Errc::invalid_argument, "flag " + std::to_string(flag) +
                                       " is neither ACL_EVENT_WAIT_DEFAULT nor "
                                       "ACL_EVENT_WAIT_EXTERNAL");
    }
    wait_event(stream, event, timeout, "aclrtStreamWaitEventWithFlag");
  });
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().set_op_wait_timeout_s(timeout);
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  return guarded(__func__, [&] {
    require_initialized();
    if (status == nullptr) fail(Errc::invalid_argument, "status is NULL");
    auto e = event_of(event);
    if (e->ex())
      fail(Errc::invalid_argument,
           "events from aclrtCreateEventExWithFlag cannot be queried with aclrtQueryEvent");
    *status = complete(*e) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  });
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId) {
  return guarded(__func__, [&] {
    require_initialized();
    if (eventId == nullptr) fail(Errc::invalid_argument, "eventId is NULL");
    *eventId = openacl::handle_serial(event_of(event)->handle());
  });
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  return guarded(__func__, [&] {
    require_initialized();
    if (status == nullptr) fail(Errc::invalid_argument, "status is NULL");
    *status = complete(*event_of(event)) ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                         : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  });
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
  return guarded(__func__, [&] {
    require_initialized();
    if (status == nullptr) fail(Errc::invalid_argument, "status is NULL");
    auto e = event_of(event);
    if (e->ex())
      fail(Errc::invalid_argument,
           "events from aclrtCreateEventExWithFlag cannot be queried with "
           "aclrtQueryEventWaitStatus");
    *status = complete(*e) ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  });
}

static void synchronize_event(aclrtEvent event, int32_t timeout) {
  require_initialized();
  auto r = event_of(event)->latest();
  if (!r) return;  // never recorded: complete (R11)
  openacl::HostSpan span(timeout < 0 ? "aclrtSynchronizeEvent"
                                     : "aclrtSynchronizeEventWithTimeout");
  if (!r->wait(timeout)) {
    fail(Errc::event_sync_timeout,
         "the event's latest record did not complete within " + std::to_string(timeout) + " ms");
  }
  openacl::notify(&openacl::TaskObserver::on_record_synchronized, *r);
  if (r->error()) throw *r->error();
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  return guarded(__func__, [&] { synchronize_event(event, -1); });
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return guarded(__func__, [&] { synchronize_event(event, openacl::api::timeout_ms(timeout)); });
}

static std::shared_ptr<openacl::Signal> completed_record(aclrtEvent event, const char *what) {
  auto r = event_of(event, what)->latest();
  if (!r || !r->done()) {
    fail(Errc::event_timestamp_invalid,
         std::string(what) + " has no completed record (record it and synchronize first)");
  }
  return r;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  return guarded(__func__, [&] {
    require_initialized();
    if (ms == nullptr) fail(Errc::invalid_argument, "ms is NULL");
    auto start = completed_record(startEvent, "startEvent");
    auto end = completed_record(endEvent, "endEvent");
    int64_t ns = end->timestamp_ns() - start->timestamp_ns();
    if (ns < 0) {
      fail(Errc::event_timestamp_reversal, "endEvent completed before startEvent");
    }
    *ms = static_cast<float>(static_cast<double>(ns) / 1e6);
  });
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp) {
  return guarded(__func__, [&] {
    require_initialized();
    if (timestamp == nullptr) fail(Errc::invalid_argument, "timestamp is NULL");
    auto e = event_of(event);
    auto r = completed_record(event, "event");
    int64_t us = (r->timestamp_ns() - e->context().device().boot_ns()) / 1000;
    *timestamp = static_cast<uint64_t>(us < 0 ? 0 : us);
  });
}

// Event resources left on the current device (Device::kMaxEvents less its live events).
aclError aclrtGetEventAvailNum(uint32_t *eventCount) {
  return guarded(__func__, [&] {
    require_initialized();
    if (eventCount == nullptr) fail(Errc::invalid_argument, "eventCount is NULL");
    const auto &device = openacl::api::current_device();
    const uint32_t live = device.live_events();
    *eventCount = live >= openacl::Device::kMaxEvents ? 0 : openacl::Device::kMaxEvents - live;
  });
}

}  // extern "C"
