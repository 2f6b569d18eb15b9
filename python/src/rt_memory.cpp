// acl.rt: device and host memory, copies and sets.
//
// Copies release the GIL: a synchronous copy, or an async one with pageable host memory,
// may wait for the stream, and the stream may be waiting for a Python callback.
#include "common.h"

#include <acl/acl.h>

namespace openacl::py_acl {

namespace {

using MallocFn = aclError (*)(void **, size_t, aclrtMemMallocPolicy);

auto malloc_with(MallocFn fn) {
  return [fn](size_t size, int policy) {
    void *p = nullptr;
    aclError ret = fn(&p, size, static_cast<aclrtMemMallocPolicy>(policy));
    return std::make_tuple(to_int(p), ret);
  };
}

// pyACL's malloc config: {} for none, else
// {"numAttrs": n, "attrs": [{"attr": k, "value": {"moduleId" | "deviceId" | "vaFlag" | "rsv":
// v}}]}.
struct MallocConfig {
  std::vector<aclrtMallocAttribute> attrs;
  aclrtMallocConfig cfg{};

  explicit MallocConfig(const py::dict &d) {
    if (d.empty()) return;
    for (auto item : d["attrs"].cast<py::list>()) {
      auto a = item.cast<py::dict>();
      aclrtMallocAttribute attr{};
      attr.attr = static_cast<aclrtMallocAttrType>(a["attr"].cast<int>());
      auto v = a["value"].cast<py::dict>();
      if (v.contains("moduleId")) attr.value.moduleId = v["moduleId"].cast<uint16_t>();
      else if (v.contains("deviceId")) attr.value.deviceId = v["deviceId"].cast<uint32_t>();
      else if (v.contains("vaFlag")) attr.value.vaFlag = v["vaFlag"].cast<uint32_t>();
      else if (v.contains("rsv")) {
        auto rsv = v["rsv"].cast<std::vector<uint8_t>>();
        for (size_t i = 0; i < rsv.size() && i < sizeof attr.value.rsv; ++i)
          attr.value.rsv[i] = rsv[i];
      } else {
        throw py::value_error("malloc config value needs one of moduleId, deviceId, vaFlag, rsv");
      }
      attrs.push_back(attr);
    }
    size_t n = d.contains("numAttrs") ? d["numAttrs"].cast<size_t>() : attrs.size();
    if (n > attrs.size()) throw py::value_error("malloc config numAttrs exceeds the attrs given");
    cfg.attrs = attrs.data();
    cfg.numAttrs = n;
  }

  aclrtMallocConfig *get() { return attrs.empty() ? nullptr : &cfg; }
};

void register_alloc(py::module_ &rt) {
  rt.def("malloc", malloc_with(aclrtMalloc));
  rt.def("malloc_align32", malloc_with(aclrtMallocAlign32));
  rt.def("malloc_cached", malloc_with(aclrtMallocCached));
  rt.def("malloc_with_cfg", [](size_t size, int policy, py::dict cfg_dict) {
    MallocConfig cfg(cfg_dict);
    void *p = nullptr;
    aclError ret =
        aclrtMallocWithCfg(&p, size, static_cast<aclrtMemMallocPolicy>(policy), cfg.get());
    return std::make_tuple(to_int(p), ret);
  });
  rt.def("malloc_host_with_cfg", [](uint64_t size, py::dict cfg_dict) {
    MallocConfig cfg(cfg_dict);
    void *p = nullptr;
    aclError ret = aclrtMallocHostWithCfg(&p, size, cfg.get());
    return std::make_tuple(to_int(p), ret);
  });
  rt.def("malloc_host", [](size_t size) {
    void *p = nullptr;
    aclError ret = aclrtMallocHost(&p, size);
    return std::make_tuple(to_int(p), ret);
  });
  rt.def(
      "free", [](Ptr p) { return aclrtFree(to_ptr(p)); }, nogil());
  rt.def(
      "free_host", [](Ptr p) { return aclrtFreeHost(to_ptr(p)); }, nogil());
  rt.def("get_mem_info", [](int attr) {
    size_t free_bytes = 0, total = 0;
    aclError ret = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free_bytes, &total);
    return std::make_tuple(free_bytes, total, ret);
  });
  rt.def("mem_flush", [](Ptr p, size_t size) { return aclrtMemFlush(to_ptr(p), size); });
  rt.def("mem_invalidate", [](Ptr p, size_t size) { return aclrtMemInvalidate(to_ptr(p), size); });
}

void register_copy(py::module_ &rt) {
  rt.def(
      "memcpy",
      [](Ptr dst, size_t dest_max, Ptr src, size_t count, int kind) {
        return aclrtMemcpy(to_ptr(dst), dest_max, to_ptr(src), count,
                           static_cast<aclrtMemcpyKind>(kind));
      },
      nogil());
  rt.def(
      "memcpy_async",
      [](Ptr dst, size_t dest_max, Ptr src, size_t count, int kind, Ptr stream) {
        return aclrtMemcpyAsync(to_ptr(dst), dest_max, to_ptr(src), count,
                                static_cast<aclrtMemcpyKind>(kind), to_ptr(stream));
      },
      nogil());
  rt.def(
      "memcpy2d",
      [](Ptr dst, size_t dpitch, Ptr src, size_t spitch, size_t width, size_t height, int kind) {
        return aclrtMemcpy2d(to_ptr(dst), dpitch, to_ptr(src), spitch, width, height,
                             static_cast<aclrtMemcpyKind>(kind));
      },
      nogil());
  rt.def(
      "memcpy2d_async",
      [](Ptr dst, size_t dpitch, Ptr src, size_t spitch, size_t width, size_t height, int kind,
         Ptr stream) {
        return aclrtMemcpy2dAsync(to_ptr(dst), dpitch, to_ptr(src), spitch, width, height,
                                  static_cast<aclrtMemcpyKind>(kind), to_ptr(stream));
      },
      nogil());
  rt.def(
      "memset",
      [](Ptr p, size_t max_count, int32_t value, size_t count) {
        return aclrtMemset(to_ptr(p), max_count, value, count);
      },
      nogil());
  rt.def(
      "memset_async",
      [](Ptr p, size_t max_count, int32_t value, size_t count, Ptr stream) {
        return aclrtMemsetAsync(to_ptr(p), max_count, value, count, to_ptr(stream));
      },
      nogil());
  rt.def(
      "memset_d32",
      [](Ptr p, size_t mem_size, uint32_t value, size_t n) {
        return aclrtMemsetD32(to_ptr(p), mem_size, value, n);
      },
      nogil());
  rt.def(
      "memset_d32_async",
      [](Ptr p, size_t mem_size, uint32_t value, size_t n, Ptr stream) {
        return aclrtMemsetD32Async(to_ptr(p), mem_size, value, n, to_ptr(stream));
      },
      nogil());
  rt.def(
      "reduce_async",
      [](Ptr dst, Ptr src, uint64_t count, int kind, int type, Ptr stream, Ptr reserve) {
        return aclrtReduceAsync(to_ptr(dst), to_ptr(src), count, static_cast<aclrtReduceKind>(kind),
                                static_cast<aclDataType>(type), to_ptr(stream), to_ptr(reserve));
      },
      nogil());
}

}  // namespace

namespace {

// pyACL's aclrtPhysicalMemProp: a dict with handleType, allocationType, memAttr and location
// ({'id': ..., 'type': ...}); missing keys are 0.
aclrtPhysicalMemProp physical_prop(const py::dict &d) {
  auto get = [&](const py::dict &from, const char *key) {
    return from.contains(key) ? from[key].cast<int64_t>() : 0;
  };
  aclrtPhysicalMemProp p{};
  p.handleType = static_cast<aclrtMemHandleType>(get(d, "handleType"));
  p.allocationType = static_cast<aclrtMemAllocationType>(get(d, "allocationType"));
  p.memAttr = static_cast<aclrtMemAttr>(get(d, "memAttr"));
  if (d.contains("location")) {
    const py::dict loc = d["location"].cast<py::dict>();
    p.location.id = static_cast<uint32_t>(get(loc, "id"));
    p.location.type = static_cast<aclrtMemLocationType>(get(loc, "type"));
  }
  return p;
}

// Virtual memory: reserved ranges, physical allocations, mappings.
void register_virtual_memory(py::module_ &rt) {
  rt.def("mem_get_allocation_granularity", [](const py::dict &prop, int option) {
    aclrtPhysicalMemProp p = physical_prop(prop);
    size_t granularity = 0;
    aclError ret = aclrtMemGetAllocationGranularity(
        &p, static_cast<aclrtMemGranularityOptions>(option), &granularity);
    return std::make_tuple(granularity, ret);
  });
  rt.def("reserve_mem_address", [](size_t size, size_t alignment, Ptr expect_ptr, uint64_t flags) {
    void *va = nullptr;
    aclError ret = aclrtReserveMemAddress(&va, size, alignment, to_ptr(expect_ptr), flags);
    return std::make_tuple(to_int(va), ret);
  });
  rt.def("release_mem_address",
         [](Ptr vir_ptr) { return aclrtReleaseMemAddress(to_ptr(vir_ptr)); });
  rt.def("malloc_physical", [](size_t size, const py::dict &prop, uint64_t flags) {
    aclrtPhysicalMemProp p = physical_prop(prop);
    aclrtDrvMemHandle handle = nullptr;
    aclError ret = aclrtMallocPhysical(&handle, size, &p, flags);
    return std::make_tuple(to_int(handle), ret);
  });
  rt.def("free_physical", [](Ptr handle) { return aclrtFreePhysical(to_ptr(handle)); });
  rt.def("map_mem", [](Ptr vir_ptr, size_t size, size_t offset, Ptr handle, uint64_t flags) {
    return aclrtMapMem(to_ptr(vir_ptr), size, offset, to_ptr(handle), flags);
  });
  // Waits for the device's streams, which may run Python callbacks.
  rt.def(
      "unmap_mem", [](Ptr vir_ptr) { return aclrtUnmapMem(to_ptr(vir_ptr)); }, nogil());
}

}  // namespace

void register_rt_memory(py::module_ &rt) {
  register_alloc(rt);
  register_copy(rt);
  register_virtual_memory(rt);
}

}  // namespace openacl::py_acl
