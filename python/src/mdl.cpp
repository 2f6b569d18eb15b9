// acl.mdl: model loading, description, datasets and execution (acl_mdl.h).
// Dimension records come back as pyACL's dicts: {"name": str, "dimCount": int, "dims": [...]}.
#include "common.h"

#include <acl/acl.h>

#include <cstring>

namespace openacl::py_acl {

namespace {

aclmdlDesc *desc_of(Ptr p) { return to_ptr<aclmdlDesc>(p); }
aclmdlDataset *dataset_of(Ptr p) { return to_ptr<aclmdlDataset>(p); }

py::dict dims_to_dict(const aclmdlIODims &d) {
  size_t n = d.dimCount < ACL_MAX_DIM_CNT ? d.dimCount : ACL_MAX_DIM_CNT;
  py::dict out;
  out["name"] = std::string(d.name, strnlen(d.name, sizeof d.name));
  out["dimCount"] = d.dimCount;
  out["dims"] = std::vector<int64_t>(d.dims, d.dims + n);
  return out;
}

aclmdlIODims dims_from_dict(const py::dict &in) {
  aclmdlIODims d{};
  if (in.contains("name")) {
    auto name = in["name"].cast<std::string>();
    std::strncpy(d.name, name.c_str(), sizeof d.name - 1);
  }
  auto dims = in["dims"].cast<std::vector<int64_t>>();
  size_t n = in.contains("dimCount") ? in["dimCount"].cast<size_t>() : dims.size();
  if (n > dims.size() || n > ACL_MAX_DIM_CNT)
    throw py::value_error("dimCount exceeds the dims given");
  d.dimCount = n;
  std::copy(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(n), d.dims);
  return d;
}

using DimsFn = aclError (*)(const aclmdlDesc *, size_t, aclmdlIODims *);

auto dims_getter(DimsFn fn) {
  return [fn](Ptr desc, Index index) {
    aclmdlIODims d{};
    aclError ret = fn(desc_of(desc), index, &d);
    py::object out = ret == ACL_SUCCESS ? py::object(dims_to_dict(d)) : py::object(py::dict());
    return std::make_tuple(out, ret);
  };
}

void register_desc(py::module_ &mdl) {
  mdl.def("create_desc", [] { return to_int(aclmdlCreateDesc()); });
  mdl.def("destroy_desc", [](Ptr desc) { return aclmdlDestroyDesc(desc_of(desc)); });
  mdl.def("get_desc",
          [](Ptr desc, uint32_t model_id) { return aclmdlGetDesc(desc_of(desc), model_id); });
  mdl.def(
      "get_desc_from_file",
      [](Ptr desc, std::string path) { return aclmdlGetDescFromFile(desc_of(desc), path.c_str()); },
      nogil());
  mdl.def(
      "get_desc_from_mem",
      [](Ptr desc, Ptr model, size_t size) {
        return aclmdlGetDescFromMem(desc_of(desc), to_ptr(model), size);
      },
      nogil());
  mdl.def("get_num_inputs", [](Ptr desc) { return aclmdlGetNumInputs(desc_of(desc)); });
  mdl.def("get_num_outputs", [](Ptr desc) { return aclmdlGetNumOutputs(desc_of(desc)); });
  mdl.def("get_input_size_by_index",
          [](Ptr desc, Index i) { return aclmdlGetInputSizeByIndex(desc_of(desc), i); });
  mdl.def("get_output_size_by_index",
          [](Ptr desc, Index i) { return aclmdlGetOutputSizeByIndex(desc_of(desc), i); });
  mdl.def("get_input_name_by_index", [](Ptr desc, Index i) {
    return str_or_none(aclmdlGetInputNameByIndex(desc_of(desc), i));
  });
  mdl.def("get_output_name_by_index", [](Ptr desc, Index i) {
    return str_or_none(aclmdlGetOutputNameByIndex(desc_of(desc), i));
  });
  mdl.def("get_input_format", [](Ptr desc, Index i) {
    return static_cast<int>(aclmdlGetInputFormat(desc_of(desc), i));
  });
  mdl.def("get_output_format", [](Ptr desc, Index i) {
    return static_cast<int>(aclmdlGetOutputFormat(desc_of(desc), i));
  });
  mdl.def("get_input_data_type", [](Ptr desc, Index i) {
    return static_cast<int>(aclmdlGetInputDataType(desc_of(desc), i));
  });
  mdl.def("get_output_data_type", [](Ptr desc, Index i) {
    return static_cast<int>(aclmdlGetOutputDataType(desc_of(desc), i));
  });
  mdl.def("get_input_index_by_name", [](Ptr desc, std::string name) {
    size_t index = 0;
    aclError ret = aclmdlGetInputIndexByName(desc_of(desc), name.c_str(), &index);
    return std::make_tuple(index, ret);
  });
  mdl.def("get_output_index_by_name", [](Ptr desc, std::string name) {
    size_t index = 0;
    aclError ret = aclmdlGetOutputIndexByName(desc_of(desc), name.c_str(), &index);
    return std::make_tuple(index, ret);
  });
  mdl.def("get_input_dims", dims_getter(aclmdlGetInputDims));
  mdl.def("get_input_dims_v2", dims_getter(aclmdlGetInputDimsV2));
  mdl.def("get_output_dims", dims_getter(aclmdlGetOutputDims));
  mdl.def("get_cur_output_dims", dims_getter(aclmdlGetCurOutputDims));
  mdl.def("get_input_dims_range", [](Ptr desc, Index index) {
    aclmdlIODimsRange r{};
    aclError ret = aclmdlGetInputDimsRange(desc_of(desc), index, &r);
    py::dict out;
    if (ret == ACL_SUCCESS) {
      py::list ranges;
      for (size_t i = 0; i < r.rangeCount; ++i)
        ranges.append(std::vector<int64_t>{r.range[i][0], r.range[i][1]});
      out["rangeCount"] = r.rangeCount;
      out["range"] = ranges;
    }
    return std::make_tuple(out, ret);
  });
  mdl.def("get_dynamic_batch", [](Ptr desc) {
    aclmdlBatch b{};
    aclError ret = aclmdlGetDynamicBatch(desc_of(desc), &b);
    py::dict out;
    if (ret == ACL_SUCCESS) {
      size_t n = b.batchCount < ACL_MAX_BATCH_NUM ? b.batchCount : ACL_MAX_BATCH_NUM;
      out["batchCount"] = b.batchCount;
      out["batch"] = std::vector<uint64_t>(b.batch, b.batch + n);
    }
    return std::make_tuple(out, ret);
  });
  mdl.def("get_dynamic_hw", [](Ptr desc, Index index) {
    aclmdlHW hw{};
    aclError ret = aclmdlGetDynamicHW(desc_of(desc), index, &hw);
    py::dict out;
    if (ret == ACL_SUCCESS) {
      size_t n = hw.hwCount < ACL_MAX_HW_NUM ? hw.hwCount : ACL_MAX_HW_NUM;
      py::list pairs;
      for (size_t i = 0; i < n; ++i) pairs.append(std::vector<uint64_t>{hw.hw[i][0], hw.hw[i][1]});
      out["hwCount"] = hw.hwCount;
      out["hw"] = pairs;
    }
    return std::make_tuple(out, ret);
  });
  mdl.def("get_input_dynamic_gear_count", [](Ptr desc, Index index) {
    size_t count = 0;
    aclError ret = aclmdlGetInputDynamicGearCount(desc_of(desc), index, &count);
    return std::make_tuple(count, ret);
  });
  mdl.def("get_input_dynamic_dims", [](Ptr desc, Index index, Index gear_count) {
    std::vector<aclmdlIODims> dims(gear_count);
    aclError ret = aclmdlGetInputDynamicDims(desc_of(desc), index, dims.data(), gear_count);
    py::list out;
    if (ret == ACL_SUCCESS)
      for (const auto &d : dims) out.append(dims_to_dict(d));
    return std::make_tuple(out, ret);
  });
  mdl.def("get_op_attr", [](Ptr desc, std::string op_name, std::string attr) {
    return str_or_none(aclmdlGetOpAttr(desc_of(desc), op_name.c_str(), attr.c_str()));
  });
  mdl.def("get_tensor_real_name", [](Ptr desc, std::string name) {
    return str_or_none(aclmdlGetTensorRealName(desc_of(desc), name.c_str()));
  });
}

void register_dataset(py::module_ &mdl) {
  mdl.def("create_dataset", [] { return to_int(aclmdlCreateDataset()); });
  mdl.def("destroy_dataset", [](Ptr ds) { return aclmdlDestroyDataset(dataset_of(ds)); });
  mdl.def("add_dataset_buffer", [](Ptr ds, Ptr buf) {
    aclError ret = aclmdlAddDatasetBuffer(dataset_of(ds), to_ptr<aclDataBuffer>(buf));
    return std::make_tuple(ds, ret);
  });
  mdl.def("get_dataset_num_buffers",
          [](Ptr ds) { return aclmdlGetDatasetNumBuffers(dataset_of(ds)); });
  mdl.def("get_dataset_buffer",
          [](Ptr ds, Index i) { return to_int(aclmdlGetDatasetBuffer(dataset_of(ds), i)); });
  // pyACL: dataset, ret = acl.mdl.set_dataset_tensor_desc(dataset, tensor_desc, index)
  mdl.def("set_dataset_tensor_desc", [](Ptr ds, Ptr desc, Index i) {
    aclError ret = aclmdlSetDatasetTensorDesc(dataset_of(ds), to_ptr<aclTensorDesc>(desc), i);
    return std::make_tuple(ds, ret);
  });
  mdl.def("get_dataset_tensor_desc",
          [](Ptr ds, Index i) { return to_int(aclmdlGetDatasetTensorDesc(dataset_of(ds), i)); });
  mdl.def("set_dynamic_batch_size", [](uint32_t model_id, Ptr ds, Index index, uint64_t batch) {
    return aclmdlSetDynamicBatchSize(model_id, dataset_of(ds), index, batch);
  });
  mdl.def("set_dynamic_hw_size",
          [](uint32_t model_id, Ptr ds, Index index, uint64_t h, uint64_t w) {
            return aclmdlSetDynamicHWSize(model_id, dataset_of(ds), index, h, w);
          });
  mdl.def("set_input_dynamic_dims", [](uint32_t model_id, Ptr ds, Index index, py::dict dims) {
    aclmdlIODims d = dims_from_dict(dims);
    return aclmdlSetInputDynamicDims(model_id, dataset_of(ds), index, &d);
  });
}

void register_load(py::module_ &mdl) {
  mdl.def("load_from_file", [](std::string path) {
    uint32_t id = 0;
    aclError ret;
    {
      NoGil released;
      ret = aclmdlLoadFromFile(path.c_str(), &id);
    }
    return std::make_tuple(id, ret);
  });
  mdl.def("load_from_mem", [](Ptr model, size_t size) {
    uint32_t id = 0;
    aclError ret;
    {
      NoGil released;
      ret = aclmdlLoadFromMem(to_ptr(model), size, &id);
    }
    return std::make_tuple(id, ret);
  });
  mdl.def("load_from_file_with_mem",
          [](std::string path, Ptr work, size_t work_size, Ptr weight, size_t weight_size) {
            uint32_t id = 0;
            aclError ret;
            {
              NoGil released;
              ret = aclmdlLoadFromFileWithMem(path.c_str(), &id, to_ptr(work), work_size,
                                              to_ptr(weight), weight_size);
            }
            return std::make_tuple(id, ret);
          });
  mdl.def("load_from_mem_with_mem",
          [](Ptr model, size_t size, Ptr work, size_t work_size, Ptr weight, size_t weight_size) {
            uint32_t id = 0;
            aclError ret;
            {
              NoGil released;
              ret = aclmdlLoadFromMemWithMem(to_ptr(model), size, &id, to_ptr(work), work_size,
                                             to_ptr(weight), weight_size);
            }
            return std::make_tuple(id, ret);
          });
  mdl.def("query_size", [](std::string path) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySize(path.c_str(), &work, &weight);
    return std::make_tuple(work, weight, ret);
  });
  mdl.def("query_size_from_mem", [](Ptr model, size_t size) {
    size_t work = 0, weight = 0;
    aclError ret = aclmdlQuerySizeFromMem(to_ptr(model), size, &work, &weight);
    return std::make_tuple(work, weight, ret);
  });
  mdl.def(
      "unload", [](uint32_t id) { return aclmdlUnload(id); }, nogil());
  mdl.def("init_dump", [] { return aclmdlInitDump(); });
  mdl.def("set_dump", [](const std::string &path) { return aclmdlSetDump(path.c_str()); });
  mdl.def("finalize_dump", [] { return aclmdlFinalizeDump(); });
  mdl.def(
      "execute",
      [](uint32_t id, Ptr in, Ptr out) {
        return aclmdlExecute(id, dataset_of(in), dataset_of(out));
      },
      nogil());
  mdl.def(
      "execute_async",
      [](uint32_t id, Ptr in, Ptr out, Ptr stream) {
        return aclmdlExecuteAsync(id, dataset_of(in), dataset_of(out), to_ptr(stream));
      },
      nogil());
}

// pyACL passes a config value as a Python int or str; the C call takes its address and size,
// typed by the attribute (a _PTR attribute's value is the pointer itself).
enum class OptKind { i32, size, ptr, str };

template <class Handle, class Attr, class Setter>
aclError set_option(Setter set, Ptr handle, Attr attr, OptKind kind, const py::object &value) {
  auto *h = to_ptr<Handle>(handle);
  const bool text = kind == OptKind::str;
  if (text != py::isinstance<py::str>(value))
    throw py::type_error(std::string("attr_value must be ") + (text ? "a str (a path)" : "an int") +
                         " for attr " + std::to_string(static_cast<int>(attr)));
  switch (kind) {
    case OptKind::i32: {
      const auto v = value.cast<int32_t>();
      return set(h, attr, &v, sizeof(v));
    }
    case OptKind::size: {
      const auto v = value.cast<size_t>();
      return set(h, attr, &v, sizeof(v));
    }
    case OptKind::ptr: {
      const void *v = to_ptr(value.cast<Ptr>());
      return set(h, attr, &v, sizeof(v));
    }
    case OptKind::str: {
      const std::string s = value.cast<std::string>();
      const char *v = s.c_str();
      return set(h, attr, &v, sizeof(v));
    }
  }
  return ACL_ERROR_INVALID_PARAM;
}

OptKind config_kind(int attr) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32:
    case ACL_MDL_WITHOUT_GRAPH_INT32:
    case ACL_NPU_PERF_MODE:
      return OptKind::i32;
    case ACL_MDL_PATH_PTR:
    case ACL_MDL_WEIGHT_PATH_PTR:
      return OptKind::str;
    case ACL_MDL_MEM_ADDR_PTR:
    case ACL_MDL_WEIGHT_ADDR_PTR:
    case ACL_MDL_WORKSPACE_ADDR_PTR:
    case ACL_MDL_INPUTQ_ADDR_PTR:
    case ACL_MDL_OUTPUTQ_ADDR_PTR:
    case ACL_MDL_MODEL_DESC_PTR:
    case ACL_MDL_KERNEL_PTR:
    case ACL_MDL_KERNEL_ARGS_PTR:
    case ACL_MDL_STATIC_TASK_PTR:
    case ACL_MDL_DYNAMIC_TASK_PTR:
    case ACL_MDL_FIFO_PTR:
      return OptKind::ptr;
    default:
      return OptKind::size;
  }
}

OptKind exec_config_kind(int attr) {
  switch (attr) {
    case ACL_MDL_STREAM_SYNC_TIMEOUT:
    case ACL_MDL_EVENT_SYNC_TIMEOUT:
    case ACL_MDL_EXEC_PRIORITY_INT32:
    case ACL_MDL_NPU_PERF_MODE:
      return OptKind::i32;
    case ACL_MDL_WORK_ADDR_PTR:
      return OptKind::ptr;
    default:
      return OptKind::size;
  }
}

// pyACL: aipp_type, dynamic_attached_data_index, ret = acl.mdl.get_aipp_type(model_id, index)
//        set = acl.mdl.create_aipp(batch); ret = acl.mdl.set_aipp_*(set, ...); set_input_aipp(...)
//        aipp_info, ret = acl.mdl.get_first_aipp_info(model_id, index), a dict of aclAippInfo's
//        fields
void register_aipp(py::module_ &mdl) {
  mdl.def("get_aipp_type", [](uint32_t model_id, Index index) {
    aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
    size_t attached = 0;
    aclError ret = aclmdlGetAippType(model_id, index, &type, &attached);
    return std::make_tuple(static_cast<int>(type), attached, ret);
  });
  mdl.def("get_first_aipp_info", [](uint32_t model_id, Index index) {
    aclAippInfo a{};
    aclError ret = aclmdlGetFirstAippInfo(model_id, index, &a);
    py::dict d;
    if (ret != ACL_SUCCESS) return std::make_tuple(d, ret);
    d["inputFormat"] = static_cast<int>(a.inputFormat);
    d["srcImageSizeW"] = a.srcImageSizeW, d["srcImageSizeH"] = a.srcImageSizeH;
    d["cropSwitch"] = a.cropSwitch, d["loadStartPosW"] = a.loadStartPosW,
    d["loadStartPosH"] = a.loadStartPosH;
    d["cropSizeW"] = a.cropSizeW, d["cropSizeH"] = a.cropSizeH;
    d["paddingSwitch"] = a.paddingSwitch, d["leftPaddingSize"] = a.leftPaddingSize;
    d["rightPaddingSize"] = a.rightPaddingSize, d["topPaddingSize"] = a.topPaddingSize;
    d["bottomPaddingSize"] = a.bottomPaddingSize;
    d["cscSwitch"] = a.cscSwitch, d["rbuvSwapSwitch"] = a.rbuvSwapSwitch,
    d["axSwapSwitch"] = a.axSwapSwitch;
    d["matrix"] =
        std::vector<int32_t>{a.matrixR0C0, a.matrixR0C1, a.matrixR0C2, a.matrixR1C0, a.matrixR1C1,
                             a.matrixR1C2, a.matrixR2C0, a.matrixR2C1, a.matrixR2C2};
    d["outputBias"] = std::vector<int32_t>{a.outputBias0, a.outputBias1, a.outputBias2};
    d["inputBias"] = std::vector<int32_t>{a.inputBias0, a.inputBias1, a.inputBias2};
    d["meanChn"] = std::vector<int32_t>{a.meanChn0, a.meanChn1, a.meanChn2, a.meanChn3};
    d["minChn"] = std::vector<float>{a.minChn0, a.minChn1, a.minChn2, a.minChn3};
    d["varReciChn"] =
        std::vector<float>{a.varReciChn0, a.varReciChn1, a.varReciChn2, a.varReciChn3};
    d["srcFormat"] = static_cast<int>(a.srcFormat),
    d["srcDatatype"] = static_cast<int>(a.srcDatatype);
    d["srcDimNum"] = a.srcDimNum, d["shapeCount"] = a.shapeCount;
    d["srcDims"] = dims_to_dict(a.outDims[0].srcDims), d["srcSize"] = a.outDims[0].srcSize;
    d["aippOutdims"] = dims_to_dict(a.outDims[0].aippOutdims),
    d["aippOutSize"] = a.outDims[0].aippOutSize;
    return std::make_tuple(d, ret);
  });
  // Dynamic AIPP: pyACL's names of the aclmdlCreateAIPP / aclmdlSetAIPP* calls.
  auto set_of = [](Ptr p) { return to_ptr<aclmdlAIPP>(p); };
  mdl.def("create_aipp", [](uint64_t batch) { return to_int(aclmdlCreateAIPP(batch)); });
  mdl.def("destroy_aipp", [=](Ptr set) { return aclmdlDestroyAIPP(set_of(set)); });
  mdl.def("get_aipp_data_size", [](uint64_t batch) {
    size_t size = 0;
    aclError ret = aclmdlGetAippDataSize(batch, &size);
    return std::make_tuple(size, ret);
  });
  mdl.def("set_aipp_input_format", [=](Ptr set, int format) {
    return aclmdlSetAIPPInputFormat(set_of(set), static_cast<aclAippInputFormat>(format));
  });
  mdl.def("set_aipp_csc_params",
          [=](Ptr set, int8_t sw, int16_t r0c0, int16_t r0c1, int16_t r0c2, int16_t r1c0,
              int16_t r1c1, int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2, uint8_t ob0,
              uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1, uint8_t ib2) {
            return aclmdlSetAIPPCscParams(set_of(set), sw, r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0,
                                          r2c1, r2c2, ob0, ob1, ob2, ib0, ib1, ib2);
          });
  mdl.def("set_aipp_rbuv_swap_switch",
          [=](Ptr set, int8_t sw) { return aclmdlSetAIPPRbuvSwapSwitch(set_of(set), sw); });
  mdl.def("set_aipp_ax_swap_switch",
          [=](Ptr set, int8_t sw) { return aclmdlSetAIPPAxSwapSwitch(set_of(set), sw); });
  mdl.def("set_aipp_src_image_size", [=](Ptr set, int32_t w, int32_t h) {
    return aclmdlSetAIPPSrcImageSize(set_of(set), w, h);
  });
  mdl.def("set_aipp_scf_params",
          [=](Ptr set, int8_t sw, int32_t iw, int32_t ih, int32_t ow, int32_t oh, uint64_t b) {
            return aclmdlSetAIPPScfParams(set_of(set), sw, iw, ih, ow, oh, b);
          });
  mdl.def("set_aipp_crop_params",
          [=](Ptr set, int8_t sw, int32_t x, int32_t y, int32_t w, int32_t h, uint64_t b) {
            return aclmdlSetAIPPCropParams(set_of(set), sw, x, y, w, h, b);
          });
  mdl.def("set_aipp_padding_params", [=](Ptr set, int8_t sw, int32_t top, int32_t bottom,
                                         int32_t left, int32_t right, uint64_t b) {
    return aclmdlSetAIPPPaddingParams(set_of(set), sw, top, bottom, left, right, b);
  });
  mdl.def("set_aipp_dtc_pixel_mean",
          [=](Ptr set, int16_t c0, int16_t c1, int16_t c2, int16_t c3, uint64_t b) {
            return aclmdlSetAIPPDtcPixelMean(set_of(set), c0, c1, c2, c3, b);
          });
  mdl.def("set_aipp_dtc_pixel_min",
          [=](Ptr set, float c0, float c1, float c2, float c3, uint64_t b) {
            return aclmdlSetAIPPDtcPixelMin(set_of(set), c0, c1, c2, c3, b);
          });
  mdl.def("set_aipp_pixel_var_reci",
          [=](Ptr set, float c0, float c1, float c2, float c3, uint64_t b) {
            return aclmdlSetAIPPPixelVarReci(set_of(set), c0, c1, c2, c3, b);
          });
  mdl.def("set_input_aipp", [=](uint32_t model_id, Ptr ds, Index index, Ptr set) {
    return aclmdlSetInputAIPP(model_id, dataset_of(ds), index, set_of(set));
  });
  mdl.def("set_aipp_by_input_index", [=](uint32_t model_id, Ptr ds, Index index, Ptr set) {
    return aclmdlSetAIPPByInputIndex(model_id, dataset_of(ds), index, set_of(set));
  });
}

void register_config(py::module_ &mdl) {
  mdl.def("create_config_handle", [] { return to_int(aclmdlCreateConfigHandle()); });
  mdl.def("destroy_config_handle",
          [](Ptr h) { return aclmdlDestroyConfigHandle(to_ptr<aclmdlConfigHandle>(h)); });
  // pyACL: ret = acl.mdl.set_config_opt(config_handle, attr, attr_value)
  mdl.def("set_config_opt", [](Ptr h, int attr, py::object value) {
    return set_option<aclmdlConfigHandle>(
        aclmdlSetConfigOpt, h, static_cast<aclmdlConfigAttr>(attr), config_kind(attr), value);
  });
  mdl.def("load_with_config", [](Ptr h) {
    uint32_t id = 0;
    aclError ret;
    {
      NoGil released;
      ret = aclmdlLoadWithConfig(to_ptr<aclmdlConfigHandle>(h), &id);
    }
    return std::make_tuple(id, ret);
  });
  mdl.def("create_exec_config_handle", [] { return to_int(aclmdlCreateExecConfigHandle()); });
  mdl.def("destroy_exec_config_handle",
          [](Ptr h) { return aclmdlDestroyExecConfigHandle(to_ptr<aclmdlExecConfigHandle>(h)); });
  mdl.def("set_exec_config_opt", [](Ptr h, int attr, py::object value) {
    return set_option<aclmdlExecConfigHandle>(aclmdlSetExecConfigOpt, h,
                                              static_cast<aclmdlExecConfigAttr>(attr),
                                              exec_config_kind(attr), value);
  });
  mdl.def(
      "execute_v2",
      [](uint32_t id, Ptr in, Ptr out, Ptr stream, Ptr h) {
        return aclmdlExecuteV2(id, dataset_of(in), dataset_of(out), to_ptr(stream),
                               to_ptr<aclmdlExecConfigHandle>(h));
      },
      nogil());
  mdl.def(
      "execute_async_v2",
      [](uint32_t id, Ptr in, Ptr out, Ptr stream, Ptr h) {
        return aclmdlExecuteAsyncV2(id, dataset_of(in), dataset_of(out), to_ptr(stream),
                                    to_ptr<aclmdlExecConfigHandle>(h));
      },
      nogil());
}

}  // namespace

void register_mdl(py::module_ &mdl) {
  register_desc(mdl);
  register_dataset(mdl);
  register_load(mdl);
  register_config(mdl);
  register_aipp(mdl);
}

}  // namespace openacl::py_acl
