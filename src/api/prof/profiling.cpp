// acl_prof.h: profiling sessions onto core/profiling.h, msproftx stamps, training steps. The
// model subscription calls are in prof_subscribe.cpp.
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/clock.h"
#include "core/runtime.h"
#include "core/thread_state.h"

// The opaque types of acl_prof.h.
struct aclprofConfig {
  openacl::ProfilingConfig config;
};
struct aclprofStepInfo {
  int64_t start_ns = -1;
};

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::report_unsupported;
using openacl::api::require_initialized;

namespace {

struct Stamp {
  std::string message = "stamp";
};

// Objects handed out as pointers, checked before use (a made-up pointer is never dereferenced).
template <class T>
openacl::Registry<T> &owned() {
  return Runtime::get().tables.kept<T>();
}
template <class T>
T *add_owned(std::shared_ptr<T> obj) {
  return static_cast<T *>(owned<T>().add(std::move(obj)));
}

const aclprofConfig &config_of(const aclprofConfig *c) {
  if (c == nullptr) fail(Errc::invalid_argument, "profilerConfig is NULL");
  if (!owned<aclprofConfig>().find(c))
    fail(Errc::invalid_argument,
         "profilerConfig was not made by aclprofCreateConfig, or is destroyed");
  return *c;
}

Stamp &stamp_of(void *stamp) {
  if (stamp == nullptr) fail(Errc::invalid_argument, "stamp is NULL");
  if (!owned<Stamp>().find(stamp))
    fail(Errc::invalid_argument, "stamp was not made by aclprofCreateStamp, or is destroyed");
  return *static_cast<Stamp *>(stamp);
}

openacl::Profiling &profiling() { return Runtime::get().profiling(); }

constexpr uint64_t kKnownDataTypes =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU |
    ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX |
    ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY |
    ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR | ACL_PROF_TASK_TIME_L3 |
    ACL_PROF_API_STATS;

}  // namespace

extern "C" {

aclError aclprofInit(const char *profilerResultPath, size_t length) {
  return guarded(__func__, [&] {
    require_initialized();
    if (profilerResultPath == nullptr) fail(Errc::invalid_argument, "profilerResultPath is NULL");
    const size_t n = strnlen(profilerResultPath, length);
    if (n == 0 || length > 4096)
      fail(Errc::invalid_argument,
           "length " + std::to_string(length) + " must be in [1, 4096] and the path not empty");
    profiling().init(std::string(profilerResultPath, n));
  });
}

aclError aclprofFinalize() {
  return guarded(__func__, [&] {
    require_initialized();
    profiling().finalize();
  });
}

aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents *aicoreEvents,
                                   uint64_t dataTypeConfig) {
  aclprofConfig *made = nullptr;
  guarded(__func__, [&] {
    require_initialized();
    if (deviceIdList == nullptr || deviceNums == 0)
      fail(Errc::invalid_argument, "deviceIdList is NULL or deviceNums is 0");
    if (deviceNums > Runtime::get().device_count())
      fail(Errc::invalid_argument, "deviceNums " + std::to_string(deviceNums) +
                                       " is more than the " +
                                       std::to_string(Runtime::get().device_count()) + " devices");
    const int64_t metrics = openacl::api::enum_value(aicoreMetrics);
    if ((metrics < ACL_AICORE_ARITHMETIC_UTILIZATION || metrics > ACL_AICORE_MEMORY_ACCESS) &&
        metrics != ACL_AICORE_NONE)
      fail(Errc::prof_config,
           "aicoreMetrics " + std::to_string(metrics) + " is not an aclprofAicoreMetrics value");
    if (aicoreEvents != nullptr) fail(Errc::prof_config, "aicoreEvents must be NULL");
    if (dataTypeConfig == 0 || (dataTypeConfig & ~kKnownDataTypes) != 0)
      fail(
          Errc::prof_config, "dataTypeConfig 0x" + [&] {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(dataTypeConfig));
            return std::string(buf);
          }() + " is empty or has bits no ACL_PROF_* switch names");
    auto c = std::make_shared<aclprofConfig>();
    for (uint32_t i = 0; i < deviceNums; ++i) {
      Runtime::get().device(deviceIdList[i]);  // Errc::invalid_device for an unknown id
      c->config.devices.push_back(deviceIdList[i]);
    }
    c->config.aicore_metrics = metrics;
    c->config.data_types = dataTypeConfig;
    made = add_owned(std::move(c));
  });
  return made;
}

aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig) {
  return guarded(__func__, [&] {
    config_of(profilerConfig);
    owned<aclprofConfig>().remove(profilerConfig);
  });
}

aclError aclprofStart(const aclprofConfig *profilerConfig) {
  return guarded(__func__, [&] {
    require_initialized();
    profiling().start(config_of(profilerConfig).config);
  });
}

aclError aclprofStop(const aclprofConfig *profilerConfig) {
  return guarded(__func__, [&] {
    require_initialized();
    config_of(profilerConfig);
    profiling().stop();
  });
}

aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength) {
  return guarded(__func__, [&] {
    const int64_t t = openacl::api::enum_value(configType);
    if (t <= ACL_PROF_ARGS_MIN || t >= ACL_PROF_ARGS_MAX || t == 2)
      fail(Errc::invalid_argument,
           "configType " + std::to_string(t) + " is not an aclprofConfigType value");
    if (config == nullptr || configLength == 0)
      fail(Errc::invalid_argument, "config is NULL or configLength is 0");
    // Accepted: the simulated NPU has no hardware counters these settings would tune.
  });
}

// ---- msproftx ----

void *aclprofCreateStamp() {
  void *made = nullptr;
  guarded(__func__, [&] { made = add_owned(std::make_shared<Stamp>()); });
  return made;
}

void aclprofDestroyStamp(void *stamp) {
  guarded(__func__, [&] {
    stamp_of(stamp);
    owned<Stamp>().remove(stamp);
  });
}

aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen) {
  return guarded(__func__, [&] {
    Stamp &s = stamp_of(stamp);
    if (msg == nullptr) fail(Errc::invalid_argument, "msg is NULL");
    if (msgLen == 0 || msgLen > 128)
      fail(Errc::invalid_argument, "msgLen " + std::to_string(msgLen) + " is not in [1, 128]");
    s.message.assign(msg, strnlen(msg, msgLen));
  });
}

aclError aclprofPush(void *stamp) {
  return guarded(__func__, [&] {
    openacl::this_thread().prof_ranges.emplace_back(stamp_of(stamp).message, openacl::now_ns());
  });
}

aclError aclprofPop() {
  return guarded(__func__, [&] {
    auto &pushed = openacl::this_thread().prof_ranges;
    if (pushed.empty())
      fail(Errc::invalid_argument, "no aclprofPush of this thread is left to pop");
    auto [name, begin] = std::move(pushed.back());
    pushed.pop_back();
    if (Runtime::get().initialized()) profiling().range(name, begin, openacl::now_ns());
  });
}

aclError aclprofRangeStart(void *stamp, uint32_t *rangeId) {
  return guarded(__func__, [&] {
    require_initialized();
    const Stamp &s = stamp_of(stamp);
    if (rangeId == nullptr) fail(Errc::invalid_argument, "rangeId is NULL");
    *rangeId = profiling().range_start(s.message);
  });
}

aclError aclprofRangeStop(uint32_t rangeId) {
  return guarded(__func__, [&] {
    require_initialized();
    profiling().range_stop(rangeId);
  });
}

aclError aclprofMark(void *stamp) {
  return guarded(__func__, [&] {
    require_initialized();
    const int64_t t = openacl::now_ns();
    profiling().range(stamp_of(stamp).message, t, t);
  });
}

aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (msg == nullptr || msgLen == 0) fail(Errc::invalid_argument, "msg is NULL or msgLen is 0");
    if (stream != nullptr) openacl::api::stream_for_submit(stream);  // a live stream, or the error
    const int64_t t = openacl::now_ns();
    profiling().range(std::string(msg, strnlen(msg, msgLen)), t, t);
  });
}

uint64_t aclprofStr2Id(const char *message) {
  return message == nullptr ? 0 : std::hash<std::string>()(message);
}

aclError aclprofRangePushEx(aclprofEventAttributes *attr) {
  (void)attr;
  return report_unsupported(__func__);
}

aclError aclprofRangePop() { return report_unsupported(__func__); }

// ---- training steps ----

aclprofStepInfo *aclprofCreateStepInfo() {
  aclprofStepInfo *made = nullptr;
  guarded(__func__, [&] { made = add_owned(std::make_shared<aclprofStepInfo>()); });
  return made;
}

void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo) {
  guarded(__func__, [&] {
    if (stepinfo == nullptr || !owned<aclprofStepInfo>().remove(stepinfo))
      fail(Errc::invalid_argument,
           "stepinfo was not made by aclprofCreateStepInfo, or is destroyed");
  });
}

aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag,
                                 aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (stepInfo == nullptr || !owned<aclprofStepInfo>().find(stepInfo))
      fail(Errc::invalid_argument,
           "stepInfo was not made by aclprofCreateStepInfo, or is destroyed");
    if (stream != nullptr) openacl::api::stream_for_submit(stream);
    const int64_t t = openacl::api::enum_value(tag);
    if (t == ACL_STEP_START) {
      stepInfo->start_ns = openacl::now_ns();
    } else if (t == ACL_STEP_END) {
      if (stepInfo->start_ns < 0)
        fail(Errc::invalid_argument, "ACL_STEP_END without an ACL_STEP_START");
      profiling().range("step", stepInfo->start_ns, openacl::now_ns());
      stepInfo->start_ns = -1;
    } else {
      fail(Errc::invalid_argument,
           "tag " + std::to_string(t) + " is not ACL_STEP_START or ACL_STEP_END");
    }
  });
}

}  // extern "C"
