// Profiling sessions (acl_prof.h): aclprofInit names a directory; between aclprofStart and
// aclprofStop a trace recorder runs after the diagnostics observer, and at the stop its
// Chrome trace JSON goes to <dir>/openacl_prof_<pid>_<n>.json. User ranges (aclprofPush/Pop,
// RangeStart/Stop, Mark, steps) land on the host timeline while a session runs.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/observer.h"

namespace openacl {

struct ProfilingConfig {
  std::vector<uint32_t> devices;
  int64_t aicore_metrics = 0;
  uint64_t data_types = 0;
};

class Profiling {
 public:
  // How sessions record (core/runtime_parts.h); set by each aclInit.
  void use_trace(std::unique_ptr<TaskObserver> (*create_trace)(const std::string &path));
  // Errc::prof_already_run when initialized already; creates the directory when missing.
  void init(const std::string &dir);
  // Stops a running session (writing it) and forgets the directory. Errc::prof_not_run when
  // not initialized.
  void finalize();
  // Errc::prof_not_run without init, Errc::prof_already_run while a session runs.
  void start(const ProfilingConfig &config);
  // Writes the session; returns the file. Errc::prof_not_run when none runs.
  std::string stop();
  bool running() const;
  // Ranges only count while a session runs; names are the program's text.
  void range(const std::string &name, int64_t begin_ns, int64_t end_ns);
  uint32_t range_start(const std::string &name);
  void range_stop(uint32_t id);  // Errc::invalid_argument for an unknown id
  // aclFinalize: ends a running session (writing it) and releases every recorder, once no task
  // can call into them any more.
  void release();

 private:
  void end_session();  // under mu_, with a session running

  mutable std::mutex mu_;
  bool initialized_ = false;
  std::string dir_;
  std::string file_;  // of the running or last session
  uint32_t sessions_ = 0;
  std::unique_ptr<TaskObserver> (*create_trace_)(const std::string &path) = nullptr;
  TaskObserver *previous_ = nullptr;  // the observer installed before the session
  std::unique_ptr<TaskObserver> recorder_, chain_;
  // Observers of ended sessions: a hook already running in them may still be returning.
  std::vector<std::unique_ptr<TaskObserver>> retired_;
  std::unordered_map<uint32_t, std::pair<std::string, int64_t>> open_ranges_;
  uint32_t next_range_ = 1;
};

}  // namespace openacl
