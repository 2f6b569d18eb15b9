// acl.op compile calls and the top-level compile options (acl_op_compiler.h). pyACL leaves
// these C-only; openacl binds them in the same style because its runtime implements them.
#include "common.h"

#include <acl/acl.h>
#include <acl/acl_op_compiler.h>

#include <cstring>
#include <optional>

namespace openacl::py_acl {

namespace {

using Handles = std::vector<Ptr>;

const char *path_or_null(const std::optional<std::string> &path) {
  return path ? path->c_str() : nullptr;
}

void require_same_length(size_t descs, size_t bufs, const char *what) {
  if (descs != bufs)
    throw py::value_error(std::string(what) +
                          ": the descriptor list and the buffer list differ in length");
}

template <class T>
int count(const std::vector<T> &v) {
  return static_cast<int>(v.size());
}

}  // namespace

void register_op_compiler(py::module_ &m, py::module_ &op) {
  op.def("compile", [](std::string op_type, Handles in_descs, Handles out_descs, Ptr attr,
                       int engine_type, int compile_flag, std::optional<std::string> op_path) {
    auto id = to_ptrs<const aclTensorDesc>(in_descs);
    auto od = to_ptrs<const aclTensorDesc>(out_descs);
    NoGil released;
    return aclopCompile(op_type.c_str(), count(id), id.data(), count(od), od.data(),
                        to_ptr<const aclopAttr>(attr), static_cast<aclopEngineType>(engine_type),
                        static_cast<aclopCompileType>(compile_flag), path_or_null(op_path));
  });
  op.def("compile_and_execute",
         [](std::string op_type, Handles in_descs, Handles in_bufs, Handles out_descs,
            Handles out_bufs, Ptr attr, int engine_type, int compile_flag,
            std::optional<std::string> op_path, Ptr stream) {
           require_same_length(in_descs.size(), in_bufs.size(), "compile_and_execute inputs");
           require_same_length(out_descs.size(), out_bufs.size(), "compile_and_execute outputs");
           auto id = to_ptrs<const aclTensorDesc>(in_descs);
           auto ib = to_ptrs<const aclDataBuffer>(in_bufs);
           auto od = to_ptrs<const aclTensorDesc>(out_descs);
           auto ob = to_ptrs<aclDataBuffer>(out_bufs);
           NoGil released;
           return aclopCompileAndExecute(
               op_type.c_str(), count(ib), id.data(), ib.data(), count(ob), od.data(), ob.data(),
               to_ptr<const aclopAttr>(attr), static_cast<aclopEngineType>(engine_type),
               static_cast<aclopCompileType>(compile_flag), path_or_null(op_path), to_ptr(stream));
         });
  op.def("compile_and_execute_v2",
         [](std::string op_type, Handles in_descs, Handles in_bufs, Handles out_descs,
            Handles out_bufs, Ptr attr, int engine_type, int compile_flag,
            std::optional<std::string> op_path, Ptr stream) {
           require_same_length(in_descs.size(), in_bufs.size(), "compile_and_execute_v2 inputs");
           require_same_length(out_descs.size(), out_bufs.size(), "compile_and_execute_v2 outputs");
           auto id = to_ptrs<aclTensorDesc>(in_descs);
           auto ib = to_ptrs<aclDataBuffer>(in_bufs);
           auto od = to_ptrs<aclTensorDesc>(out_descs);
           auto ob = to_ptrs<aclDataBuffer>(out_bufs);
           NoGil released;
           return aclopCompileAndExecuteV2(
               op_type.c_str(), count(ib), id.data(), ib.data(), count(ob), od.data(), ob.data(),
               to_ptr<aclopAttr>(attr), static_cast<aclopEngineType>(engine_type),
               static_cast<aclopCompileType>(compile_flag), path_or_null(op_path), to_ptr(stream));
         });
  op.def("set_compile_flag",
         [](int flag) { return aclopSetCompileFlag(static_cast<aclOpCompileFlag>(flag)); });
  op.def("update_params", [](std::string op_type, Handles in_descs, Handles out_descs, Ptr attr) {
    auto id = to_ptrs<const aclTensorDesc>(in_descs);
    auto od = to_ptrs<const aclTensorDesc>(out_descs);
    return aclopUpdateParams(op_type.c_str(), count(id), id.data(), count(od), od.data(),
                             to_ptr<const aclopAttr>(attr));
  });

  m.def("set_compileopt", [](int opt, std::string value) {
    return aclSetCompileopt(static_cast<aclCompileOpt>(opt), value.c_str());
  });
  m.def("get_compileopt", [](int opt) {
    size_t size = aclGetCompileoptSize(static_cast<aclCompileOpt>(opt));
    std::string value(size + 1, '\0');
    aclError ret = aclGetCompileopt(static_cast<aclCompileOpt>(opt), value.data(), value.size());
    value.resize(std::strlen(value.c_str()));
    return std::make_tuple(value, ret);
  });
}

}  // namespace openacl::py_acl
