// openacl: run an ONNX model on the simulated NPU through the AscendCL API, list devices, or
// read a timeline trace.
#include <CLI/CLI.hpp>

#include "commands.h"
#include "trace_commands.h"

int main(int argc, char **argv) {
  CLI::App app{"openacl: AscendCL on any machine"};
  app.require_subcommand(1);

  openacl_tool::RunOptions run;
  CLI::App *r = app.add_subcommand("run", "Load an ONNX model and run it, with a latency report");
  r->add_option("model", run.model, "the .onnx file")->required()->check(CLI::ExistingFile);
  r->add_option("--device", run.device, "device id")->capture_default_str();
  r->add_option("--streams", run.streams, "streams the iterations are spread over")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  r->add_option("--iterations", run.iterations, "executions to time")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  r->add_option("--batch", run.batch, "batch size: the first dim of every input")
      ->check(CLI::PositiveNumber);
  r->add_option("--shape", run.shapes, "input shape, name=1x3x48x192 (repeatable)");
  r->add_option("--input", run.inputs,
                "input data, name=file.npy (repeatable; default: seeded random)");
  r->add_option("--output", run.output_dir, "folder for the outputs as .npy files");
  r->add_option("--trace", run.trace, "write a timeline trace (sets OPENACL_TRACE)");
  r->add_flag("--profile", run.profile,
              "per-op profile of the timed executions: time per op type and per op, host overhead "
              "between ops");
  r->add_option("--dump", run.dump_dir,
                "folder for every layer's outputs of one execution (.npy, aclmdlSetDump)");
  r->add_option("--seed", run.seed, "seed of the random inputs")->capture_default_str();

  app.add_subcommand("info", "List the devices (like npu-smi)");
  openacl_add_trace_commands(app);
  CLI11_PARSE(app, argc, argv);

  if (app.got_subcommand("run")) return openacl_tool::run_command(run);
  return openacl_tool::info_command();
}
