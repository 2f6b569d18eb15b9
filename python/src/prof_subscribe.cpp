// acl.prof: pyACL's model subscription calls. The op records are bytes the program read from
// its pipe, passed as an address and a length (acl.util.bytes_to_ptr), as pyACL takes them.
#include <acl/acl.h>
#include <acl/acl_prof.h>

#include <string>
#include <tuple>
#include <vector>

#include "common.h"

namespace openacl::py_acl {
namespace {

// get_op_type / get_op_name: the string read into a buffer of `len` bytes, as pyACL does.
template <class Get>
std::tuple<std::string, aclError> read_string(Ptr info, size_t info_len, uint32_t index, size_t len,
                                              Get get) {
  if (len > 4096) return {"", ACL_ERROR_INVALID_PARAM};
  std::vector<char> buf(len + 1, '\0');
  aclError ret = get(to_ptr<const void>(info), info_len, index, buf.data(), len);
  return {buf.data(), ret};
}

// The _v2 forms: the length first, then the string; None when the length call fails.
template <class GetLen, class Get>
py::tuple read_string_v2(Ptr info, size_t info_len, uint32_t index, GetLen get_len, Get get) {
  size_t len = 0;
  aclError ret = get_len(to_ptr<const void>(info), info_len, index, &len);
  if (ret != ACL_SUCCESS) return py::make_tuple(py::none(), ret);
  auto [s, r] = read_string(info, info_len, index, len, get);
  return py::make_tuple(s, r);
}

}  // namespace

void register_prof_subscribe(py::module_ &prof) {
  // pyACL passes the pipe's write end as an int; the C call takes its address and reads it.
  prof.def("create_subscribe_config", [](int8_t time_info_switch, int aicore_metrics, int fd) {
    return to_int(aclprofCreateSubscribeConfig(time_info_switch,
                                               as_enum<aclprofAicoreMetrics>(aicore_metrics), &fd));
  });
  prof.def("destroy_subscribe_config", [](Ptr config) {
    return aclprofDestroySubscribeConfig(to_ptr<const aclprofSubscribeConfig>(config));
  });
  prof.def("model_subscribe", [](uint32_t model_id, Ptr config) {
    return aclprofModelSubscribe(model_id, to_ptr<const aclprofSubscribeConfig>(config));
  });
  // Waits for a record write under way, which may wait for the program's reader thread.
  auto unsubscribe = [](uint32_t model_id) { return aclprofModelUnSubscribe(model_id); };
  prof.def("model_un_subscribe", unsubscribe, nogil());  // the name pyACL's documents use
  prof.def("model_unsubscribe", unsubscribe, nogil());   // the name in pyACL's source
  prof.def("get_op_desc_size", [] {
    size_t size = 0;
    aclError ret = aclprofGetOpDescSize(&size);
    return std::make_tuple(size, ret);
  });
  prof.def("get_op_num", [](Ptr info, size_t len) {
    uint32_t n = 0;
    aclError ret = aclprofGetOpNum(to_ptr<const void>(info), len, &n);
    return std::make_tuple(n, ret);
  });
  prof.def("get_op_type_len", [](Ptr info, size_t len, uint32_t index) {
    size_t n = 0;
    aclError ret = aclprofGetOpTypeLen(to_ptr<const void>(info), len, index, &n);
    return std::make_tuple(n, ret);
  });
  prof.def("get_op_name_len", [](Ptr info, size_t len, uint32_t index) {
    size_t n = 0;
    aclError ret = aclprofGetOpNameLen(to_ptr<const void>(info), len, index, &n);
    return std::make_tuple(n, ret);
  });
  prof.def("get_op_type", [](Ptr info, size_t len, uint32_t index, size_t type_len) {
    return read_string(info, len, index, type_len, aclprofGetOpType);
  });
  prof.def("get_op_name", [](Ptr info, size_t len, uint32_t index, size_t name_len) {
    return read_string(info, len, index, name_len, aclprofGetOpName);
  });
  prof.def("get_op_type_v2", [](Ptr info, size_t len, uint32_t index) {
    return read_string_v2(info, len, index, aclprofGetOpTypeLen, aclprofGetOpType);
  });
  prof.def("get_op_name_v2", [](Ptr info, size_t len, uint32_t index) {
    return read_string_v2(info, len, index, aclprofGetOpNameLen, aclprofGetOpName);
  });
  prof.def("get_op_start", [](Ptr info, size_t len, uint32_t index) {
    return aclprofGetOpStart(to_ptr<const void>(info), len, index);
  });
  prof.def("get_op_end", [](Ptr info, size_t len, uint32_t index) {
    return aclprofGetOpEnd(to_ptr<const void>(info), len, index);
  });
  prof.def("get_op_duration", [](Ptr info, size_t len, uint32_t index) {
    return aclprofGetOpDuration(to_ptr<const void>(info), len, index);
  });
  prof.def("get_model_id", [](Ptr info, size_t len, uint32_t index) {
    return aclprofGetModelId(to_ptr<const void>(info), len, index);
  });
}

}  // namespace openacl::py_acl
