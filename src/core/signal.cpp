#include "core/signal.h"

#include <chrono>

#include "core/stream.h"

namespace openacl {

void Signal::complete(int64_t timestamp_ns, std::optional<Error> error) {
  std::vector<std::shared_ptr<Stream>> parked;
  {
    std::lock_guard lock(mu_);
    if (done_.load(std::memory_order_relaxed)) return;
    timestamp_ns_ = timestamp_ns;
    error_ = std::move(error);
    done_.store(true, std::memory_order_release);
    parked.swap(parked_);
  }
  cv_.notify_all();
  for (auto &s : parked) s->resume();
}

bool Signal::park(std::shared_ptr<Stream> s) {
  std::lock_guard lock(mu_);
  if (done_.load(std::memory_order_relaxed)) return false;
  parked_.push_back(std::move(s));
  return true;
}

bool Signal::wait(int32_t timeout_ms) {
  if (done()) return true;
  std::unique_lock lock(mu_);
  if (timeout_ms < 0) {
    cv_.wait(lock, [&] { return done(); });
    return true;
  }
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return done(); });
}

}  // namespace openacl
