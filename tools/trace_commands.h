// `openacl trace summary FILE` and `openacl trace plot FILE -o timeline.png`: read a timeline
// trace written under OPENACL_TRACE (Chrome trace-event JSON, see src/check/trace_recorder.h).
//
// The subcommands do their work in their CLI11 callbacks, during app.parse(): on success they
// throw CLI::Success (CLI11_PARSE then returns 0), on failure they print the reason to stderr
// and throw CLI::RuntimeError(1). A main() that uses CLI11_PARSE needs nothing else.
#pragma once

#include <CLI/CLI.hpp>

void openacl_add_trace_commands(CLI::App &app);

// Prints the per-op profile of the last `last` model executions in the trace (0: all), listing
// the `top` slowest ops (0: all). Throws std::runtime_error when the trace has none.
void openacl_print_profile(const std::string &path, size_t last, size_t top);
