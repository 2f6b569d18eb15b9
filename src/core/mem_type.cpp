#include "core/mem_type.h"

#include "core/memory.h"
#include "core/runtime.h"

namespace openacl {

MemType mem_type_of(const void *p) {
  Runtime &rt = Runtime::get();
  if (rt.virtual_memory().reserved(p)) return MemType::reserved;
  Allocation a;
  if (!rt.memory().find(p, a) || a.kind != MemoryKind::device) return MemType::other;
  return a.dvpp ? MemType::dvpp : MemType::device;
}

}  // namespace openacl
