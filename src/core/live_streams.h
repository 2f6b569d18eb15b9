// Every Stream object that exists, registered or not: a stream whose handle is gone (destroyed,
// its context released, or its device reset) may still have tasks queued or running, and those
// tasks still touch device memory. Freed memory and aclFinalize wait for them through this set.
//
// Thread safety: all members may be called from any thread. A stream is added by its creator,
// once a shared_ptr owns it, and removes itself when destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

namespace openacl {

class Stream;

class LiveStreams {
 public:
  void add(const std::shared_ptr<Stream> &s);
  void remove(Stream *s);
  // The streams with tasks not yet completed (or callbacks not yet returned).
  std::vector<std::shared_ptr<Stream>> busy() const;
  // For each busy stream, the sequence number of its latest task: once every one of those
  // has completed (or its stream is gone), no task enqueued before the call can run.
  std::vector<std::pair<std::weak_ptr<Stream>, uint64_t>> pending() const;

 private:
  std::vector<std::shared_ptr<Stream>> all() const;

  mutable std::mutex mu_;
  std::unordered_set<Stream *> streams_;
};

}  // namespace openacl
