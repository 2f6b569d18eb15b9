#include "core/captures.h"

#include <string>

#include "core/model_ri.h"
#include "core/status.h"
#include "core/thread_state.h"

namespace openacl {

void ActiveCaptures::track(const std::shared_ptr<ModelRI> &ri, bool on) {
  std::lock_guard lock(mu_);
  std::erase_if(active_, [&](const std::weak_ptr<ModelRI> &a) {
    auto other = a.lock();
    return !other || other == ri || !other->capturing();
  });
  if (on) active_.push_back(ri);
  count_.store(active_.size(), std::memory_order_release);
}

void ActiveCaptures::require_safe_while_capturing(const char *api) const {
  const int32_t thread_mode = this_thread().capture_mode;
  if (thread_mode == kCaptureModeRelaxed) return;
  const uint32_t me = os_thread_id();
  std::lock_guard lock(mu_);
  for (const auto &weak : active_) {
    auto a = weak.lock();
    if (!a || !a->capturing()) continue;
    const bool mine = a->thread() == me && a->mode() != kCaptureModeRelaxed;
    const bool global =
        a->thread() != me && a->mode() == kCaptureModeGlobal && thread_mode == kCaptureModeGlobal;
    if (mine || global) {
      fail(Errc::capture_mode, std::string(api) + " is not allowed while a stream capture in " +
                                   (a->mode() == kCaptureModeGlobal ? "GLOBAL" : "THREAD_LOCAL") +
                                   " mode is active; use the async call on the captured stream, or "
                                   "aclmdlRICaptureThreadExchangeMode(RELAXED)");
    }
  }
}

}  // namespace openacl
