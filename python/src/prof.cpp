// acl.prof: pyACL's profiling calls over acl_prof.h (sessions, msproftx stamps; the model
// subscription calls in prof_subscribe.cpp).
#include "common.h"

#include <acl/acl.h>
#include <acl/acl_prof.h>

#include <cstring>

namespace openacl::py_acl {

void register_prof(py::module_ &prof) {
  prof.def("init", [](const std::string &path) { return aclprofInit(path.c_str(), path.size()); });
  prof.def("finalize", [] { return aclprofFinalize(); });
  // aicore_events: pyACL takes 0 (NULL) there.
  prof.def("create_config", [](std::vector<uint32_t> devices, int aicore_metrics, Ptr aicore_events,
                               uint64_t data_type_config) {
    aclprofAicoreMetrics metrics;  // any int reaches aclprofCreateConfig, which checks it
    static_assert(sizeof metrics == sizeof aicore_metrics);
    std::memcpy(&metrics, &aicore_metrics, sizeof metrics);
    return to_int(aclprofCreateConfig(devices.data(), static_cast<uint32_t>(devices.size()),
                                      metrics, to_ptr<const aclprofAicoreEvents>(aicore_events),
                                      data_type_config));
  });
  prof.def("destroy_config",
           [](Ptr config) { return aclprofDestroyConfig(to_ptr<const aclprofConfig>(config)); });
  prof.def("start", [](Ptr config) { return aclprofStart(to_ptr<const aclprofConfig>(config)); });
  prof.def(
      "stop", [](Ptr config) { return aclprofStop(to_ptr<const aclprofConfig>(config)); }, nogil());
  prof.def("create_stamp", [] { return to_int(aclprofCreateStamp()); });
  prof.def("destroy_stamp", [](Ptr stamp) { aclprofDestroyStamp(to_ptr(stamp)); });
  prof.def("set_stamp_trace_message", [](Ptr stamp, const std::string &msg, uint32_t msg_len) {
    return aclprofSetStampTraceMessage(to_ptr(stamp), msg.c_str(), msg_len);
  });
  prof.def("push", [](Ptr stamp) { return aclprofPush(to_ptr(stamp)); });
  prof.def("pop", [] { return aclprofPop(); });
  prof.def("mark", [](Ptr stamp) { return aclprofMark(to_ptr(stamp)); });
  prof.def("range_start", [](Ptr stamp) {
    uint32_t id = 0;
    aclError ret = aclprofRangeStart(to_ptr(stamp), &id);
    return std::make_tuple(id, ret);
  });
  prof.def("range_stop", [](uint32_t id) { return aclprofRangeStop(id); });
  register_prof_subscribe(prof);
}

}  // namespace openacl::py_acl
