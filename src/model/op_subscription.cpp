#include "model/op_subscription.h"

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

#include "core/status.h"
#include "model/model.h"

namespace openacl::model {

namespace {

void copy_cut(char *dst, size_t size, const std::string &s) {
  const size_t n = std::min(s.size(), size - 1);
  std::memcpy(dst, s.data(), n);
  std::memset(dst + n, 0, size - n);
}

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

// The subscriber of one model: its pipe, closed to writes at unsubscribe_ops.
class PipeSink : public OpTimeSink {
 public:
  PipeSink(int fd, bool timed) : fd_(fd), timed_(timed) {}
  void on_ops(uint32_t model_id, std::span<const OpSpan> ops) override {
    std::vector<OpRecord> records(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      OpRecord &r = records[i];
      std::memcpy(r.magic, kOpRecordMagic, sizeof r.magic);
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

}  // namespace

void subscribe_ops(Model &model, int fd, bool timed) {
  if (auto before = model.set_op_sink(std::make_shared<PipeSink>(fd, timed))) {
    model.set_op_sink(std::move(before));
    fail(Errc::invalid_argument, "model " + std::to_string(model.id()) +
                                     " is already subscribed (aclprofModelUnSubscribe first)");
  }
}

void unsubscribe_ops(Model &model) {
  auto before = model.set_op_sink(nullptr);
  if (!before)
    fail(Errc::invalid_argument, "model " + std::to_string(model.id()) + " is not subscribed");
  static_cast<PipeSink &>(*before).close();
}

}  // namespace openacl::model
