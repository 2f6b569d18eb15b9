// acl_prof.h's model subscription calls: subscription configurations, subscribing a model's
// ops to a pipe (model/op_subscription.cpp writes the records from the device worker), and the
// aclprofGetOp* calls, which read the records back out of the bytes the program read from its
// end of the pipe.
#include <fcntl.h>

#include <cstring>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/guard.h"
#ifndef OPENACL_CORE_ONLY
#include "api/mdl/model_calls.h"
#endif
#include "core/runtime.h"
#include "model/op_subscription.h"

struct aclprofSubscribeConfig {
  bool timed = true;
  int fd = -1;
};

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::model::OpRecord;

namespace {

openacl::Registry<aclprofSubscribeConfig> &configs() {
  return openacl::Runtime::get().tables.kept<aclprofSubscribeConfig>();
}

const aclprofSubscribeConfig &config_of(const aclprofSubscribeConfig *c) {
  if (c == nullptr) fail(Errc::invalid_argument, "profSubscribeConfig is NULL");
  if (!configs().find(c))
    fail(Errc::invalid_argument,
         "profSubscribeConfig was not made by aclprofCreateSubscribeConfig, or is destroyed");
  return *c;
}

// Record `index` of the bytes read from a subscription pipe.
OpRecord record(const void *opInfo, size_t opInfoLen, uint32_t index) {
  if (opInfo == nullptr) fail(Errc::invalid_argument, "opInfo is NULL");
  if (opInfoLen == 0 || opInfoLen % sizeof(OpRecord) != 0)
    fail(Errc::invalid_argument,
         "opInfoLen " + std::to_string(opInfoLen) + " is not a whole number of op records of " +
             std::to_string(sizeof(OpRecord)) + " bytes (aclprofGetOpDescSize)");
  if (index >= opInfoLen / sizeof(OpRecord))
    fail(Errc::invalid_argument, "index " + std::to_string(index) + " is past the " +
                                     std::to_string(opInfoLen / sizeof(OpRecord)) +
                                     " op records of opInfo");
  OpRecord r;
  std::memcpy(&r, static_cast<const uint8_t *>(opInfo) + index * sizeof r, sizeof r);
  if (std::memcmp(r.magic, openacl::model::kOpRecordMagic, sizeof r.magic) != 0)
    fail(Errc::invalid_argument,
         "opInfo does not hold op records read from a subscription pipe (aclprofModelSubscribe)");
  return r;
}

// aclprofGetOpTypeLen / NameLen: the string's length with its terminator.
template <size_t N>
aclError field_len(const char *api, const void *opInfo, size_t opInfoLen, uint32_t index,
                   char (OpRecord::*field)[N], size_t *len, const char *what) {
  return guarded(api, [&] {
    if (len == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
    const OpRecord r = record(opInfo, opInfoLen, index);
    *len = strnlen(r.*field, N) + 1;
  });
}

// aclprofGetOpType / Name: the string with its terminator into buf[len].
template <size_t N>
aclError field_copy(const char *api, const void *opInfo, size_t opInfoLen, uint32_t index,
                    char (OpRecord::*field)[N], char *buf, size_t len, const char *what) {
  return guarded(api, [&] {
    const OpRecord r = record(opInfo, opInfoLen, index);
    const size_t need = strnlen(r.*field, N) + 1;
    if (buf == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
    if (len < need)
      fail(Errc::invalid_argument, std::string(what) + "Len " + std::to_string(len) +
                                       " is too short: the string takes " + std::to_string(need) +
                                       " bytes with its terminator");
    std::memcpy(buf, r.*field, need - 1);
    buf[need - 1] = '\0';
  });
}

// A getter that returns its value directly: 0 (and the message) on bad input.
template <class T, class F>
T read_value(const char *api, F &&read) {
  T out{};
  guarded(api, [&] { out = read(); });
  return out;
}

}  // namespace

extern "C" {

aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void *fd) {
  aclprofSubscribeConfig *made = nullptr;
  guarded(__func__, [&] {
    if (timeInfoSwitch != 0 && timeInfoSwitch != 1)
      fail(Errc::invalid_argument,
           "timeInfoSwitch is " + std::to_string(timeInfoSwitch) + " (0 or 1)");
    const auto metrics = openacl::api::enum_value(aicoreMetrics);
    if (metrics != ACL_AICORE_NONE && (metrics < 0 || metrics > ACL_AICORE_MEMORY_ACCESS))
      fail(Errc::invalid_argument,
           "aicoreMetrics " + std::to_string(metrics) + " is not an aclprofAicoreMetrics");
    if (fd == nullptr)
      fail(Errc::invalid_argument, "fd is NULL (the address of a pipe's write end)");
    auto c = std::make_shared<aclprofSubscribeConfig>();
    c->timed = timeInfoSwitch == 1;
    std::memcpy(&c->fd, fd, sizeof c->fd);
    if (::fcntl(c->fd, F_GETFD) < 0)
      fail(Errc::invalid_argument, "*fd " + std::to_string(c->fd) + " is not an open file");
    made = c.get();
    configs().add(std::move(c));
  });
  return made;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig) {
  return guarded(__func__, [&] {
    config_of(profSubscribeConfig);
    configs().remove(profSubscribeConfig);
  });
}

aclError aclprofModelSubscribe(uint32_t modelId,
                               const aclprofSubscribeConfig *profSubscribeConfig) {
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    const aclprofSubscribeConfig &c = config_of(profSubscribeConfig);
#ifdef OPENACL_CORE_ONLY
    (void)modelId, (void)c;
    fail(Errc::api_not_supported, "this openacl is built without models (OPENACL_CORE_ONLY)");
#else
    openacl::model::subscribe_ops(*openacl::api::find_model(modelId), c.fd, c.timed);
#endif
  });
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
#ifdef OPENACL_CORE_ONLY
  (void)modelId;
  return openacl::api::report_unsupported(__func__);
#else
  return guarded(__func__, [&] {
    openacl::api::require_initialized();
    openacl::model::unsubscribe_ops(*openacl::api::find_model(modelId));
  });
#endif
}

aclError aclprofGetOpDescSize(size_t *opDescSize) {
  return guarded(__func__, [&] {
    if (opDescSize == nullptr) fail(Errc::invalid_argument, "opDescSize is NULL");
    *opDescSize = sizeof(OpRecord);
  });
}

aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber) {
  return guarded(__func__, [&] {
    if (opNumber == nullptr) fail(Errc::invalid_argument, "opNumber is NULL");
    record(opInfo, opInfoLen, 0);
    *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(OpRecord));
  });
}

aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                             size_t *opTypeLen) {
  return field_len(__func__, opInfo, opInfoLen, index, &OpRecord::type, opTypeLen, "opTypeLen");
}

aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                          size_t opTypeLen) {
  return field_copy(__func__, opInfo, opInfoLen, index, &OpRecord::type, opType, opTypeLen,
                    "opType");
}

aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index,
                             size_t *opNameLen) {
  return field_len(__func__, opInfo, opInfoLen, index, &OpRecord::name, opNameLen, "opNameLen");
}

aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                          size_t opNameLen) {
  return field_copy(__func__, opInfo, opInfoLen, index, &OpRecord::name, opName, opNameLen,
                    "opName");
}

uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return read_value<uint64_t>(__func__, [&] { return record(opInfo, opInfoLen, index).start_ns; });
}

uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return read_value<uint64_t>(__func__, [&] { return record(opInfo, opInfoLen, index).end_ns; });
}

uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return read_value<uint64_t>(__func__, [&] {
    const OpRecord r = record(opInfo, opInfoLen, index);
    return r.end_ns - r.start_ns;
  });
}

size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return read_value<size_t>(__func__, [&] { return record(opInfo, opInfoLen, index).model_id; });
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index) {
  aclprofSubscribeOpFlag flag = ACL_SUBSCRIBE_NONE;
  guarded(__func__, [&] {
    record(opInfo, opInfoLen, index);
    flag = ACL_SUBSCRIBE_OP;  // every record is one op
  });
  return flag;
}

const char *aclprofGetOpAttriValue(const void *, size_t, uint32_t, aclprofSubscribeOpAttri) {
  (void)openacl::api::report_unsupported(__func__);
  return nullptr;
}

}  // extern "C"
