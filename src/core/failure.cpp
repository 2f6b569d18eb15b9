#include "core/failure.h"

#include <atomic>
#include <exception>
#include <string>

#include "core/status.h"

namespace openacl {
namespace {
std::atomic<FailureHandler> handler{nullptr};
std::atomic<int64_t> time_limit_ns{0};
}  // namespace

void set_failure_handler(FailureHandler h) { handler.store(h, std::memory_order_release); }

void report_failure(const Stream &stream, const Task &task, const Error &error) {
  if (FailureHandler h = handler.load(std::memory_order_acquire)) h(stream, task, error);
}

Error user_code_error(const char *what) {
  try {
    throw;
  } catch (const Error &e) {
    return e;
  } catch (const std::exception &e) {
    return Error(Errc::task_failure, std::string(what) + " failed: " + e.what());
  } catch (...) {
    return Error(Errc::task_failure,
                 std::string(what) + " failed: it threw an exception that is not a std::exception");
  }
}

void set_task_time_limit(int64_t ns) { time_limit_ns.store(ns, std::memory_order_relaxed); }

int64_t task_time_limit() { return time_limit_ns.load(std::memory_order_relaxed); }

}  // namespace openacl
