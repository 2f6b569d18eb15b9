// npu-smi: the `npu-smi info` table of CANN's driver tool for the simulated devices, through
// the public API only. Build scripts read the chip from it (ggml's CMake takes the third field
// of line 7: the Name column of device 0, "910B3"), so the lines and columns are CANN's. The
// devices have no sensors and this process runs nothing on them: power, temperature, AI-core
// use and used memory read 0; the SoC name and the memory sizes are the runtime's own
// (OPENACL_SOC_NAME, OPENACL_DEVICE_COUNT, OPENACL_DEVICE_MEMORY_MB).
#include <cstdio>
#include <cstring>
#include <string>

#include "acl/acl.h"

namespace {

const char kRule[] =
    "+---------------------------+---------------+-------------------------------------------------"
    "---+";
const char kDoubleRule[] =
    "+===========================+===============+================================================="
    "===+";

// "Ascend910B3" -> "910B3", as npu-smi names the chip.
std::string chip_name(const char *soc) {
  std::string s = soc != nullptr ? soc : "";
  return s.rfind("Ascend", 0) == 0 ? s.substr(6) : s;
}

int info() {
  if (aclError e = aclInit(nullptr); e != ACL_SUCCESS) {
    std::fprintf(stderr, "npu-smi: aclInit failed (%d): %s\n", e, aclGetRecentErrMsg());
    return 1;
  }
  uint32_t count = 0;
  aclrtGetDeviceCount(&count);
  const std::string name = chip_name(aclrtGetSocName());

  std::printf(
      "+-------------------------------------------------------------------------------------------"
      "-----+\n");
  std::printf("| %-33s%-62s|\n", "npu-smi " OPENACL_VERSION, "Version: " OPENACL_VERSION);
  std::printf("%s\n", kRule);
  std::printf(
      "| NPU   Name                | Health        | Power(W)    Temp(C)           "
      "Hugepages-Usage(page)|\n");
  std::printf(
      "| Chip                      | Bus-Id        | AICore(%%)   Memory-Usage(MB)  HBM-Usage(MB)  "
      "      |\n");
  std::printf("%s\n", kDoubleRule);
  for (uint32_t i = 0; i < count; ++i) {
    int64_t total = 0;
    aclrtGetDeviceInfo(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total);
    char bus[16];
    std::snprintf(bus, sizeof bus, "0000:%02X:00.0", (i + 1) & 0xff);
    std::printf("| %-6u%-20.20s| %-14s| %-12s%-18s%-5s/ %-14s|\n", i, name.c_str(), "OK", "0.0",
                "0", "0", "0");
    std::printf("| %-26s| %-14s| %-12s%-5s/ %-11s%-5s/ %-14lld|\n", "0", bus, "0", "0", "0", "0",
                static_cast<long long>(total >> 20));
    std::printf("%s\n", kDoubleRule);
  }
  std::printf("%s\n", kRule);
  std::printf(
      "| NPU     Chip              | Process id    | Process name             | Process memory(MB) "
      "     |\n");
  std::printf("%s\n", kDoubleRule);
  for (uint32_t i = 0; i < count; ++i) {
    std::printf("| %-95s|\n", ("No running processes found in NPU " + std::to_string(i)).c_str());
    std::printf("%s\n", kDoubleRule);
  }
  aclFinalize();
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "info") == 0) return info();
  std::fprintf(
      stderr,
      "usage: npu-smi info\n"
      "openacl's npu-smi prints the device table of `npu-smi info` for the simulated devices;\n"
      "the other npu-smi commands (board, firmware and driver management) have no meaning here.\n");
  return 1;
}
