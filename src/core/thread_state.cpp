#include "core/thread_state.h"

#include <unistd.h>

namespace openacl {

ThreadState &this_thread() {
  thread_local ThreadState state;
  return state;
}

uint32_t os_thread_id() {
  ThreadState &me = this_thread();
  if (me.os_id == 0) me.os_id = static_cast<uint32_t>(gettid());
  return me.os_id;
}

}  // namespace openacl
