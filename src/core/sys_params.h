// aclSysParamOpt values (deterministic computing, kernel debug, ...), set for the process
// (aclrtSetSysParamOpt) or for one context (aclrtCtxSetSysParamOpt). Unset values read 0.
// The sim device's results are deterministic whatever they say: work is split over the AI
// cores the same way on every run.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>

namespace openacl {

class SysParams {
 public:
  static constexpr int64_t kCount =
      4;  // ACL_OPT_DETERMINISTIC .. ACL_OPT_ENABLE_KERNEL_EARLY_START
  void set(int64_t opt, int64_t value) { values_[opt].store(value, std::memory_order_relaxed); }
  void clear() {
    for (auto &v : values_) v.store(kUnset, std::memory_order_relaxed);
  }
  // nullopt when never set.
  std::optional<int64_t> get(int64_t opt) const {
    int64_t v = values_[opt].load(std::memory_order_relaxed);
    return v == kUnset ? std::nullopt : std::optional<int64_t>(v);
  }

 private:
  static constexpr int64_t kUnset = INT64_MIN;
  std::array<std::atomic<int64_t>, kCount> values_{kUnset, kUnset, kUnset, kUnset};
};

}  // namespace openacl
