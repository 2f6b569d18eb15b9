// Builds the diagnostics observer from the configuration (docs/RULES.md R21): the trace recorder
// (OPENACL_TRACE), the race checker (OPENACL_CHECK), or both behind one observer; and the
// observers of profiling sessions (core/profiling.h).
#include "check/diagnostics.h"

#include <memory>

#include "check/race_checker.h"
#include "check/trace_recorder.h"
#include "core/config.h"
#include "core/observer.h"

namespace openacl::check {

std::unique_ptr<TaskObserver> create_diagnostics(const Config &config) {
  std::unique_ptr<TaskObserver> checker, trace;
  // load_config accepts only "", "1" and "abort".
  if (!config.check_mode.empty()) {
    checker = std::make_unique<RaceChecker>(config.check_mode == "abort");
  }
  if (!config.trace_path.empty()) {
    trace = std::make_unique<TraceRecorder>(config.trace_path);
  }
  if (checker && trace) return chain_observers(std::move(checker), std::move(trace));
  return checker ? std::move(checker) : std::move(trace);
}

std::unique_ptr<TaskObserver> create_trace(const std::string &path) {
  return std::make_unique<TraceRecorder>(path);
}

}  // namespace openacl::check
