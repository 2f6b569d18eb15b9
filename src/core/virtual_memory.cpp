#include "core/virtual_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/device.h"
#include "core/memory.h"
#include "core/status.h"

namespace openacl {
namespace {

std::string hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", static_cast<size_t>(v));
  return buf;
}

constexpr int kReservedProt = PROT_NONE;
constexpr int kReservedFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

}  // namespace

PhysicalMemory::PhysicalMemory(Device &device, size_t size) : device_(device), size_(size) {
  device_.charge(size);
  fd_ = memfd_create("openacl-physical", MFD_CLOEXEC);
  if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    if (fd_ >= 0) ::close(fd_);
    device_.refund(size);
    fail(Errc::out_of_memory,
         std::string("the host could not back a physical allocation: ") + std::strerror(err));
  }
}

PhysicalMemory::~PhysicalMemory() {
  ::close(fd_);
  device_.refund(size_);
}

VirtualMemory::~VirtualMemory() { release_all(); }

void *VirtualMemory::reserve(size_t size, size_t alignment, void *expect) {
  if (size == 0 || size % kGranularity != 0) {
    fail(Errc::invalid_argument, "size " + std::to_string(size) +
                                     " is not a non-zero multiple of the granularity " +
                                     std::to_string(kGranularity));
  }
  if (alignment == 0) alignment = kGranularity;
  if ((alignment & (alignment - 1)) != 0)
    fail(Errc::invalid_argument,
         "alignment " + std::to_string(alignment) + " is not a power of two");
  const size_t raw_size = size + alignment;
  void *raw = mmap(expect, raw_size, kReservedProt, kReservedFlags, -1, 0);
  if (raw == MAP_FAILED)
    fail(Errc::out_of_memory, std::string("cannot reserve address space: ") + std::strerror(errno));
  const uintptr_t base =
      (reinterpret_cast<uintptr_t>(raw) + alignment - 1) & ~(uintptr_t{alignment} - 1);
  std::lock_guard lock(mu_);
  reservations_[base] = Reservation{reinterpret_cast<uintptr_t>(raw), raw_size, size};
  return reinterpret_cast<void *>(base);
}

const VirtualMemory::Reservation *VirtualMemory::reservation_of(uintptr_t addr, size_t size) const {
  auto it = reservations_.upper_bound(addr);
  if (it == reservations_.begin()) return nullptr;
  --it;
  if (addr + size > it->first + it->second.size) return nullptr;
  return &it->second;
}

bool VirtualMemory::reserved(const void *p) const {
  std::lock_guard lock(mu_);
  return reservation_of(reinterpret_cast<uintptr_t>(p), 1) != nullptr;
}

void VirtualMemory::release(void *base) {
  const auto b = reinterpret_cast<uintptr_t>(base);
  std::lock_guard lock(mu_);
  auto it = reservations_.find(b);
  if (it == reservations_.end())
    fail(Errc::invalid_argument, "virPtr does not start a reservation (aclrtReserveMemAddress)");
  auto m = mappings_.lower_bound(b);
  if (m != mappings_.end() && m->first < b + it->second.size) {
    fail(Errc::invalid_argument,
         "the reservation still has a mapping at " + hex(m->first) + ": aclrtUnmapMem it first");
  }
  munmap(reinterpret_cast<void *>(it->second.raw), it->second.raw_size);
  reservations_.erase(it);
}

void VirtualMemory::map(void *va, size_t size, size_t offset,
                        std::shared_ptr<PhysicalMemory> physical) {
  const auto a = reinterpret_cast<uintptr_t>(va);
  if (size == 0 || size % kGranularity != 0 || a % kGranularity != 0) {
    fail(Errc::invalid_argument,
         "virPtr and size must be multiples of the granularity " + std::to_string(kGranularity));
  }
  if (offset > physical->size() || size > physical->size() - offset) {
    fail(Errc::invalid_argument, "offset " + std::to_string(offset) + " + size " +
                                     std::to_string(size) + " run past the physical allocation's " +
                                     std::to_string(physical->size()) + " bytes");
  }
  std::lock_guard lock(mu_);
  if (reservation_of(a, size) == nullptr)
    fail(Errc::invalid_argument, "[virPtr, virPtr + size) is not inside one reservation");
  if (!memory_.add_if_free({a, size, MemoryKind::device, &physical->device(), true})) {
    fail(Errc::invalid_argument,
         "[virPtr, virPtr + size) overlaps a mapping: aclrtUnmapMem it first");
  }
  void *p = mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, physical->fd(),
                 static_cast<off_t>(offset));
  if (p == MAP_FAILED) {
    memory_.remove(va);
    fail(Errc::out_of_memory,
         std::string("cannot map the physical allocation: ") + std::strerror(errno));
  }
  mappings_[a] = Mapping{size, std::move(physical)};
}

void VirtualMemory::unmap_locked(std::map<uintptr_t, Mapping>::iterator it) {
  void *va = reinterpret_cast<void *>(it->first);
  mmap(va, it->second.size, kReservedProt, kReservedFlags | MAP_FIXED, -1, 0);  // back to reserved
  memory_.remove(va);
  mappings_.erase(it);
}

void VirtualMemory::unmap(void *va) {
  std::lock_guard lock(mu_);
  auto it = mappings_.find(reinterpret_cast<uintptr_t>(va));
  if (it == mappings_.end())
    fail(Errc::invalid_argument, "virPtr does not start a mapping (aclrtMapMem)");
  unmap_locked(it);
}

std::shared_ptr<PhysicalMemory> VirtualMemory::physical_at(const void *va) const {
  const auto a = reinterpret_cast<uintptr_t>(va);
  std::lock_guard lock(mu_);
  auto it = mappings_.upper_bound(a);
  if (it == mappings_.begin()) return nullptr;
  --it;
  return a < it->first + it->second.size ? it->second.physical : nullptr;
}

bool VirtualMemory::mapped(const PhysicalMemory &physical) const {
  std::lock_guard lock(mu_);
  for (const auto &[a, m] : mappings_)
    if (m.physical.get() == &physical) return true;
  return false;
}

void VirtualMemory::release_all() {
  std::lock_guard lock(mu_);
  while (!mappings_.empty()) unmap_locked(mappings_.begin());
  for (const auto &[b, r] : reservations_) munmap(reinterpret_cast<void *>(r.raw), r.raw_size);
  reservations_.clear();
}

}  // namespace openacl
