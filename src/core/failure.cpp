#include "core/failure.h"

#include <atomic>

namespace openacl {
namespace {
std::atomic<FailureHandler> handler{nullptr};
}  // namespace

void set_failure_handler(FailureHandler h) { handler.store(h, std::memory_order_release); }

void report_failure(const Stream &stream, const Task &task, const Error &error) {
  if (FailureHandler h = handler.load(std::memory_order_acquire)) h(stream, task, error);
}

}  // namespace openacl
