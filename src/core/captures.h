// The stream captures in progress (aclmdlRICaptureBegin until aclmdlRICaptureEnd), for the
// capture-mode rules: while a capture is active, calls that would break it (synchronous copies,
// memory allocation ...) fail unless the modes of the capture and the calling thread allow them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace openacl {

class ModelRI;

// The aclmdlRICaptureMode values, of a capture and of a thread (ThreadState::capture_mode).
inline constexpr int32_t kCaptureModeGlobal = 0;
inline constexpr int32_t kCaptureModeThreadLocal = 1;
inline constexpr int32_t kCaptureModeRelaxed = 2;

// Thread safety: every member may be called from any thread.
class ActiveCaptures {
 public:
  // on: the capture began; off: it ended.
  void track(const std::shared_ptr<ModelRI> &ri, bool on);
  // Throws Errc::capture_mode when an active capture forbids `api` to the calling thread:
  // a capture of this thread not in RELAXED mode, or a GLOBAL capture of another thread while
  // this thread is in GLOBAL mode too.
  void require_safe(const char *api) const {
    if (count_.load(std::memory_order_acquire) != 0) require_safe_while_capturing(api);
  }

 private:
  void require_safe_while_capturing(const char *api) const;

  mutable std::mutex mu_;
  // Weak: a capture that aclFinalize released without aclmdlRICaptureEnd drops out by itself.
  std::vector<std::weak_ptr<ModelRI>> active_;
  std::atomic<size_t> count_{0};  // active_.size(): most calls find no capture without the lock
};

}  // namespace openacl
