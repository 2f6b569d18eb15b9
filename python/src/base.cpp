// Top-level calls of pyACL: init/finalize, versions, error messages, data buffers and
// tensor descriptors (acl_base_rt.h, acl_base_mdl.h, the init part of acl_rt.h).
#include "common.h"

#include <acl/acl.h>

#include <array>
#include <cstring>
#include <optional>

namespace openacl::py_acl {

namespace {

const int64_t *dims_or_null(const std::vector<int64_t> &dims) {
  return dims.empty() ? nullptr : dims.data();
}

void register_init(py::module_ &m) {
  m.def(
      "init",
      [](std::optional<std::string> config_path) {
        return aclInit(config_path ? config_path->c_str() : nullptr);
      },
      py::arg("config_path") = py::none());
  // aclFinalize waits for outstanding work, which may include Python callbacks.
  m.def(
      "finalize", [] { return aclFinalize(); }, nogil());
  m.def("finalize_reference", [] {
    uint64_t ref = 0;
    aclError ret;
    {
      NoGil released;
      ret = aclFinalizeReference(&ref);
    }
    return std::make_tuple(ref, ret);
  });
  m.def("get_recent_err_msg", [] { return str_or_none(aclGetRecentErrMsg()); });
  // The log line names the calling Python function, file and line, as ACL_APP_LOG does in C.
  m.def(
      "app_log",
      [](int log_level, const std::string &message) {
        py::object frame = py::module_::import("sys").attr("_getframe")(0);
        py::object code = frame.attr("f_code");
        const auto func = code.attr("co_name").cast<std::string>();
        const auto file = code.attr("co_filename").cast<std::string>();
        const auto line = frame.attr("f_lineno").cast<uint32_t>();
        aclLogLevel level;  // any int reaches aclAppLog, which refuses the out-of-range ones
        static_assert(sizeof level == sizeof log_level);
        std::memcpy(&level, &log_level, sizeof level);
        aclAppLog(level, func.c_str(), file.c_str(), line, "%s", message.c_str());
      },
      py::arg("log_level"), py::arg("message"));
  m.def("get_soc_name", [] { return str_or_none(aclrtGetSocName()); });
  m.def("get_version", [] {
    int32_t major = 0, minor = 0, patch = 0;
    aclError ret = aclrtGetVersion(&major, &minor, &patch);
    return std::make_tuple(major, minor, patch, ret);
  });
  m.def("get_version_str", [](std::string pkg_name) {
    std::array<char, ACL_PKG_VERSION_MAX_SIZE> version{};
    aclError ret = aclsysGetVersionStr(pkg_name.data(), version.data());
    version.back() = '\0';
    return std::make_tuple(std::string(version.data()), ret);
  });
  m.def("get_version_num", [](std::string pkg_name) {
    int32_t num = 0;
    aclError ret = aclsysGetVersionNum(pkg_name.data(), &num);
    return std::make_tuple(num, ret);
  });
  m.def("get_device_capability", [](uint32_t device_id, int info) {
    int64_t value = 0;
    aclError ret = aclGetDeviceCapability(device_id, static_cast<aclDeviceInfo>(info), &value);
    return std::make_tuple(value, ret);
  });
  m.def("get_cann_attribute", [](int attr) {
    int32_t value = 0;
    aclError ret = aclGetCannAttribute(static_cast<aclCannAttr>(attr), &value);
    return std::make_tuple(value, ret);
  });
}

void register_data_buffer(py::module_ &m) {
  m.def("create_data_buffer",
        [](Ptr data, size_t size) { return to_int(aclCreateDataBuffer(to_ptr(data), size)); });
  m.def("destroy_data_buffer",
        [](Ptr buf) { return aclDestroyDataBuffer(to_ptr<aclDataBuffer>(buf)); });
  m.def("update_data_buffer", [](Ptr buf, Ptr data, size_t size) {
    return aclUpdateDataBuffer(to_ptr<aclDataBuffer>(buf), to_ptr(data), size);
  });
  m.def("get_data_buffer_addr",
        [](Ptr buf) { return to_int(aclGetDataBufferAddr(to_ptr<aclDataBuffer>(buf))); });
  m.def("get_data_buffer_size",
        [](Ptr buf) { return aclGetDataBufferSize(to_ptr<aclDataBuffer>(buf)); });
  m.def("get_data_buffer_size_v2",
        [](Ptr buf) { return aclGetDataBufferSizeV2(to_ptr<aclDataBuffer>(buf)); });
  m.def("data_type_size",
        [](int dtype) { return aclDataTypeSize(static_cast<aclDataType>(dtype)); });
  m.def("float16_to_float", [](uint16_t value) { return aclFloat16ToFloat(value); });
  m.def("float_to_float16", [](float value) { return aclFloatToFloat16(value); });
}

using Range = std::array<int64_t, 2>;

void register_tensor_desc(py::module_ &m) {
  m.def("create_tensor_desc", [](int dtype, std::vector<int64_t> dims, int format) {
    return to_int(aclCreateTensorDesc(static_cast<aclDataType>(dtype),
                                      static_cast<int>(dims.size()), dims_or_null(dims),
                                      static_cast<aclFormat>(format)));
  });
  m.def("destroy_tensor_desc", [](Ptr desc) { aclDestroyTensorDesc(to_ptr<aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_type", [](Ptr desc) {
    return static_cast<int>(aclGetTensorDescType(to_ptr<aclTensorDesc>(desc)));
  });
  m.def("get_tensor_desc_format", [](Ptr desc) {
    return static_cast<int>(aclGetTensorDescFormat(to_ptr<aclTensorDesc>(desc)));
  });
  m.def("get_tensor_desc_size",
        [](Ptr desc) { return aclGetTensorDescSize(to_ptr<aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_element_count",
        [](Ptr desc) { return aclGetTensorDescElementCount(to_ptr<aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_num_dims",
        [](Ptr desc) { return aclGetTensorDescNumDims(to_ptr<aclTensorDesc>(desc)); });
  m.def("get_tensor_desc_dim", [](Ptr desc, Index index) {
    return aclGetTensorDescDim(to_ptr<aclTensorDesc>(desc), index);
  });
  m.def("get_tensor_desc_dim_v2", [](Ptr desc, Index index) {
    int64_t dim = 0;
    aclError ret = aclGetTensorDescDimV2(to_ptr<aclTensorDesc>(desc), index, &dim);
    return std::make_tuple(dim, ret);
  });
  m.def("get_tensor_desc_dim_range", [](Ptr desc, Index index) {
    Range range{};
    aclError ret =
        aclGetTensorDescDimRange(to_ptr<aclTensorDesc>(desc), index, range.size(), range.data());
    return std::make_tuple(std::vector<int64_t>(range.begin(), range.end()), ret);
  });
  m.def("set_tensor_desc_name", [](Ptr desc, std::string name) {
    aclSetTensorDescName(to_ptr<aclTensorDesc>(desc), name.c_str());
  });
  m.def("get_tensor_desc_name",
        [](Ptr desc) { return str_or_none(aclGetTensorDescName(to_ptr<aclTensorDesc>(desc))); });
  m.def("trans_tensor_desc_format", [](Ptr desc, int format) {
    aclTensorDesc *out = nullptr;
    aclError ret =
        aclTransTensorDescFormat(to_ptr<aclTensorDesc>(desc), static_cast<aclFormat>(format), &out);
    return std::make_tuple(to_int(out), ret);
  });
  m.def("set_tensor_format", [](Ptr desc, int format) {
    return aclSetTensorFormat(to_ptr<aclTensorDesc>(desc), static_cast<aclFormat>(format));
  });
  m.def("set_tensor_origin_format", [](Ptr desc, int format) {
    return aclSetTensorOriginFormat(to_ptr<aclTensorDesc>(desc), static_cast<aclFormat>(format));
  });
  m.def("set_tensor_storage_format", [](Ptr desc, int format) {
    return aclSetTensorStorageFormat(to_ptr<aclTensorDesc>(desc), static_cast<aclFormat>(format));
  });
  m.def("set_tensor_shape", [](Ptr desc, std::vector<int64_t> dims) {
    return aclSetTensorShape(to_ptr<aclTensorDesc>(desc), static_cast<int>(dims.size()),
                             dims_or_null(dims));
  });
  m.def("set_tensor_origin_shape", [](Ptr desc, std::vector<int64_t> dims) {
    return aclSetTensorOriginShape(to_ptr<aclTensorDesc>(desc), static_cast<int>(dims.size()),
                                   dims_or_null(dims));
  });
  m.def("set_tensor_storage_shape", [](Ptr desc, std::vector<int64_t> dims) {
    return aclSetTensorStorageShape(to_ptr<aclTensorDesc>(desc), static_cast<int>(dims.size()),
                                    dims_or_null(dims));
  });
  m.def("set_tensor_shape_range", [](Ptr desc, std::vector<Range> ranges) {
    return aclSetTensorShapeRange(
        to_ptr<aclTensorDesc>(desc), ranges.size(),
        reinterpret_cast<int64_t(*)[ACL_TENSOR_SHAPE_RANGE_NUM]>(ranges.data()));
  });
  m.def("set_tensor_value_range", [](Ptr desc, std::vector<Range> ranges) {
    return aclSetTensorValueRange(
        to_ptr<aclTensorDesc>(desc), ranges.size(),
        reinterpret_cast<int64_t(*)[ACL_TENSOR_VALUE_RANGE_NUM]>(ranges.data()));
  });
  m.def("get_tensor_desc_by_index", [](Ptr desc, Index index) {
    return to_int(aclGetTensorDescByIndex(to_ptr<aclTensorDesc>(desc), index));
  });
  m.def("get_tensor_desc_address",
        [](Ptr desc) { return to_int(aclGetTensorDescAddress(to_ptr<aclTensorDesc>(desc))); });
  m.def("set_tensor_dynamic_input", [](Ptr desc, std::string name) {
    return aclSetTensorDynamicInput(to_ptr<aclTensorDesc>(desc), name.c_str());
  });
  m.def("set_tensor_const", [](Ptr desc, Ptr data, size_t length) {
    return aclSetTensorConst(to_ptr<aclTensorDesc>(desc), to_ptr(data), length);
  });
  m.def("set_tensor_place_ment", [](Ptr desc, int mem_type) {
    return aclSetTensorPlaceMent(to_ptr<aclTensorDesc>(desc), static_cast<aclMemType>(mem_type));
  });
}

}  // namespace

void register_base(py::module_ &m) {
  register_init(m);
  register_data_buffer(m);
  register_tensor_desc(m);
}

}  // namespace openacl::py_acl
