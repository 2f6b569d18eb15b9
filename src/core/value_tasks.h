// Memory-value synchronization (aclrtValueWrite / aclrtValueWait): a stream writes a 64-bit
// value to device memory, or waits until the value at an address meets a condition, whoever
// writes it: another stream's value write, a kernel, a copy. The waiting stream parks; the
// sim device polls the address (from 10 us, backing off to 1 ms) until the condition holds.
#pragma once

#include <cstdint>
#include <memory>

#include "core/task.h"

namespace openacl {

enum class ValueCondition : uint8_t {
  geq,          // (int64_t)(*addr - value) >= 0
  eq,           // *addr == value
  and_nonzero,  // (*addr & value) != 0
  nor_nonzero,  // ~(*addr | value) != 0
};

class ValueWriteTask final : public Task {
 public:
  ValueWriteTask(uint64_t *addr, uint64_t value);
  void run(ExecContext &) override;
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<ValueWriteTask>(addr_, value_);
  }
  SyncEdge sync_edge() const override { return {SyncEdge::Role::records, addr_, true}; }

 private:
  uint64_t *addr_;
  uint64_t value_;
};

class ValueWaitTask final : public Task {
 public:
  ValueWaitTask(const uint64_t *addr, uint64_t value, ValueCondition cond);
  void run(ExecContext &) override {}
  // Checked when the stream reaches the task; nullptr when the condition already holds.
  Signal *wait_before() override;
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<ValueWaitTask>(addr_, value_, cond_);
  }
  SyncEdge sync_edge() const override { return {SyncEdge::Role::waits, addr_}; }

 private:
  const uint64_t *addr_;
  uint64_t value_;
  ValueCondition cond_;
  bool checked_ = false;
  std::shared_ptr<Signal> gate_;
};

}  // namespace openacl
