// Builds the diagnostics observer from the configuration (SPEC R21): the trace recorder
// (OPENACL_TRACE), the race checker (OPENACL_CHECK), or both behind one observer.
#include <memory>

#include "check/race_checker.h"
#include "check/trace_recorder.h"
#include "core/config.h"
#include "core/observer.h"

namespace openacl {
namespace {

// Hands every hook to the checker, then to the trace.
class Both final : public TaskObserver {
 public:
  Both(std::unique_ptr<TaskObserver> a, std::unique_ptr<TaskObserver> b)
      : a_(std::move(a)), b_(std::move(b)) {}

  void on_enqueue(const Stream &s, const Task &t) override {
    a_->on_enqueue(s, t);
    b_->on_enqueue(s, t);
  }
  void on_start(const Stream &s, const Task &t) override {
    a_->on_start(s, t);
    b_->on_start(s, t);
  }
  void on_complete(const Stream &s, const Task &t) override {
    a_->on_complete(s, t);
    b_->on_complete(s, t);
  }
  void on_stream_synchronized(const Stream &s, uint64_t seq) override {
    a_->on_stream_synchronized(s, seq);
    b_->on_stream_synchronized(s, seq);
  }
  void on_record_synchronized(const Signal &r) override {
    a_->on_record_synchronized(r);
    b_->on_record_synchronized(r);
  }
  void on_host_span(const char *api, int64_t begin_ns, int64_t end_ns) override {
    a_->on_host_span(api, begin_ns, end_ns);
    b_->on_host_span(api, begin_ns, end_ns);
  }
  void on_host_access(const void *p, size_t n, bool write, const char *api) override {
    a_->on_host_access(p, n, write, api);
    b_->on_host_access(p, n, write, api);
  }
  void on_free(const Allocation &al, const char *api) override {
    a_->on_free(al, api);
    b_->on_free(al, api);
  }
  void on_object(ObjectKind kind, const void *handle, bool created) override {
    a_->on_object(kind, handle, created);
    b_->on_object(kind, handle, created);
  }
  void on_default_context(const char *api) override {
    a_->on_default_context(api);
    b_->on_default_context(api);
  }
  void on_finalize_begin() override {
    a_->on_finalize_begin();
    b_->on_finalize_begin();
  }
  void on_finalize_end() override {
    a_->on_finalize_end();
    b_->on_finalize_end();
  }

 private:
  std::unique_ptr<TaskObserver> a_, b_;
};

}  // namespace

std::unique_ptr<TaskObserver> create_diagnostics(const Config &config) {
  std::unique_ptr<TaskObserver> checker, trace;
  // load_config accepts only "", "1" and "abort".
  if (!config.check_mode.empty()) {
    checker = std::make_unique<check::RaceChecker>(config.check_mode == "abort");
  }
  if (!config.trace_path.empty()) {
    trace = std::make_unique<check::TraceRecorder>(config.trace_path);
  }
  if (checker && trace) return std::make_unique<Both>(std::move(checker), std::move(trace));
  return checker ? std::move(checker) : std::move(trace);
}

}  // namespace openacl
