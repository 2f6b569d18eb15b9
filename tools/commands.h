// The subcommands of `openacl`. Each returns the process exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace openacl_tool {

struct RunOptions {
  std::string model;
  int32_t device = 0;
  int streams = 1;
  int iterations = 10;
  int batch = 0;                    // 0: keep the shapes as given
  std::vector<std::string> shapes;  // name=1x3x48x192
  std::vector<std::string> inputs;  // name=file.npy
  std::string output_dir;
  std::string trace;
  bool profile = false;  // print the per-op profile of the timed executions (from the trace)
  std::string dump_dir;  // every layer's output tensors of one execution, as .npy (model dump)
  uint32_t seed = 0;
};

int run_command(const RunOptions &options);
int info_command();

}  // namespace openacl_tool
