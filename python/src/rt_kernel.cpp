// acl.rt: kernel binaries (openacl runs CPU kernels, see openacl/openacl_kernel.h) and the
// memory calls that take config structs. The kernel argument block travels as an address
// and a size, as the C call takes it (build it with numpy/bytes and acl.util.bytes_to_ptr).
#include "common.h"

#include <acl/acl.h>

#include <array>

namespace openacl::py_acl {

namespace {

// (type, value) pairs for aclrtBinaryLoadOptions; every option value is a 32-bit int.
struct LoadOptions {
  std::vector<aclrtBinaryLoadOption> opts;
  aclrtBinaryLoadOptions all{};

  explicit LoadOptions(const std::vector<std::pair<int, uint32_t>> &pairs) {
    for (auto [type, value] : pairs) {
      aclrtBinaryLoadOption o{};
      o.type = static_cast<aclrtBinaryLoadOptionType>(type);
      o.value.rsv[0] = value;
      opts.push_back(o);
    }
    all.options = opts.data();
    all.numOpt = opts.size();
  }
  aclrtBinaryLoadOptions *get() { return opts.empty() ? nullptr : &all; }
};

// (attr id, value) pairs for aclrtLaunchKernelCfg. The value is stored in the union's first
// 32 bits: on little-endian hosts that is also where its 8- and 16-bit members live.
struct LaunchConfig {
  std::vector<aclrtLaunchKernelAttr> attrs;
  aclrtLaunchKernelCfg cfg{};

  explicit LaunchConfig(const std::vector<std::pair<int, uint32_t>> &pairs) {
    for (auto [id, value] : pairs) {
      aclrtLaunchKernelAttr a{};
      a.id = static_cast<aclrtLaunchKernelAttrId>(id);
      a.value.rsv[0] = value;
      attrs.push_back(a);
    }
    cfg.attrs = attrs.data();
    cfg.numAttrs = attrs.size();
  }
  aclrtLaunchKernelCfg *get() { return attrs.empty() ? nullptr : &cfg; }
};

using Pairs = std::vector<std::pair<int, uint32_t>>;

void register_kernel(py::module_ &rt) {
  rt.def(
      "binary_load_from_file",
      [](std::string path, Pairs options) {
        LoadOptions opts(options);
        aclrtBinHandle bin = nullptr;
        aclError ret = aclrtBinaryLoadFromFile(path.c_str(), opts.get(), &bin);
        return std::make_tuple(to_int(bin), ret);
      },
      py::arg("bin_path"), py::arg("options") = Pairs{});
  rt.def(
      "binary_unload", [](Ptr bin) { return aclrtBinaryUnLoad(to_ptr(bin)); }, nogil());
  rt.def("binary_get_function", [](Ptr bin, std::string kernel_name) {
    aclrtFuncHandle func = nullptr;
    aclError ret = aclrtBinaryGetFunction(to_ptr(bin), kernel_name.c_str(), &func);
    return std::make_tuple(to_int(func), ret);
  });
  rt.def("function_get_binary", [](Ptr func) {
    aclrtBinHandle bin = nullptr;
    aclError ret = aclrtFunctionGetBinary(to_ptr(func), &bin);
    return std::make_tuple(to_int(bin), ret);
  });
  rt.def("get_function_name", [](Ptr func) {
    std::array<char, 1024> name{};
    aclError ret =
        aclrtGetFunctionName(to_ptr(func), static_cast<uint32_t>(name.size()), name.data());
    name.back() = '\0';
    return std::make_tuple(std::string(name.data()), ret);
  });
  rt.def(
      "launch_kernel",
      [](Ptr func, uint32_t num_blocks, Ptr args, size_t args_size, Ptr stream) {
        return aclrtLaunchKernel(to_ptr(func), num_blocks, to_ptr(args), args_size, to_ptr(stream));
      },
      nogil());
  rt.def("launch_kernel_v2", [](Ptr func, uint32_t num_blocks, Ptr args, size_t args_size,
                                Pairs cfg_attrs, Ptr stream) {
    LaunchConfig cfg(cfg_attrs);
    NoGil released;
    return aclrtLaunchKernelV2(to_ptr(func), num_blocks, to_ptr(args), args_size, cfg.get(),
                               to_ptr(stream));
  });
}

void register_memory_extras(py::module_ &rt) {
  rt.def(
      "free_with_dev_sync", [](Ptr p) { return aclrtFreeWithDevSync(to_ptr(p)); }, nogil());
  rt.def("pointer_get_attributes", [](Ptr p) {
    aclrtPtrAttributes attrs{};
    aclError ret = aclrtPointerGetAttributes(to_ptr(p), &attrs);
    py::dict out;
    if (ret == ACL_SUCCESS) {
      py::dict location;
      location["id"] = attrs.location.id;
      location["type"] = static_cast<int>(attrs.location.type);
      out["location"] = location;
      out["pageSize"] = attrs.pageSize;
    }
    return std::make_tuple(out, ret);
  });
}

}  // namespace

void register_rt_kernel(py::module_ &rt) {
  register_kernel(rt);
  register_memory_extras(rt);
}

}  // namespace openacl::py_acl
