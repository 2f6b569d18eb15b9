#include "core/thread_state.h"

namespace openacl {

ThreadState &this_thread() {
  thread_local ThreadState state;
  return state;
}

}  // namespace openacl
