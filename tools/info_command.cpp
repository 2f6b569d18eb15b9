#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "commands.h"
#include "openacl/openacl_isa.h"

namespace openacl_tool {

int info_command() {
  if (aclError e = aclInit(nullptr); e != ACL_SUCCESS) {
    std::fprintf(stderr, "openacl: aclInit failed (%d): %s\n", e, aclGetRecentErrMsg());
    return 1;
  }
  uint32_t count = 0;
  aclrtGetDeviceCount(&count);
  const char *name = aclrtGetSocName();
  std::printf("openacl   devices: %u\n", count);
  std::printf("+--------+----------------------+----------+----------------------------+\n");
  std::printf("| Device | Name                 | AI cores | Memory used / total (MiB)  |\n");
  std::printf("+--------+----------------------+----------+----------------------------+\n");
  for (uint32_t i = 0; i < count; ++i) {
    int64_t cores = 0, total_attr = 0;
    aclrtGetDeviceInfo(i, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores);
    aclrtGetDeviceInfo(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total_attr);
    size_t free = 0, total = static_cast<size_t>(total_attr);
    if (aclrtSetDevice(static_cast<int32_t>(i)) == ACL_SUCCESS) {
      aclrtGetMemInfo(ACL_HBM_MEM, &free, &total);
      aclrtResetDevice(static_cast<int32_t>(i));
    }
    std::printf("| %6u | %-20.20s | %8lld | %10zu / %-13zu |\n", i, name ? name : "?",
                static_cast<long long>(cores), (total - free) >> 20, total >> 20);
  }
  std::printf("+--------+----------------------+----------+----------------------------+\n");
  const char *kernels = nullptr, *onednn = nullptr;
  if (openaclGetIsa(&kernels, &onednn) == ACL_SUCCESS) {
    const char *cap = std::getenv("OPENACL_MAX_ISA");
    std::printf("ISA       kernels %s, oneDNN %s%s%s\n", kernels, onednn,
                cap ? ", OPENACL_MAX_ISA=" : "", cap ? cap : "");
  }
  aclFinalize();
  return 0;
}

}  // namespace openacl_tool
