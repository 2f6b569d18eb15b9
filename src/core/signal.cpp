#include "core/signal.h"

#include <chrono>

#include "core/call_gate.h"
#include "core/clock.h"
#include "core/stream.h"
#include "core/timers.h"

namespace openacl {

void Signal::complete(int64_t timestamp_ns, std::optional<Error> error) {
  std::vector<std::shared_ptr<Stream>> parked;
  std::vector<std::function<void()>> listeners;
  {
    std::lock_guard lock(mu_);
    if (done_.load(std::memory_order_relaxed)) return;
    timestamp_ns_ = timestamp_ns;
    error_ = std::move(error);
    done_.store(true, std::memory_order_release);
    parked.swap(parked_);
    listeners.swap(listeners_);
  }
  cv_.notify_all();
  for (auto &s : parked) s->resume();
  for (auto &fn : listeners) fn();
}

void Signal::on_complete(std::function<void()> fn) {
  {
    std::lock_guard lock(mu_);
    if (!done_.load(std::memory_order_relaxed)) {
      listeners_.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

std::shared_ptr<Signal> with_deadline(const std::shared_ptr<Signal> &source, int64_t timeout_ms,
                                      std::string what, std::function<void()> on_timeout) {
  auto gate = std::make_shared<Signal>();
  std::weak_ptr<Signal> weak_gate = gate;
  // The source outlives this link (the waiting stream's task holds the gate, the event or a
  // record task holds the source); a gate nobody waits for any more is simply not completed.
  source->on_complete([weak_gate, weak_source = std::weak_ptr<Signal>(source)] {
    auto g = weak_gate.lock();
    auto s = weak_source.lock();
    if (g && s) g->complete(s->timestamp_ns(), s->error());
  });
  timers().after(std::chrono::milliseconds(timeout_ms),
                 [weak_gate, what = std::move(what), on_timeout] {
                   auto g = weak_gate.lock();
                   if (!g || g->done()) return;
                   if (on_timeout) on_timeout();
                   g->complete(now_ns(), Error(Errc::wait_timeout, what));
                 });
  return gate;
}

bool Signal::park(std::shared_ptr<Stream> s) {
  std::lock_guard lock(mu_);
  if (done_.load(std::memory_order_relaxed)) return false;
  parked_.push_back(std::move(s));
  return true;
}

void Signal::set_producer(std::weak_ptr<Stream> stream, uint64_t seq) {
  std::lock_guard lock(mu_);
  producer_ = std::move(stream);
  producer_seq_ = seq;
}

std::pair<std::shared_ptr<Stream>, uint64_t> Signal::producer() {
  std::lock_guard lock(mu_);
  return {producer_.lock(), producer_seq_};
}

bool Signal::wait(int32_t timeout_ms) {
  if (done()) return true;
  QuiescentWait blocked;  // what the caller enqueued is queued already (core/call_gate.h)
  // A timed wait only sleeps: a task it ran itself could outlast the timeout.
  if (timeout_ms < 0) {
    if (auto [stream, seq] = producer(); stream) stream->help_until(seq);
  }
  std::unique_lock lock(mu_);
  if (timeout_ms < 0) {
    cv_.wait(lock, [&] { return done(); });
    return true;
  }
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return done(); });
}

}  // namespace openacl
