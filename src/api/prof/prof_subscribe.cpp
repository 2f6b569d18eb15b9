// acl_prof.h's model subscription: after each execution of a subscribed model, one record per
// op (type, node name, start and end in ns, model id) goes to the subscriber's pipe, written by
// the device worker that ran the model; the aclprofGetOp* calls read the records back out of
// the bytes the program read from its end of the pipe. The record layout is openacl's own
// (programs size their reads with aclprofGetOpDescSize, as with CANN).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/guard.h"
#ifndef OPENACL_CORE_ONLY
#include "api/mdl/model_calls.h"
#endif
#include "core/runtime.h"

struct aclprofSubscribeConfig {
  bool timed = true;
  int fd = -1;
};

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

namespace {

constexpr char kMagic[4] = {'O', 'A', 'O', 'P'};

// One op of one execution as it travels through the pipe. Names longer than the fields are cut.
struct OpRecord {
  char magic[4];
  uint32_t model_id;
  uint64_t start_ns, end_ns;
  char type[64];
  char name[168];
};
static_assert(sizeof(OpRecord) == 256);

void copy_cut(char *dst, size_t size, const std::string &s) {
  const size_t n = std::min(s.size(), size - 1);
  std::memcpy(dst, s.data(), n);
  std::memset(dst + n, 0, size - n);
}

#ifndef OPENACL_CORE_ONLY  // a core-only library has no models to subscribe to
// Writes all of `bytes` to the pipe; false when the reader is gone. SIGPIPE is held back for
// the write so that a closed read end fails the write instead of ending the process.
bool write_all(int fd, const uint8_t *bytes, size_t size) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  bool ok = true;
  while (size > 0) {
    const ssize_t n = ::write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      (void)::poll(&p, 1, -1);
      continue;
    }
    if (n <= 0) {
      ok = false;
      break;
    }
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  if (!ok) {
    const timespec zero{};
    (void)sigtimedwait(&pipe_signal, nullptr, &zero);  // the SIGPIPE the failed write raised
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

// The subscriber of one model: its pipe, closed to writes at aclprofModelUnSubscribe (which
// waits for a write under way, so the program may close the pipe once it returns).
class PipeSink : public openacl::model::OpTimeSink {
 public:
  PipeSink(int fd, bool timed) : fd_(fd), timed_(timed) {}
  void on_ops(uint32_t model_id, std::span<const openacl::OpSpan> ops) override {
    std::vector<OpRecord> records(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      OpRecord &r = records[i];
      std::memcpy(r.magic, kMagic, sizeof r.magic);
      r.model_id = model_id;
      r.start_ns = timed_ ? static_cast<uint64_t>(ops[i].begin_ns) : 0;
      r.end_ns = timed_ ? static_cast<uint64_t>(ops[i].end_ns) : 0;
      copy_cut(r.type, sizeof r.type, *ops[i].type);
      copy_cut(r.name, sizeof r.name, *ops[i].node);
    }
    std::lock_guard lock(mu_);
    if (closed_ || records.empty()) return;
    if (!write_all(fd_, reinterpret_cast<const uint8_t *>(records.data()),
                   records.size() * sizeof(OpRecord)))
      closed_ = true;  // the reader is gone: later executions write nothing
  }
  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
  }

 private:
  std::mutex mu_;
  const int fd_;
  const bool timed_;
  bool closed_ = false;
};
#endif

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
  if (std::memcmp(r.magic, kMagic, sizeof kMagic) != 0)
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
    auto m = openacl::api::find_model(modelId);
    auto sink = std::make_shared<PipeSink>(c.fd, c.timed);
    if (auto before = m->set_op_sink(sink)) {
      m->set_op_sink(std::move(before));
      fail(Errc::invalid_argument, "model " + std::to_string(modelId) +
                                       " is already subscribed (aclprofModelUnSubscribe first)");
    }
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
    auto before = openacl::api::find_model(modelId)->set_op_sink(nullptr);
    if (!before)
      fail(Errc::invalid_argument, "model " + std::to_string(modelId) + " is not subscribed");
    static_cast<PipeSink &>(*before).close();
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
