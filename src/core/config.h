// Runtime settings: acl.json (its "openacl" section) and OPENACL_* environment variables,
// which win over the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/dump_config.h"

namespace openacl {

struct Config {
  std::string backend = "sim";
  uint32_t device_count = 2;
  size_t device_memory_bytes = size_t{8} << 30;
  unsigned ai_cores = 0;  // 0: the host's cores (at least 2)
  // The SoC the devices present themselves as (aclrtGetSocName, npu-smi): acl.json "soc_name",
  // OPENACL_SOC_NAME. A 910B part by default, the chip today's CANN programs are written for.
  std::string device_name = "Ascend910B3";
  std::optional<int32_t> default_device;  // acl.json "defaultDevice": {"default_device": "N"}
  std::string trace_path;                 // OPENACL_TRACE / "trace"
  std::string check_mode;                 // OPENACL_CHECK / "check": "", "1", "abort"
  std::optional<DumpConfig> dump;         // acl.json "dump": model dump from aclInit on
  std::string profiler_output;            // acl.json "profiler" {"switch": "on", "output": dir}
};

// Reads the JSON file at path (may be null: defaults) then the environment. Throws
// Errc::invalid_file when the file cannot be read, Errc::parse_file when it is not valid JSON
// or a setting has a bad value.
Config load_config(const char *path);

}  // namespace openacl
