// The extension module `acl`: pyACL's layout (base calls at top level, then acl.rt, acl.op,
// acl.mdl, acl.util, acl.prof, acl.blas) over the public C API of libascendcl, libacl_op_compiler
// and libacl_cblas.
#include "common.h"

#include <unistd.h>

#include <atomic>

namespace openacl::py_acl {

namespace {
std::atomic<bool> g_exiting{false};
}

bool interpreter_exiting() noexcept { return g_exiting.load(std::memory_order_acquire); }

void mark_interpreter_exiting() noexcept { g_exiting.store(true, std::memory_order_release); }

void park_forever() noexcept {
  for (;;) pause();
}

}  // namespace openacl::py_acl

PYBIND11_MODULE(acl, m) {
  using namespace openacl::py_acl;
  m.doc() = "openacl: the pyACL-compatible AscendCL module";

  register_constants(m);
  register_base(m);

  auto rt = m.def_submodule("rt", "runtime: devices, contexts, streams, events, memory, callbacks");
  register_rt_device(rt);
  register_rt_stream(rt);
  register_rt_memory(rt);
  register_rt_callback(rt);
  register_rt_kernel(rt);

  auto op = m.def_submodule("op", "single-operator execution");
  register_op(op);
  register_op_compiler(m, op);
  auto mdl = m.def_submodule("mdl", "model loading and execution");
  register_mdl(mdl);
  auto util = m.def_submodule("util", "threads and host-buffer helpers");
  register_util(util);
  auto prof = m.def_submodule("prof", "profiling sessions and msproftx stamps");
  register_prof(prof);
  auto blas = m.def_submodule("blas", "matrix-matrix and matrix-vector products (acl_cblas.h)");
  register_blas(blas);
  auto media = m.def_submodule("media", "DVPP: JPEG/PNG codecs, VPC and VENC (acl/ops/acl_dvpp.h)");
  register_media(media);

  // atexit runs before the interpreter tears down thread states; callbacks that a runtime
  // thread delivers later are dropped instead of entering a dying interpreter.
  py::module_::import("atexit").attr("register")(
      py::cpp_function([] { mark_interpreter_exiting(); }));
}
