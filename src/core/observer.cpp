#include "core/observer.h"

#include <atomic>

namespace openacl {
namespace {
std::atomic<TaskObserver *> installed{nullptr};
}

TaskObserver *task_observer() { return installed.load(std::memory_order_acquire); }
void set_task_observer(TaskObserver *observer) {
  installed.store(observer, std::memory_order_release);
}

}  // namespace openacl
