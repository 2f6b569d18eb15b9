// Freed memory that tasks may still use. aclrtFree gives the capacity back at once, but the
// bytes go back to the backend only when no task that could touch them can still run: first
// every call that was in flight at the free has returned (it may have checked the pointer just
// before and be about to enqueue a task on it), then every task queued on any stream of any
// context or device at that point has completed.
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/call_gate.h"

namespace openacl {

class Device;
class LiveStreams;
class Stream;

class RetiredMemory {
 public:
  explicit RetiredMemory(const LiveStreams &streams) : streams_(streams) {}

  // Takes p (allocated by device, host = page-locked host memory) out of use.
  void retire(Device &device, void *p, size_t size, bool host);
  // Returns to the backends what no task can touch any more. Cheap when nothing is retired.
  void collect();
  // aclFinalize, once every stream is idle: returns everything.
  void release_all();

 private:
  struct Block {
    Device *device;
    void *p;
    size_t size;
    bool host;
    GracePeriod calls;
    bool calls_passed = false;
    std::vector<std::pair<std::weak_ptr<Stream>, uint64_t>> tasks;
  };
  bool unused(Block &b) const;
  static void deallocate(const Block &b);

  const LiveStreams &streams_;
  std::mutex mu_;
  std::vector<Block> blocks_;
  std::atomic<size_t> count_{0};
};

}  // namespace openacl
