#include "core/profiling.h"

#include <unistd.h>

#include <filesystem>

#include "core/clock.h"
#include "core/status.h"

namespace openacl {

void Profiling::init(const std::string &dir) {
  std::lock_guard lock(mu_);
  if (initialized_)
    fail(Errc::prof_already_run, "profiling is initialized already (aclprofFinalize first)");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    fail(Errc::invalid_file, "cannot use '" + dir + "' as the profiling result directory" +
                                 (ec ? ": " + ec.message() : std::string()));
  dir_ = dir;
  initialized_ = true;
}

void Profiling::use_trace(std::unique_ptr<TaskObserver> (*create_trace)(const std::string &path)) {
  std::lock_guard lock(mu_);
  create_trace_ = create_trace;
}

void Profiling::start(const ProfilingConfig &config) {
  (void)config;  // every device and data type goes to the one timeline
  std::lock_guard lock(mu_);
  if (!initialized_)
    fail(Errc::prof_not_run, "profiling is not initialized: call aclprofInit first");
  if (recorder_)
    fail(Errc::prof_already_run, "a profiling session runs already: aclprofStop it first");
  file_ = dir_ + "/openacl_prof_" + std::to_string(getpid()) + "_" + std::to_string(++sessions_) +
          ".json";
  recorder_ = create_trace_(file_);
  previous_ = task_observer();
  chain_ = chain_observers(previous_, recorder_.get());
  set_task_observer(chain_.get());
}

std::string Profiling::stop() {
  std::lock_guard lock(mu_);
  if (!recorder_)
    fail(Errc::prof_not_run, "no profiling session runs (aclprofStart was not called)");
  end_session();
  return file_;
}

void Profiling::end_session() {
  set_task_observer(previous_);
  recorder_->flush();
  retired_.push_back(std::move(chain_));
  retired_.push_back(std::move(recorder_));
}

void Profiling::finalize() {
  std::lock_guard lock(mu_);
  if (!initialized_)
    fail(Errc::prof_not_run, "profiling is not initialized (aclprofInit was not called)");
  if (recorder_) end_session();
  initialized_ = false;
  dir_.clear();
}

bool Profiling::running() const {
  std::lock_guard lock(mu_);
  return recorder_ != nullptr;
}

void Profiling::range(const std::string &name, int64_t begin_ns, int64_t end_ns) {
  std::lock_guard lock(mu_);
  if (recorder_) recorder_->on_range(name, begin_ns, end_ns);
}

uint32_t Profiling::range_start(const std::string &name) {
  std::lock_guard lock(mu_);
  const uint32_t id = next_range_++;
  open_ranges_.emplace(id, std::make_pair(name, now_ns()));
  return id;
}

void Profiling::range_stop(uint32_t id) {
  std::lock_guard lock(mu_);
  auto it = open_ranges_.find(id);
  if (it == open_ranges_.end())
    fail(Errc::invalid_argument, "range id " + std::to_string(id) +
                                     " was not started with aclprofRangeStart, or is stopped");
  if (recorder_) recorder_->on_range(it->second.first, it->second.second, now_ns());
  open_ranges_.erase(it);
}

void Profiling::release() {
  std::lock_guard lock(mu_);
  if (recorder_) end_session();
  retired_.clear();
  initialized_ = false;
  dir_.clear();
}

}  // namespace openacl
