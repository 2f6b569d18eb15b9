// acl.util: pthreads that run Python functions, and conversions between numpy arrays,
// bytes and raw addresses.
#include "common.h"

#include <pybind11/numpy.h>

#include <pthread.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace openacl::py_acl {

namespace {

// ---- threads -------------------------------------------------------------------------

// Raw references rather than py::object: at interpreter exit CPython may end a thread that is
// running Python with a forced unwind, and no C++ destructor may touch Python on the way out.
struct PyThread {
  PyObject *fn = nullptr;    // owned
  PyObject *args = nullptr;  // owned; Py_None means fn()
  bool failed = false;
  std::string error;
};

std::mutex g_threads_mu;
std::unordered_map<uint64_t, std::unique_ptr<PyThread>> g_threads;

// Records the pending Python exception as the thread's failure (GIL held).
void record_failure(PyThread *t) {
  py::error_already_set e;
  t->failed = true;
  t->error = e.what();
}

void *thread_main(void *p) {
  auto *t = static_cast<PyThread *>(p);
  // Started while the interpreter shuts down: it can no longer run Python.
  if (interpreter_exiting()) return nullptr;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *result =
      t->args == Py_None ? PyObject_CallNoArgs(t->fn) : PyObject_CallOneArg(t->fn, t->args);
  if (result == nullptr) record_failure(t);
  Py_XDECREF(result);
  Py_CLEAR(t->fn);
  Py_CLEAR(t->args);
  PyGILState_Release(gil);
  return nullptr;
}

std::tuple<uint64_t, int> start_thread(py::object fn, py::object args) {
  if (!PyCallable_Check(fn.ptr()))
    throw py::type_error("start_thread: the function must be callable");
  auto t = std::make_unique<PyThread>();
  t->fn = fn.release().ptr();
  t->args = args.release().ptr();
  pthread_t tid{};
  int ret = pthread_create(&tid, nullptr, thread_main, t.get());
  if (ret != 0) {
    Py_CLEAR(t->fn);
    Py_CLEAR(t->args);
    return {0, ret};
  }
  auto id = static_cast<uint64_t>(tid);
  std::lock_guard lock(g_threads_mu);
  g_threads[id] = std::move(t);
  return {id, 0};
}

int stop_thread(uint64_t id) {
  std::unique_ptr<PyThread> t;
  {
    std::lock_guard lock(g_threads_mu);
    auto it = g_threads.find(id);
    // Joining a thread we did not start (or joined already) would be undefined behaviour.
    if (it == g_threads.end()) return ESRCH;
    t = std::move(it->second);
    g_threads.erase(it);
  }
  int ret;
  {
    NoGil released;
    ret = pthread_join(static_cast<pthread_t>(id), nullptr);
  }
  if (t->failed) throw std::runtime_error("acl.util thread function raised: " + t->error);
  return ret;
}

// ---- addresses -----------------------------------------------------------------------

// Reads [src, src+n) into dst through the kernel, so an unmapped address becomes EFAULT
// instead of a crash of the interpreter. Returns false for an unreadable range.
bool checked_copy(void *dst, const void *src, size_t n) {
  while (n > 0) {
    iovec local{dst, n};
    iovec remote{const_cast<void *>(src), n};
    ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (got < 0) {
      if (errno == EFAULT) return false;
      // The kernel forbids the call here (seccomp, ENOSYS): fall back to trusting the caller.
      std::memcpy(dst, src, n);
      return true;
    }
    if (got == 0) return false;
    dst = static_cast<char *>(dst) + got;
    src = static_cast<const char *>(src) + got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

// Probes one byte per page of [p, p+n).
bool readable(const void *p, size_t n) {
  if (n == 0) return true;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto begin = reinterpret_cast<uintptr_t>(p);
  uintptr_t end = begin + n;
  if (end < begin) return false;
  char probe;
  for (uintptr_t a = begin; a < end; a = (a / page + 1) * page)
    if (!checked_copy(&probe, reinterpret_cast<const void *>(a), 1)) return false;
  return checked_copy(&probe, reinterpret_cast<const void *>(end - 1), 1);
}

py::array as_ndarray(const py::object &obj, const char *api) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(std::string(api) + ": expected a numpy.ndarray");
  return py::reinterpret_borrow<py::array>(obj);
}

Ptr numpy_to_ptr(const py::object &obj) {
  py::array a = as_ndarray(obj, "numpy_to_ptr");
  if (PyErr_WarnEx(PyExc_DeprecationWarning,
                   "acl.util.numpy_to_ptr is deprecated, use acl.util.bytes_to_ptr", 1) < 0)
    throw py::error_already_set();
  if (!(a.flags() & py::array::c_style) &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "acl.util.numpy_to_ptr: the array is not C-contiguous; "
                   "use acl.util.numpy_contiguous_to_ptr",
                   1) < 0)
    throw py::error_already_set();
  return to_int(a.data());
}

std::tuple<Ptr, py::array> numpy_contiguous_to_ptr(const py::object &obj) {
  py::array a = as_ndarray(obj, "numpy_contiguous_to_ptr");
  py::array c = py::module_::import("numpy").attr("ascontiguousarray")(a);
  return {to_int(c.data()), c};
}

py::array ptr_to_numpy(Ptr ptr, std::vector<py::ssize_t> shape, int npy_type) {
  if (ptr == 0) throw py::value_error("ptr_to_numpy: ptr is 0");
  py::dtype dt(npy_type);
  size_t bytes = static_cast<size_t>(dt.itemsize());
  for (auto d : shape) {
    if (d < 0) throw py::value_error("ptr_to_numpy: negative dimension");
    bytes *= static_cast<size_t>(d);
  }
  if (!readable(to_ptr(ptr), bytes))
    throw py::value_error("ptr_to_numpy: the address range is not readable");
  // A base object makes numpy wrap the memory instead of copying it; the caller owns it.
  return py::array(dt, shape, to_ptr(ptr), py::none());
}

Ptr bytes_to_ptr(const py::object &obj) {
  if (PyBytes_Check(obj.ptr())) return to_int(PyBytes_AS_STRING(obj.ptr()));
  if (PyByteArray_Check(obj.ptr())) return to_int(PyByteArray_AS_STRING(obj.ptr()));
  throw py::type_error("bytes_to_ptr: expected bytes or bytearray");
}

py::bytes ptr_to_bytes(Ptr ptr, size_t size) {
  if (ptr == 0 && size != 0) throw py::value_error("ptr_to_bytes: ptr is 0");
  py::bytes out(nullptr, static_cast<py::ssize_t>(size));
  bool ok;
  {
    NoGil released;
    ok = checked_copy(PyBytes_AS_STRING(out.ptr()), to_ptr(ptr), size);
  }
  if (!ok) throw py::value_error("ptr_to_bytes: the address range is not readable");
  return out;
}

}  // namespace

void register_util(py::module_ &util) {
  util.def("start_thread", &start_thread, py::arg("func"), py::arg("args"));
  util.def("stop_thread", &stop_thread, py::arg("thread_id"));
  util.def("numpy_to_ptr", &numpy_to_ptr);
  util.def("numpy_contiguous_to_ptr", &numpy_contiguous_to_ptr);
  util.def("ptr_to_numpy", &ptr_to_numpy, py::arg("ptr"), py::arg("shape"), py::arg("npy_type"));
  util.def("bytes_to_ptr", &bytes_to_ptr);
  util.def("ptr_to_bytes", &ptr_to_bytes, py::arg("ptr"), py::arg("size"));
}

}  // namespace openacl::py_acl
