// acl.op: single-operator execution (acl_op.h). Descriptor and buffer lists are Python
// lists of handle ints; their lengths give numInputs/numOutputs.
#include "common.h"

#include <acl/acl.h>

namespace openacl::py_acl {

namespace {

void require_same_length(size_t descs, size_t bufs, const char *what) {
  if (descs != bufs)
    throw py::value_error(std::string(what) +
                          ": the descriptor list and the buffer list differ in length");
}

template <class T>
int count(const std::vector<T> &v) {
  return static_cast<int>(v.size());
}

void register_attr(py::module_ &op) {
  op.def("create_attr", [] { return to_int(aclopCreateAttr()); });
  op.def("destroy_attr", [](Ptr attr) { aclopDestroyAttr(to_ptr<aclopAttr>(attr)); });
  op.def("set_attr_bool", [](Ptr attr, std::string name, int value) {
    return aclopSetAttrBool(to_ptr<aclopAttr>(attr), name.c_str(),
                            static_cast<uint8_t>(value != 0));
  });
  op.def("set_attr_int", [](Ptr attr, std::string name, int64_t value) {
    return aclopSetAttrInt(to_ptr<aclopAttr>(attr), name.c_str(), value);
  });
  op.def("set_attr_float", [](Ptr attr, std::string name, float value) {
    return aclopSetAttrFloat(to_ptr<aclopAttr>(attr), name.c_str(), value);
  });
  op.def("set_attr_string", [](Ptr attr, std::string name, std::string value) {
    return aclopSetAttrString(to_ptr<aclopAttr>(attr), name.c_str(), value.c_str());
  });
  op.def("set_attr_data_type", [](Ptr attr, std::string name, int dtype) {
    aclError ret = aclopSetAttrDataType(to_ptr<aclopAttr>(attr), name.c_str(),
                                        static_cast<aclDataType>(dtype));
    return std::make_tuple(attr, ret);
  });
  op.def("set_attr_list_data_type", [](Ptr attr, std::string name, std::vector<int> dtypes) {
    std::vector<aclDataType> values(dtypes.size());
    for (size_t i = 0; i < dtypes.size(); ++i) values[i] = static_cast<aclDataType>(dtypes[i]);
    aclError ret = aclopSetAttrListDataType(to_ptr<aclopAttr>(attr), name.c_str(), count(values),
                                            values.data());
    return std::make_tuple(attr, ret);
  });
  op.def("set_attr_list_bool", [](Ptr attr, std::string name, std::vector<int> list) {
    std::vector<uint8_t> values(list.size());
    for (size_t i = 0; i < list.size(); ++i) values[i] = static_cast<uint8_t>(list[i] != 0);
    return aclopSetAttrListBool(to_ptr<aclopAttr>(attr), name.c_str(), count(values),
                                values.data());
  });
  op.def("set_attr_list_int", [](Ptr attr, std::string name, std::vector<int64_t> values) {
    return aclopSetAttrListInt(to_ptr<aclopAttr>(attr), name.c_str(), count(values), values.data());
  });
  op.def("set_attr_list_float", [](Ptr attr, std::string name, std::vector<float> values) {
    return aclopSetAttrListFloat(to_ptr<aclopAttr>(attr), name.c_str(), count(values),
                                 values.data());
  });
  op.def("set_attr_list_string", [](Ptr attr, std::string name, std::vector<std::string> values) {
    std::vector<const char *> ptrs(values.size());
    for (size_t i = 0; i < values.size(); ++i) ptrs[i] = values[i].c_str();
    return aclopSetAttrListString(to_ptr<aclopAttr>(attr), name.c_str(), count(ptrs), ptrs.data());
  });
  op.def("set_attr_list_list_int",
         [](Ptr attr, std::string name, std::vector<std::vector<int64_t>> lists) {
           std::vector<int> sizes(lists.size());
           std::vector<const int64_t *> ptrs(lists.size());
           for (size_t i = 0; i < lists.size(); ++i) {
             sizes[i] = count(lists[i]);
             ptrs[i] = lists[i].data();
           }
           return aclopSetAttrListListInt(to_ptr<aclopAttr>(attr), name.c_str(), count(lists),
                                          sizes.data(), ptrs.data());
         });
}

using Handles = std::vector<Ptr>;

void register_execute(py::module_ &op) {
  op.def("set_model_dir", [](std::string dir) { return aclopSetModelDir(dir.c_str()); });
  op.def("load", [](Ptr model, size_t size) { return aclopLoad(to_ptr(model), size); });
  op.def("execute_v2", [](std::string op_type, Handles in_descs, Handles in_bufs, Handles out_descs,
                          Handles out_bufs, Ptr attr, Ptr stream) {
    require_same_length(in_descs.size(), in_bufs.size(), "execute_v2 inputs");
    require_same_length(out_descs.size(), out_bufs.size(), "execute_v2 outputs");
    auto id = to_ptrs<aclTensorDesc>(in_descs);
    auto ib = to_ptrs<aclDataBuffer>(in_bufs);
    auto od = to_ptrs<aclTensorDesc>(out_descs);
    auto ob = to_ptrs<aclDataBuffer>(out_bufs);
    NoGil released;
    return aclopExecuteV2(op_type.c_str(), count(ib), id.data(), ib.data(), count(ob), od.data(),
                          ob.data(), to_ptr<aclopAttr>(attr), to_ptr(stream));
  });
  op.def("execute", [](std::string op_type, Handles in_descs, Handles in_bufs, Handles out_descs,
                       Handles out_bufs, Ptr attr, Ptr stream) {
    require_same_length(in_descs.size(), in_bufs.size(), "execute inputs");
    require_same_length(out_descs.size(), out_bufs.size(), "execute outputs");
    auto id = to_ptrs<const aclTensorDesc>(in_descs);
    auto ib = to_ptrs<const aclDataBuffer>(in_bufs);
    auto od = to_ptrs<const aclTensorDesc>(out_descs);
    auto ob = to_ptrs<aclDataBuffer>(out_bufs);
    NoGil released;
    return aclopExecute(op_type.c_str(), count(ib), id.data(), ib.data(), count(ob), od.data(),
                        ob.data(), to_ptr<const aclopAttr>(attr), to_ptr(stream));
  });
  op.def("infer_shape", [](std::string op_type, Handles in_descs, Handles in_bufs, int num_outputs,
                           Handles out_descs, Ptr attr) {
    require_same_length(in_descs.size(), in_bufs.size(), "infer_shape inputs");
    if (num_outputs < 0 || static_cast<size_t>(num_outputs) > out_descs.size())
      throw py::value_error("infer_shape: num_outputs exceeds the output descriptor list");
    auto id = to_ptrs<aclTensorDesc>(in_descs);
    auto ib = to_ptrs<aclDataBuffer>(in_bufs);
    auto od = to_ptrs<aclTensorDesc>(out_descs);
    return aclopInferShape(op_type.c_str(), count(ib), id.data(), ib.data(), num_outputs, od.data(),
                           to_ptr<aclopAttr>(attr));
  });
}

void register_handle(py::module_ &op) {
  op.def("create_handle", [](std::string op_type, Handles in_descs, Handles out_descs, Ptr attr) {
    auto id = to_ptrs<const aclTensorDesc>(in_descs);
    auto od = to_ptrs<const aclTensorDesc>(out_descs);
    aclopHandle *handle = nullptr;
    aclError ret = aclopCreateHandle(op_type.c_str(), count(id), id.data(), count(od), od.data(),
                                     to_ptr<const aclopAttr>(attr), &handle);
    return std::make_tuple(to_int(handle), ret);
  });
  op.def("create_handle_for_cast", [](Ptr src_desc, Ptr dst_desc, int truncate) {
    aclopHandle *handle = nullptr;
    aclError ret =
        aclopCreateHandleForCast(to_ptr<aclTensorDesc>(src_desc), to_ptr<aclTensorDesc>(dst_desc),
                                 static_cast<uint8_t>(truncate != 0), &handle);
    return std::make_tuple(to_int(handle), ret);
  });
  op.def("destroy_handle", [](Ptr handle) { aclopDestroyHandle(to_ptr<aclopHandle>(handle)); });
  op.def("execute_with_handle", [](Ptr handle, Handles in_bufs, Handles out_bufs, Ptr stream) {
    auto ib = to_ptrs<const aclDataBuffer>(in_bufs);
    auto ob = to_ptrs<aclDataBuffer>(out_bufs);
    NoGil released;
    return aclopExecWithHandle(to_ptr<aclopHandle>(handle), count(ib), ib.data(), count(ob),
                               ob.data(), to_ptr(stream));
  });
  op.def("cast", [](Ptr src_desc, Ptr src_buf, Ptr dst_desc, Ptr dst_buf, int truncate,
                    Ptr stream) {
    NoGil released;
    return aclopCast(to_ptr<const aclTensorDesc>(src_desc), to_ptr<const aclDataBuffer>(src_buf),
                     to_ptr<const aclTensorDesc>(dst_desc), to_ptr<aclDataBuffer>(dst_buf),
                     static_cast<uint8_t>(truncate != 0), to_ptr(stream));
  });
  op.def("set_max_op_queue_num", [](uint64_t n) { return aclopSetMaxOpQueueNum(n); });
}

}  // namespace

void register_op(py::module_ &op) {
  register_attr(op);
  register_execute(op);
  register_handle(op);
}

}  // namespace openacl::py_acl
