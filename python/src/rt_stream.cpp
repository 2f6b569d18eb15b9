// acl.rt: streams and events. Stream 0 is the current context's default stream.
#include "common.h"

#include <acl/acl.h>

namespace openacl::py_acl {

namespace {

void register_stream(py::module_ &rt) {
  rt.def("create_stream", [] {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCreateStream(&stream);
    return std::make_tuple(to_int(stream), ret);
  });
  rt.def("create_stream_with_config", [](uint32_t priority, uint32_t flag) {
    aclrtStream stream = nullptr;
    aclError ret = aclrtCreateStreamWithConfig(&stream, priority, flag);
    return std::make_tuple(to_int(stream), ret);
  });
  // aclrtDestroyStream waits for the stream's tasks, which may be Python callbacks.
  rt.def(
      "destroy_stream", [](Ptr stream) { return aclrtDestroyStream(to_ptr(stream)); }, nogil());
  rt.def(
      "destroy_stream_force", [](Ptr stream) { return aclrtDestroyStreamForce(to_ptr(stream)); },
      nogil());
  rt.def(
      "synchronize_stream", [](Ptr stream) { return aclrtSynchronizeStream(to_ptr(stream)); },
      nogil());
  rt.def(
      "synchronize_stream_with_timeout",
      [](Ptr stream, int32_t timeout) {
        return aclrtSynchronizeStreamWithTimeout(to_ptr(stream), timeout);
      },
      nogil());
  rt.def("stream_query", [](Ptr stream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    aclError ret = aclrtStreamQuery(to_ptr(stream), &status);
    return std::make_tuple(static_cast<int>(status), ret);
  });
  rt.def("stream_get_priority", [](Ptr stream) {
    uint32_t priority = 0;
    aclError ret = aclrtStreamGetPriority(to_ptr(stream), &priority);
    return std::make_tuple(priority, ret);
  });
  rt.def("stream_get_flags", [](Ptr stream) {
    uint32_t flags = 0;
    aclError ret = aclrtStreamGetFlags(to_ptr(stream), &flags);
    return std::make_tuple(flags, ret);
  });
  rt.def("stream_get_id", [](Ptr stream) {
    int32_t id = 0;
    aclError ret = aclrtStreamGetId(to_ptr(stream), &id);
    return std::make_tuple(id, ret);
  });
  rt.def("set_stream_failure_mode",
         [](Ptr stream, uint64_t mode) { return aclrtSetStreamFailureMode(to_ptr(stream), mode); });
  rt.def(
      "stream_abort", [](Ptr stream) { return aclrtStreamAbort(to_ptr(stream)); }, nogil());
  rt.def("get_stream_available_num", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetStreamAvailableNum(&count);
    return std::make_tuple(count, ret);
  });
}

void register_event(py::module_ &rt) {
  rt.def("create_event", [] {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEvent(&event);
    return std::make_tuple(to_int(event), ret);
  });
  rt.def("create_event_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEventWithFlag(&event, flag);
    return std::make_tuple(to_int(event), ret);
  });
  rt.def("create_event_ex_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError ret = aclrtCreateEventExWithFlag(&event, flag);
    return std::make_tuple(to_int(event), ret);
  });
  rt.def("destroy_event", [](Ptr event) { return aclrtDestroyEvent(to_ptr(event)); });
  rt.def("record_event",
         [](Ptr event, Ptr stream) { return aclrtRecordEvent(to_ptr(event), to_ptr(stream)); });
  rt.def("record_event_with_flag", [](Ptr event, Ptr stream, uint32_t flag) {
    return aclrtRecordEventWithFlag(to_ptr(event), to_ptr(stream), flag);
  });
  rt.def("reset_event",
         [](Ptr event, Ptr stream) { return aclrtResetEvent(to_ptr(event), to_ptr(stream)); });
  rt.def("query_event", [](Ptr event) {
    aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
    aclError ret = aclrtQueryEvent(to_ptr(event), &status);
    return std::make_tuple(static_cast<int>(status), ret);
  });
  rt.def("query_event_status", [](Ptr event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclError ret = aclrtQueryEventStatus(to_ptr(event), &status);
    return std::make_tuple(static_cast<int>(status), ret);
  });
  rt.def("query_event_wait_status", [](Ptr event) {
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    aclError ret = aclrtQueryEventWaitStatus(to_ptr(event), &status);
    return std::make_tuple(static_cast<int>(status), ret);
  });
  rt.def(
      "synchronize_event", [](Ptr event) { return aclrtSynchronizeEvent(to_ptr(event)); }, nogil());
  rt.def(
      "synchronize_event_with_timeout",
      [](Ptr event, int32_t timeout) {
        return aclrtSynchronizeEventWithTimeout(to_ptr(event), timeout);
      },
      nogil());
  rt.def("event_elapsed_time", [](Ptr start, Ptr end) {
    float ms = 0.0f;
    aclError ret = aclrtEventElapsedTime(&ms, to_ptr(start), to_ptr(end));
    return std::make_tuple(ms, ret);
  });
  rt.def("event_get_timestamp", [](Ptr event) {
    uint64_t timestamp = 0;
    aclError ret = aclrtEventGetTimestamp(to_ptr(event), &timestamp);
    return std::make_tuple(timestamp, ret);
  });
  rt.def(
      "stream_wait_event",
      [](Ptr stream, Ptr event) { return aclrtStreamWaitEvent(to_ptr(stream), to_ptr(event)); },
      nogil());
  rt.def(
      "stream_wait_event_with_timeout",
      [](Ptr stream, Ptr event, int32_t timeout) {
        return aclrtStreamWaitEventWithTimeout(to_ptr(stream), to_ptr(event), timeout);
      },
      nogil());
  rt.def("get_event_id", [](Ptr event) {
    uint32_t id = 0;
    aclError ret = aclrtGetEventId(to_ptr(event), &id);
    return std::make_tuple(id, ret);
  });
  rt.def("get_event_avail_num", [] {
    uint32_t count = 0;
    aclError ret = aclrtGetEventAvailNum(&count);
    return std::make_tuple(count, ret);
  });
  rt.def("set_stream_overflow_switch", [](Ptr stream, uint32_t flag) {
    return aclrtSetStreamOverflowSwitch(to_ptr(stream), flag);
  });
  rt.def("get_stream_overflow_switch", [](Ptr stream) {
    uint32_t flag = 0;
    aclError ret = aclrtGetStreamOverflowSwitch(to_ptr(stream), &flag);
    return std::make_tuple(flag, ret);
  });
  rt.def(
      "get_overflow_status",
      [](Ptr output, size_t size, Ptr stream) {
        return aclrtGetOverflowStatus(to_ptr(output), size, to_ptr(stream));
      },
      nogil());
  rt.def(
      "reset_overflow_status", [](Ptr stream) { return aclrtResetOverflowStatus(to_ptr(stream)); },
      nogil());
  rt.def("set_op_wait_timeout", [](uint32_t timeout) { return aclrtSetOpWaitTimeout(timeout); });
  rt.def("set_op_execute_time_out",
         [](uint32_t timeout) { return aclrtSetOpExecuteTimeOut(timeout); });
  rt.def("set_op_execute_timeout_v2", [](uint64_t timeout) {
    uint64_t actual = 0;
    aclError ret = aclrtSetOpExecuteTimeOutV2(timeout, &actual);
    return std::make_tuple(actual, ret);
  });
}

}  // namespace

// pyACL's notify calls; the timeout of wait_and_reset_notify goes to the C call unchanged.
void register_notify(py::module_ &rt) {
  rt.def("create_notify", [](uint64_t flag) {
    aclrtNotify notify = nullptr;
    aclError ret = aclrtCreateNotify(&notify, flag);
    return std::make_tuple(to_int(notify), ret);
  });
  rt.def("destroy_notify", [](Ptr notify) { return aclrtDestroyNotify(to_ptr(notify)); });
  rt.def("record_notify",
         [](Ptr notify, Ptr stream) { return aclrtRecordNotify(to_ptr(notify), to_ptr(stream)); });
  rt.def("wait_and_reset_notify", [](Ptr notify, Ptr stream, uint32_t timeout) {
    return aclrtWaitAndResetNotify(to_ptr(notify), to_ptr(stream), timeout);
  });
  rt.def("get_notify_id", [](Ptr notify) {
    uint32_t id = 0;
    aclError ret = aclrtGetNotifyId(to_ptr(notify), &id);
    return std::make_tuple(id, ret);
  });
  rt.def("notify_batch_reset", [](const std::vector<Ptr> &notifies) {
    auto handles = to_ptrs<void>(notifies);
    return aclrtNotifyBatchReset(handles.data(), handles.size());
  });
}

// Streams synchronized through a 64-bit value in device memory.
void register_value_sync(py::module_ &rt) {
  rt.def("value_write", [](Ptr dev_addr, uint64_t value, uint32_t flag, Ptr stream) {
    return aclrtValueWrite(to_ptr(dev_addr), value, flag, to_ptr(stream));
  });
  rt.def("value_wait", [](Ptr dev_addr, uint64_t value, uint32_t flag, Ptr stream) {
    return aclrtValueWait(to_ptr(dev_addr), value, flag, to_ptr(stream));
  });
}

void register_rt_stream(py::module_ &rt) {
  register_stream(rt);
  register_event(rt);
  register_notify(rt);
  register_value_sync(rt);
}

}  // namespace openacl::py_acl
