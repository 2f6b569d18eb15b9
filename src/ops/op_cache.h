// The operators a host thread prepared last. Programs repeat the same few operators
// (aclopExecuteV2 in a loop), and a prepared operator is immutable, so a call that matches an
// entry (op type, descriptors, attributes) reuses it instead of preparing again.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::ops {

// The tensors of one op call, as the op runs them.
struct TensorLists {
  std::vector<Tensor> inputs, outputs;
};

// The tensor lists of a finished call of a cached op, kept for the op's next call: its
// descriptors are the entry's, so only the data pointers change, and a small op's call builds
// no vectors and copies no dimensions (five allocations, freed again on the thread that ran
// the op). One slot; a finished call finding it taken frees its lists.
// Thread safety: any thread may take and give.
class TensorSpare {
 public:
  explicit TensorSpare(std::shared_ptr<const PreparedOp> op) : op(std::move(op)) {}
  ~TensorSpare() { delete slot_.load(std::memory_order_acquire); }
  TensorSpare(const TensorSpare &) = delete;
  TensorSpare &operator=(const TensorSpare &) = delete;

  std::unique_ptr<TensorLists> take() {
    if (slot_.load(std::memory_order_relaxed) == nullptr) return nullptr;
    return std::unique_ptr<TensorLists>(slot_.exchange(nullptr, std::memory_order_acquire));
  }
  void give(std::unique_ptr<TensorLists> lists) {
    TensorLists *empty = nullptr;
    if (slot_.compare_exchange_strong(empty, lists.get(), std::memory_order_release,
                                      std::memory_order_relaxed))
      lists.release();
  }

  // The entry's op; CachedOp::op and each call's BoundCall::op share this object's ownership.
  const std::shared_ptr<const PreparedOp> op;

 private:
  std::atomic<TensorLists *> slot_{nullptr};
};

struct CachedOp {
  std::string op_type;
  std::vector<TensorDesc> inputs, outputs;
  std::vector<bool> host_inputs;  // placed in host memory (each such input is const)
  Attrs attrs;
  std::shared_ptr<const PreparedOp> op;  // owned through `spare`
  TensorSpare *spare;
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
