// Virtual memory management (aclrtReserveMemAddress, aclrtMallocPhysical, aclrtMapMem): address
// ranges reserved without memory, physical allocations of a device (anonymous shared files,
// charged to the device's capacity), and mappings of the latter into the former. A mapping is
// device memory like any other (the memory map knows it); one physical allocation may be
// mapped at several addresses, which then share its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "core/handle.h"

namespace openacl {

class Device;
class MemoryMap;

class PhysicalMemory : public Handled {
 public:
  PhysicalMemory(Device &device, size_t size);
  ~PhysicalMemory();
  Device &device() const { return device_; }
  size_t size() const { return size_; }
  int fd() const { return fd_; }

 private:
  Device &device_;
  const size_t size_;
  int fd_ = -1;
};

class VirtualMemory {
 public:
  // Reservations and mappings come in multiples of this (aclrtMemGetAllocationGranularity).
  static constexpr size_t kGranularity = size_t{2} << 20;

  explicit VirtualMemory(MemoryMap &memory) : memory_(memory) {}
  ~VirtualMemory();

  // alignment 0: the granularity. `expect` is a hint the result may differ from.
  void *reserve(size_t size, size_t alignment, void *expect);
  // Throws Errc::invalid_argument unless base starts a reservation without mappings.
  void release(void *base);
  // [va, va + size) inside one reservation, not mapped yet; offset + size inside physical.
  void map(void *va, size_t size, size_t offset, std::shared_ptr<PhysicalMemory> physical);
  void unmap(void *va);
  // The physical allocation mapped at (or around) va.
  std::shared_ptr<PhysicalMemory> physical_at(const void *va) const;
  bool mapped(const PhysicalMemory &physical) const;
  // Whether p lies inside a reservation, mapped or not.
  bool reserved(const void *p) const;
  // aclFinalize: unmaps and releases everything.
  void release_all();

 private:
  struct Reservation {
    uintptr_t raw;  // what mmap gave (over-sized for the alignment)
    size_t raw_size;
    size_t size;
  };
  struct Mapping {
    size_t size;
    std::shared_ptr<PhysicalMemory> physical;
  };
  const Reservation *reservation_of(uintptr_t addr, size_t size) const;
  void unmap_locked(std::map<uintptr_t, Mapping>::iterator it);

  MemoryMap &memory_;
  mutable std::mutex mu_;
  std::map<uintptr_t, Reservation> reservations_;  // by base
  std::map<uintptr_t, Mapping> mappings_;          // by address
};

}  // namespace openacl
