#include "core/res_limits.h"

#include <algorithm>

#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "core/thread_state.h"

namespace openacl {

uint32_t device_res_limit(Device &device, CoreKind k) {
  const uint32_t set = device.res_limits().get(k);
  return set != 0 ? set : device.props().ai_cores;
}

uint32_t thread_res_limit(Device &device, CoreKind k) {
  ThreadState &me = this_thread();
  if (me.res_stream_ptr != nullptr) {
    // A stream of another device, or one destroyed since (which a borrowed lookup may still
    // keep alive), limits nothing here.
    auto s = me.res_stream.lock();
    if (s != nullptr && &s->device() == &device &&
        Runtime::get().streams.find(s->handle()) != nullptr) {
      if (const uint32_t set = s->res_limits().get(k); set != 0) return set;
    }
  }
  return device_res_limit(device, k);
}

void take_res_limit(Task &task, Device &device) {
  if (task.core_limit != 0) return;  // a replica of a captured task keeps the capture's
  const TaskKind kind = task.kind();
  if (kind != TaskKind::kernel && kind != TaskKind::op && kind != TaskKind::model) return;
  task.core_limit = std::min(thread_res_limit(device, CoreKind::cube),
                             thread_res_limit(device, CoreKind::vector));
}

}  // namespace openacl
