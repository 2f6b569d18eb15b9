// The operators a host thread prepared last. Programs repeat the same few operators
// (aclopExecuteV2 in a loop), and a prepared operator is immutable, so a call that matches an
// entry (op type, descriptors, attributes) reuses it instead of preparing again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::ops {

struct CachedOp {
  std::string op_type;
  std::vector<TensorDesc> inputs, outputs;
  Attrs attrs;
  std::shared_ptr<const PreparedOp> op;
};

// Thread safety: none; each thread has its own (ThreadState::op_cache).
class OpCache {
 public:
  // The calling thread's cache, emptied by a new aclInit: its entries were prepared through the
  // kernels of the runtime's backend (call_target), and the next runtime may run another.
  static OpCache &of_this_thread();

  // The first entry for which match(entry) holds, or nullptr.
  template <class Match>
  const CachedOp *find(Match match) const {
    for (const auto &e : entries_)
      if (match(e)) return &e;
    return nullptr;
  }
  // Adds an entry, replacing the oldest once the cache is full.
  void add(CachedOp entry);

 private:
  static constexpr size_t kEntries = 16;
  std::vector<CachedOp> entries_;
  size_t next_ = 0;
  uint64_t epoch_ = 0;  // the runtime (Runtime::epoch) the entries belong to
};

}  // namespace openacl::ops
