// A vector clock over streams: entry i is the latest task of stream i known to happen before.
// Streams get small indices in the order the checker first sees them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace openacl::check {

class VectorClock {
 public:
  uint64_t get(uint32_t i) const { return i < c_.size() ? c_[i] : 0; }
  void set(uint32_t i, uint64_t v) {
    if (i >= c_.size()) c_.resize(i + 1, 0);
    c_[i] = v;
  }
  // this = max(this, other). Returns whether an entry other than `except` grew.
  bool join(const VectorClock &other, uint32_t except = UINT32_MAX) {
    if (other.c_.size() > c_.size()) c_.resize(other.c_.size(), 0);
    bool grew = false;
    for (size_t i = 0; i < other.c_.size(); ++i) {
      if (other.c_[i] > c_[i]) {
        c_[i] = other.c_[i];
        grew |= i != except;
      }
    }
    return grew;
  }

 private:
  std::vector<uint64_t> c_;
};

}  // namespace openacl::check
