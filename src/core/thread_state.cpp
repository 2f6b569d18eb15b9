#include "core/thread_state.h"

#include <unistd.h>

#include "core/call_gate.h"

namespace openacl {

ThreadState::ThreadState() { register_thread(*this); }

ThreadState::~ThreadState() {
  // The lookup caches may hold the last reference to a destroyed stream: it goes while the rest
  // of the thread's state is intact, as when the caches were thread_locals of their own.
  for (HandleCache &c : handle_caches) c.obj.reset();
  unregister_thread(*this);
}

namespace detail {

__thread ThreadState *current_thread __attribute__((tls_model("initial-exec"))) = nullptr;

ThreadState &make_this_thread() {
  thread_local ThreadState state;
  current_thread = &state;
  return state;
}

}  // namespace detail

uint32_t ThreadState::os_id() {
  if (os_id_ == 0) os_id_ = static_cast<uint32_t>(gettid());
  return os_id_;
}

}  // namespace openacl
