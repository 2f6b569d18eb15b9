// acl.rt: host callbacks. The runtime calls a C trampoline on the subscribed thread (inside
// acl.rt.process_report, which has dropped the GIL); the trampoline takes the GIL only for
// the Python call.
#include "common.h"

#include <acl/acl.h>

namespace openacl::py_acl {

namespace {

// What the C side carries as userData: the Python function and its argument, kept alive
// until the callback has run.
struct PyCall {
  py::object fn;
  py::object arg;
};

extern "C" void run_py_call(void *user) {
  auto *call = static_cast<PyCall *>(user);
  // The interpreter is going away: entering it now would hang or crash this thread, so the
  // call (and its references) is dropped.
  if (interpreter_exiting()) return;
  py::gil_scoped_acquire gil;
  try {
    call->fn(call->arg);
  } catch (py::error_already_set &e) {
    e.discard_as_unraisable("acl.rt callback");
  }
  delete call;
}

PyCall *make_call(const py::object &fn, const py::object &arg) {
  if (!PyCallable_Check(fn.ptr())) throw py::type_error("callback must be callable");
  return new PyCall{fn, arg};
}

// acl.rt.set_exception_info_callback: the one Python function the C trampoline calls. Never
// freed: it may be called from a device worker until the process ends.
py::object *exception_fn = nullptr;

extern "C" void run_py_exception(aclrtExceptionInfo *info) {
  if (interpreter_exiting()) return;
  py::gil_scoped_acquire gil;
  if (exception_fn == nullptr || exception_fn->is_none()) return;
  try {
    (*exception_fn)(to_int(info));
  } catch (py::error_already_set &e) {
    e.discard_as_unraisable("acl.rt exception callback");
  }
}

}  // namespace

void register_rt_callback(py::module_ &rt) {
  // pyACL: fn(exception_info) with the aclrtExceptionInfo pointer as an int, called on the
  // device worker of the failing task; None (or no argument) clears it.
  rt.def(
      "set_exception_info_callback",
      [](py::object fn) {
        if (!fn.is_none() && !PyCallable_Check(fn.ptr()))
          throw py::type_error("callback must be callable or None");
        if (exception_fn == nullptr) exception_fn = new py::object();
        *exception_fn = fn;
        NoGil released;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        return aclrtSetExceptionInfoCallback(fn.is_none() ? nullptr : run_py_exception);
#pragma GCC diagnostic pop
      },
      py::arg("fn") = py::none());
  rt.def("get_task_id_from_exception_info", [](Ptr info) {
    return aclrtGetTaskIdFromExceptionInfo(to_ptr<const aclrtExceptionInfo>(info));
  });
  rt.def("get_stream_id_from_exception_info", [](Ptr info) {
    return aclrtGetStreamIdFromExceptionInfo(to_ptr<const aclrtExceptionInfo>(info));
  });
  rt.def("get_thread_id_from_exception_info", [](Ptr info) {
    return aclrtGetThreadIdFromExceptionInfo(to_ptr<const aclrtExceptionInfo>(info));
  });
  rt.def("get_device_id_from_exception_info", [](Ptr info) {
    return aclrtGetDeviceIdFromExceptionInfo(to_ptr<const aclrtExceptionInfo>(info));
  });
  rt.def("get_error_code_from_exception_info", [](Ptr info) {
    return aclrtGetErrorCodeFromExceptionInfo(to_ptr<const aclrtExceptionInfo>(info));
  });
  // Thread ids are pthread_t values: those of acl.util.start_thread and threading.get_ident().
  rt.def(
      "subscribe_report",
      [](uint64_t thread_id, Ptr stream) {
        return aclrtSubscribeReport(thread_id, to_ptr(stream));
      },
      nogil());
  rt.def(
      "unsubscribe_report",
      [](uint64_t thread_id, Ptr stream) {
        return aclrtUnSubscribeReport(thread_id, to_ptr(stream));
      },
      nogil());
  rt.def(
      "process_report", [](int32_t timeout) { return aclrtProcessReport(timeout); }, nogil());
  rt.def("launch_callback", [](py::object fn, py::object user_data, int block_type, Ptr stream) {
    PyCall *call = make_call(fn, user_data);
    aclError ret;
    {
      NoGil released;
      ret = aclrtLaunchCallback(run_py_call, call, static_cast<aclrtCallbackBlockType>(block_type),
                                to_ptr(stream));
    }
    if (ret != ACL_SUCCESS) delete call;
    return ret;
  });
  rt.def(
      "subscribe_host_func",
      [](uint64_t thread_id, Ptr stream) {
        return aclrtSubscribeHostFunc(thread_id, to_ptr(stream));
      },
      nogil());
  rt.def(
      "unsubscribe_host_func",
      [](uint64_t thread_id, Ptr stream) {
        return aclrtUnSubscribeHostFunc(thread_id, to_ptr(stream));
      },
      nogil());
  rt.def(
      "process_host_func", [](int32_t timeout) { return aclrtProcessHostFunc(timeout); }, nogil());
  // Not in pyACL: the C call's order (stream, fn, args); fn runs on a runtime thread (or on
  // the thread subscribed with subscribe_host_func).
  rt.def("launch_host_func", [](Ptr stream, py::object fn, py::object args) {
    PyCall *call = make_call(fn, args);
    aclError ret;
    {
      NoGil released;
      ret = aclrtLaunchHostFunc(to_ptr(stream), run_py_call, call);
    }
    if (ret != ACL_SUCCESS) delete call;
    return ret;
  });
}

}  // namespace openacl::py_acl
