// Deadlines of the runtime: one thread that runs each registered action when its time comes
// (the time limit of an event wait, the polls of a value wait). Actions must be short and
// must not block.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include "core/cond_var.h"

namespace openacl {

class Timers {
 public:
  Timers() = default;
  Timers(const Timers &) = delete;
  Timers &operator=(const Timers &) = delete;
  // Runs fn on the timer thread once `delay` has passed. Thread safe.
  void after(std::chrono::steady_clock::duration delay, std::function<void()> fn);

 private:
  void run();

  std::mutex mu_;
  CondVar cv_;
  std::multimap<std::chrono::steady_clock::time_point, std::function<void()>> due_;
  bool started_ = false;
};

// The process's timer service. Its thread starts with the first deadline and lives until the
// process exits (pending deadlines die with it).
Timers &timers();

}  // namespace openacl
