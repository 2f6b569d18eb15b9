#include "core/observer.h"

#include <atomic>

#include "core/clock.h"

namespace openacl {
namespace {
std::atomic<TaskObserver *> installed{nullptr};
}

TaskObserver *task_observer() { return installed.load(std::memory_order_acquire); }
void set_task_observer(TaskObserver *observer) {
  installed.store(observer, std::memory_order_release);
}

HostSpan::HostSpan(const char *api) : api_(api) {
  if (task_observer() != nullptr) begin_ns_ = now_ns();
}

HostSpan::~HostSpan() {
  if (begin_ns_ == 0) return;
  if (TaskObserver *o = task_observer()) o->on_host_span(api_, begin_ns_, now_ns());
}

}  // namespace openacl
