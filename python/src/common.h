// Shared conventions of the pyACL-compatible module `acl`.
//
// pyACL passes every handle and address as a plain Python int and returns out-values as a
// tuple with the aclError last. The binding only calls the public C API: the C library
// validates handles, so a made-up int comes back as the C error code, never a crash here.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace openacl::py_acl {

namespace py = pybind11;

// A handle or address as Python sees it: any Python int (or object with __index__), taken
// modulo 2**64 as pyACL's "k" argument format does, so -1 passes as 0xFFFF...FFFF; a float,
// None or str is a TypeError.
struct Ptr {
  std::uintptr_t v = 0;
  operator std::uintptr_t() const noexcept { return v; }
};

// An index or count argument (size_t in C), converted the same way: pyACL scripts pass -1
// for "the dynamic-dims input" (acl.mdl.get_input_dynamic_gear_count(desc, -1)).
struct Index {
  std::size_t v = 0;
  operator std::size_t() const noexcept { return v; }
};

template <class T = void>
inline T *to_ptr(Ptr p) noexcept {
  return reinterpret_cast<T *>(p.v);
}

inline Ptr to_int(const void *p) noexcept { return Ptr{reinterpret_cast<std::uintptr_t>(p)}; }

// Set once the interpreter starts shutting down: from then on runtime threads must not try
// to enter Python (a callback still queued at exit is dropped).
bool interpreter_exiting() noexcept;
void mark_interpreter_exiting() noexcept;

// Blocks the calling thread for good; the process is exiting and will end it.
[[noreturn]] void park_forever() noexcept;

// Drops the GIL around a blocking C call, so that a Python callback or thread that the wait
// depends on can run meanwhile. Unlike py::gil_scoped_release, a thread whose call returns
// while the interpreter shuts down (a callback thread still in process_report at exit) parks
// instead of re-entering Python, where CPython would end it with a forced unwind through
// this (otherwise noexcept) destructor and abort the process.
class NoGil {
 public:
  NoGil() noexcept : state_(PyEval_SaveThread()) {}
  ~NoGil() noexcept(false) {
    if (interpreter_exiting()) park_forever();
    PyEval_RestoreThread(state_);
  }
  NoGil(const NoGil &) = delete;
  NoGil &operator=(const NoGil &) = delete;

 private:
  PyThreadState *state_;
};

using nogil = py::call_guard<NoGil>;

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

// The batch VPC calls read roiNums[0, size) and, of each region list, as many entries as those
// roiNums add up to; they refuse more than 256 of either before reading. Python lists shorter
// than that are padded (roiNums with 0, regions with NULL, which the C call names in its error),
// so a short list never makes the C call read past it.
inline std::vector<uint32_t> padded_roi_nums(std::vector<uint32_t> roi_nums, uint32_t size) {
  if (roi_nums.size() < std::min<uint32_t>(size, 256))
    roi_nums.resize(std::min<uint32_t>(size, 256), 0);
  return roi_nums;
}
template <class T>
std::vector<T *> padded_regions(const std::vector<Ptr> &list, const std::vector<uint32_t> &roi_nums,
                                uint32_t size) {
  uint64_t total = 0;
  for (size_t i = 0; i < roi_nums.size() && i < size; ++i) total += roi_nums[i];
  std::vector<T *> out = to_ptrs<T>(list);
  if (out.size() < std::min<uint64_t>(total, 256))
    out.resize(std::min<uint64_t>(total, 256), nullptr);
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
void register_op_compiler(py::module_ &m, py::module_ &op);
void register_mdl(py::module_ &mdl);
void register_util(py::module_ &util);
void register_prof(py::module_ &prof);
void register_prof_subscribe(py::module_ &prof);  // model subscription (prof_subscribe.cpp)
void register_blas(py::module_ &blas);
void register_media(py::module_ &media);
// Parts of acl.media: LUT maps, histograms and the VPC calls that use them (media_hist.cpp);
// stream descriptions and VENC (media_venc.cpp); VDEC (media_vdec.cpp).
void register_media_hist(py::module_ &media);
void register_media_venc(py::module_ &media);
void register_media_vdec(py::module_ &media);

// Any int as an enum argument, without an out-of-range enum conversion: the C call checks it.
template <class E>
E as_enum(int v) {
  E e;
  static_assert(sizeof e == sizeof v);
  std::memcpy(&e, &v, sizeof e);
  return e;
}

}  // namespace openacl::py_acl

namespace pybind11::detail {

template <class T>
struct masked_int_caster {
  PYBIND11_TYPE_CASTER(T, const_name("int"));

  bool load(handle src, bool) {
    if (!src || PyFloat_Check(src.ptr())) return false;
    PyObject *num = PyNumber_Index(src.ptr());
    if (num == nullptr) {
      PyErr_Clear();
      return false;
    }
    unsigned long long bits = PyLong_AsUnsignedLongLongMask(num);
    Py_DECREF(num);
    if (bits == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    value.v = static_cast<decltype(value.v)>(bits);
    return true;
  }

  static handle cast(T x, return_value_policy, handle) { return PyLong_FromUnsignedLongLong(x.v); }
};

template <>
struct type_caster<openacl::py_acl::Ptr> : masked_int_caster<openacl::py_acl::Ptr> {};
template <>
struct type_caster<openacl::py_acl::Index> : masked_int_caster<openacl::py_acl::Index> {};

}  // namespace pybind11::detail
