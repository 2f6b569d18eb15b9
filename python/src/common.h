// Shared conventions of the pyACL-compatible module `acl`.
//
// pyACL passes every handle and address as a plain Python int and returns out-values as a
// tuple with the aclError last. The binding only calls the public C API: the C library
// validates handles, so a made-up int comes back as the C error code, never a crash here.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace openacl::py_acl {

namespace py = pybind11;

// A handle or address as Python sees it. Unsigned, so a negative int is a TypeError.
using Ptr = std::uintptr_t;

template <class T = void>
inline T *to_ptr(Ptr p) noexcept { return reinterpret_cast<T *>(p); }

inline Ptr to_int(const void *p) noexcept { return reinterpret_cast<Ptr>(p); }

// Calls that may wait for a stream, a device or another thread drop the GIL, so that a
// Python callback or thread that the wait depends on can run meanwhile.
using nogil = py::call_guard<py::gil_scoped_release>;

// A C string result as pyACL returns it: str, or None for NULL.
inline py::object str_or_none(const char *s) {
  if (s == nullptr) return py::none();
  return py::str(s);
}

// Lists of handles (descriptors, data buffers) arrive as Python lists of ints.
template <class T>
std::vector<T *> to_ptrs(const std::vector<Ptr> &v) {
  std::vector<T *> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = to_ptr<T>(v[i]);
  return out;
}

void register_constants(py::module_ &m);
void register_base(py::module_ &m);
void register_rt_device(py::module_ &rt);
void register_rt_stream(py::module_ &rt);
void register_rt_memory(py::module_ &rt);
void register_rt_callback(py::module_ &rt);
void register_rt_kernel(py::module_ &rt);
void register_op(py::module_ &op);
void register_mdl(py::module_ &mdl);
void register_util(py::module_ &util);

// Set once the interpreter starts shutting down: from then on runtime threads must not try
// to enter Python (a callback still queued at exit is dropped).
bool interpreter_exiting() noexcept;
void mark_interpreter_exiting() noexcept;

}  // namespace openacl::py_acl
