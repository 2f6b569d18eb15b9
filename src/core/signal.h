// A one-shot completion point: an event record, the end of a blocking callback. Streams park
// on it without holding a worker; host threads wait on it with an optional timeout. It carries
// the failure of the stream that completed it (docs/RULES.md R20).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "core/cond_var.h"

#include "core/status.h"

namespace openacl {

class Stream;

class Signal {
 public:
  bool done() const { return done_.load(std::memory_order_acquire); }
  // Valid once done().
  int64_t timestamp_ns() const { return timestamp_ns_; }
  const std::optional<Error> &error() const { return error_; }

  // Completes the signal once; later calls do nothing. Resumes parked streams.
  void complete(int64_t timestamp_ns, std::optional<Error> error = std::nullopt);
  // Parks s until completion. Returns false (and does not park) when already done.
  bool park(std::shared_ptr<Stream> s);
  // Calls fn (on the completing thread, without locks held) once the signal completes; at
  // once when it already has.
  void on_complete(std::function<void()> fn);
  // Host wait: timeout_ms < 0 waits forever, and the waiter runs the producer's tasks itself
  // when no worker has started them (core/stream.h). Returns false on timeout.
  bool wait(int32_t timeout_ms);

  // The stream whose task `seq` completes the signal (an event record), set when that task is
  // queued: a host thread waiting for the signal may run the stream up to it.
  void set_producer(std::weak_ptr<Stream> stream, uint64_t seq);
  std::pair<std::shared_ptr<Stream>, uint64_t> producer();

 private:
  std::atomic<bool> done_{false};
  int64_t timestamp_ns_ = 0;
  std::optional<Error> error_;
  std::mutex mu_;
  CondVar cv_;
  std::vector<std::shared_ptr<Stream>> parked_;
  std::vector<std::function<void()>> listeners_;
  std::weak_ptr<Stream> producer_;
  uint64_t producer_seq_ = 0;
};

// A signal that completes when `source` does (with its timestamp and failure), or with
// Errc::wait_timeout `timeout_ms` from now, whichever comes first: the gate of an event wait
// with a time limit. `on_timeout` runs before a timeout completes the gate, so that what the
// gate waited for is withdrawn before the waiting stream fails and its waiters wake.
std::shared_ptr<Signal> with_deadline(const std::shared_ptr<Signal> &source, int64_t timeout_ms,
                                      std::string what, std::function<void()> on_timeout = {});

}  // namespace openacl
