#include "core/observer.h"

#include <atomic>

#include "core/clock.h"

namespace openacl {

namespace detail {
std::atomic<TaskObserver *> installed_observer{nullptr};
}  // namespace detail

namespace {

// Hands every hook to a (when not null), then to b; owns what it is given to own.
class Both final : public TaskObserver {
 public:
  Both(std::unique_ptr<TaskObserver> a, std::unique_ptr<TaskObserver> b)
      : a_(a.get()), b_(b.get()), own_a_(std::move(a)), own_b_(std::move(b)) {}
  Both(TaskObserver *a, TaskObserver *b) : a_(a), b_(b) {}

  void on_enqueue(const Stream &s, const Task &t) override {
    each(&TaskObserver::on_enqueue, s, t);
  }
  void on_start(const Stream &s, const Task &t) override { each(&TaskObserver::on_start, s, t); }
  void on_complete(const Stream &s, const Task &t) override {
    each(&TaskObserver::on_complete, s, t);
  }
  void on_stream_synchronized(const Stream &s, uint64_t seq) override {
    each(&TaskObserver::on_stream_synchronized, s, seq);
  }
  void on_record_synchronized(const Signal &r) override {
    each(&TaskObserver::on_record_synchronized, r);
  }
  void on_host_span(const char *api, int64_t begin_ns, int64_t end_ns) override {
    each(&TaskObserver::on_host_span, api, begin_ns, end_ns);
  }
  void on_host_access(const void *p, size_t n, bool write, const char *api) override {
    each(&TaskObserver::on_host_access, p, n, write, api);
  }
  void on_free(const Allocation &al, const char *api) override {
    each(&TaskObserver::on_free, al, api);
  }
  void on_object(ObjectKind kind, const void *handle, bool created) override {
    each(&TaskObserver::on_object, kind, handle, created);
  }
  void on_default_context(const char *api) override {
    each(&TaskObserver::on_default_context, api);
  }
  void on_finalize_begin() override { each(&TaskObserver::on_finalize_begin); }
  void on_finalize_end() override { each(&TaskObserver::on_finalize_end); }
  void on_range(const std::string &name, int64_t begin_ns, int64_t end_ns) override {
    each(&TaskObserver::on_range, name, begin_ns, end_ns);
  }
  void on_ops(std::span<const OpSpan> ops) override { each(&TaskObserver::on_ops, ops); }
  void flush() override { each(&TaskObserver::flush); }
  void on_exit_without_finalize() override { each(&TaskObserver::on_exit_without_finalize); }

 private:
  template <class F, class... Args>
  void each(F TaskObserver::*hook, const Args &...args) {
    if (a_ != nullptr) (a_->*hook)(args...);
    (b_->*hook)(args...);
  }

  TaskObserver *a_, *b_;
  std::unique_ptr<TaskObserver> own_a_, own_b_;
};

}  // namespace

void set_task_observer(TaskObserver *observer) {
  detail::installed_observer.store(observer, std::memory_order_release);
}

void HostSpan::begin() { begin_ns_ = now_ns(); }

void HostSpan::end() {
  if (TaskObserver *o = task_observer()) o->on_host_span(api_, begin_ns_, now_ns());
}

std::unique_ptr<TaskObserver> chain_observers(TaskObserver *first, TaskObserver *second) {
  return std::make_unique<Both>(first, second);
}

std::unique_ptr<TaskObserver> chain_observers(std::unique_ptr<TaskObserver> first,
                                              std::unique_ptr<TaskObserver> second) {
  return std::make_unique<Both>(std::move(first), std::move(second));
}

}  // namespace openacl
