#include "core/timers.h"

namespace openacl {

void Timers::after(std::chrono::steady_clock::duration delay, std::function<void()> fn) {
  {
    std::lock_guard lock(mu_);
    due_.emplace(std::chrono::steady_clock::now() + delay, std::move(fn));
    if (!started_) {
      started_ = true;
      std::thread([this] { run(); }).detach();
    }
  }
  cv_.notify_one();
}

void Timers::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (due_.empty()) {
      cv_.wait(lock);
      continue;
    }
    const auto first = due_.begin()->first;
    if (std::chrono::steady_clock::now() < first) {
      cv_.wait_until(lock, first);
      continue;
    }
    auto fn = std::move(due_.begin()->second);
    due_.erase(due_.begin());
    lock.unlock();
    fn();
    lock.lock();
  }
}

Timers &timers() {
  static auto *t = new Timers();  // never destroyed: its detached thread uses it until exit
  return *t;
}

}  // namespace openacl
