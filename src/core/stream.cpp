#include "core/stream.h"

#include <chrono>
#include <thread>
#include <vector>

#include "core/call_gate.h"
#include "core/clock.h"
#include "core/device.h"
#include "core/failure.h"
#include "core/model_ri.h"
#include "core/runtime.h"
#include "core/observer.h"
#include "core/signal.h"
#include "core/thread_state.h"

namespace openacl {
namespace {
// Tasks a worker runs from one stream before it lets other streams have the worker.
constexpr int kSliceTasks = 64;
// Host waits spin this long before sleeping: most short tasks finish within it.
constexpr auto kHostSpin = std::chrono::microseconds(20);
}  // namespace

Stream::Stream(std::shared_ptr<Context> context, Device &device, uint32_t priority, uint32_t flags)
    : context_(std::move(context)), device_(device), priority_(priority), flags_(flags) {}

Stream::~Stream() {
  Runtime::get().live_streams().remove(this);
  for (Task *t = head_; t != nullptr;) {
    Task *next = t->next;
    delete t;
    t = next;
  }
}

uint64_t Stream::enqueue(std::unique_ptr<Task> task) {
  if (capturing()) {
    if (auto c = capture()) {
      c->add(std::move(task), capture_lane_);
      return 0;
    }
  }
  // Task timestamps feed only the trace and the checker: without an observer they cost a
  // clock read each (three per task) for nothing. Event records take their own.
  if (task_observer() != nullptr) task->enqueue_ns = now_ns();
  ThreadState &me = this_thread();
  task->thread_id = me.os_id();
  Task *t = task.release();
  bool schedule = false;
  uint64_t seq;
  {
    std::lock_guard lock(mu_);
    seq = t->seq = ++submitted_;
    if (tail_ != nullptr) {
      tail_->next = t;
    } else {
      head_ = t;
    }
    tail_ = t;
    if (state_ == State::idle) {
      keep_alive_ = shared_from_this();
      // A stream that starts with a wait on a pending record parks right here instead of
      // taking a worker only to park there.
      Signal *gate = failure_ ? nullptr : t->wait_before();
      if (gate != nullptr && !gate->done() && gate->park(keep_alive_)) {
        state_ = State::parked;
      } else {
        state_ = State::queued;
        schedule = true;
      }
    }
    if (TaskObserver *obs = task_observer()) obs->on_enqueue(*this, *t);
  }
  me.last_task_id = static_cast<uint32_t>(seq);
  if (schedule) device_.backend().schedule(this);
  return seq;
}

void Stream::begin_capture(std::shared_ptr<ModelRI> c, uint32_t lane) {
  std::lock_guard lock(mu_);
  if (capture_) fail(Errc::stream_captured, "the stream is already being captured");
  capture_ = std::move(c);
  capture_lane_ = lane;
  capturing_.store(true, std::memory_order_release);
}

std::shared_ptr<ModelRI> Stream::end_capture() {
  std::shared_ptr<ModelRI> c;
  {
    std::lock_guard lock(mu_);
    capturing_.store(false, std::memory_order_release);
    c = std::move(capture_);
  }
  if (c) c->end_capture();
  return c;
}

std::shared_ptr<ModelRI> Stream::capture() const {
  std::lock_guard lock(mu_);
  return capture_;
}

void Stream::finish_head(std::unique_lock<std::mutex> &, Task *t) {
  head_ = t->next;
  if (head_ == nullptr) tail_ = nullptr;
  completed_.store(head_ == nullptr ? submitted_ : t->seq, std::memory_order_release);
  if (host_waiters_ > 0) cv_.notify_all();
  if (TaskObserver *obs = task_observer()) obs->on_complete(*this, *t);
}

namespace {
void check_time_limit(const Task &t, int64_t ran_ns, int64_t limit_ns) {
  if (ran_ns <= limit_ns) return;
  fail(Errc::task_timeout, std::string(task_kind_name(t.kind())) + " '" + t.label() + "' ran " +
                               std::to_string(ran_ns / 1000) + " us, past the op execute timeout of " +
                               std::to_string(limit_ns / 1000) +
                               " us (aclrtSetOpExecuteTimeOut); the simulated AI core could not stop it, so its "
                               "outputs are written");
}
}  // namespace

void Stream::run_slice() {
  ExecContext exec{device_, device_.backend().cores()};
  // Finished tasks are deleted after the lock is dropped.
  std::unique_ptr<Task> finished;
  std::unique_lock lock(mu_);
  for (int budget = kSliceTasks; budget > 0; --budget) {
    Task *t = head_;
    if (t == nullptr) {
      state_ = State::idle;
      std::shared_ptr<Stream> last = std::move(keep_alive_);
      lock.unlock();
      finished.reset();
      return;  // `last` may destroy this stream; nothing touches it afterwards
    }
    if (t->ran) {  // resumed after a blocking callback returned
      finish_head(lock, t);
      finished.reset(t);
      continue;
    }
    std::optional<Error> failure = failure_;
    Signal *gate = failure ? nullptr : t->wait_before();
    if (gate != nullptr && !gate->done() && gate->park(shared_from_this())) {
      state_ = State::parked;
      return;
    }
    head_running_ = true;
    lock.unlock();
    finished.reset();

    const bool timed = task_observer() != nullptr;
    if (timed) t->start_ns = now_ns();
    std::optional<Error> error;
    if (failure) {
      t->skip(*failure);
    } else if (gate != nullptr && gate->error()) {
      error = *gate->error();  // a failure carried by an event (R20)
    } else {
      try {
        if (timed) notify(&TaskObserver::on_start, *this, *t);
        const int64_t limit = task_time_limit();
        if (limit > 0 && (t->kind() == TaskKind::kernel || t->kind() == TaskKind::op || t->kind() == TaskKind::model)) {
          const int64_t begin = now_ns();
          t->run(exec);
          check_time_limit(*t, now_ns() - begin, limit);
        } else {
          t->run(exec);
        }
      } catch (const Error &e) {
        error = e;
      } catch (...) {  // user code (kernels, host functions) may throw anything
        error = user_code_error(task_kind_name(t->kind()));
      }
      if (error) report_failure(*this, *t, *error);
    }
    if (timed) t->end_ns = now_ns();
    t->ran = true;

    lock.lock();
    head_running_ = false;
    if (error && !failure_) failure_ = std::move(error);
    if (!failure_) {
      Signal *hold = t->wait_after();
      if (hold != nullptr && !hold->done() && hold->park(shared_from_this())) {
        state_ = State::parked;
        lock.unlock();
        return;
      }
    }
    finish_head(lock, t);
    finished.reset(t);
  }
  lock.unlock();
  device_.backend().schedule(this);  // budget used: let other streams have the worker
}

void Stream::resume() {
  {
    std::lock_guard lock(mu_);
    // drop_pending() may have unparked the stream already: its gate completing later is moot.
    if (state_ != State::parked) return;
    state_ = State::queued;
  }
  device_.backend().schedule(this);
}

bool Stream::wait_until(std::unique_lock<std::mutex> &lock, uint64_t target,
                        int32_t timeout_ms) {
  auto ready = [&] {
    return completed_.load(std::memory_order_acquire) >= target && callbacks_in_flight_ == 0;
  };
  if (ready()) return true;
  lock.unlock();
  auto spin_end = std::chrono::steady_clock::now() + kHostSpin;
  while (completed_.load(std::memory_order_acquire) < target &&
         std::chrono::steady_clock::now() < spin_end) {
    std::this_thread::yield();
  }
  lock.lock();
  ++host_waiters_;
  bool ok = true;
  QuiescentWait blocked;  // what the caller enqueued is queued already (core/call_gate.h)
  if (timeout_ms < 0) {
    cv_.wait(lock, ready);
  } else {
    ok = cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
  }
  --host_waiters_;
  return ok;
}

void Stream::synchronize(int32_t timeout_ms) {
  std::unique_lock lock(mu_);
  uint64_t target = submitted_;
  if (!wait_until(lock, target, timeout_ms)) {
    fail(Errc::stream_sync_timeout,
         "stream did not finish within " + std::to_string(timeout_ms) +
             " ms; its tasks stay queued");
  }
  notify(&TaskObserver::on_stream_synchronized, *this, target);
  if (failure_) throw *failure_;
}

bool Stream::wait_for(uint64_t seq, int32_t timeout_ms) {
  std::unique_lock lock(mu_);
  auto done = [&] { return completed_.load(std::memory_order_acquire) >= seq; };
  if (!done()) {
    ++host_waiters_;
    bool ok = true;
    QuiescentWait blocked;
    if (timeout_ms < 0) cv_.wait(lock, done);
    else ok = cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
    --host_waiters_;
    if (!ok) return false;
  }
  notify(&TaskObserver::on_stream_synchronized, *this, seq);
  return true;
}

bool Stream::idle() const {
  std::lock_guard lock(mu_);
  return completed_.load(std::memory_order_acquire) >= submitted_ && callbacks_in_flight_ == 0 &&
         state_ == State::idle;
}

uint64_t Stream::latest_pending() const {
  std::lock_guard lock(mu_);
  return completed_.load(std::memory_order_acquire) < submitted_ ? submitted_ : 0;
}

void Stream::set_failure(const Error &error) {
  std::lock_guard lock(mu_);
  if (!failure_) failure_ = error;
}

bool Stream::parked() const {
  std::lock_guard lock(mu_);
  return state_ == State::parked;
}

bool Stream::query() const {
  std::lock_guard lock(mu_);
  bool done =
      completed_.load(std::memory_order_acquire) >= submitted_ && callbacks_in_flight_ == 0;
  if (done) notify(&TaskObserver::on_stream_synchronized, *this, submitted_);
  return done;
}

std::optional<Error> Stream::failure() const {
  std::lock_guard lock(mu_);
  return failure_;
}

void Stream::drop_pending() {
  std::vector<Task *> dropped;
  std::shared_ptr<Stream> unparked;  // released after the lock
  {
    std::lock_guard lock(mu_);
    Task *keep = (head_ != nullptr && (head_running_ || head_->ran)) ? head_ : nullptr;
    Task *t = keep != nullptr ? keep->next : head_;
    for (; t != nullptr; t = t->next) dropped.push_back(t);
    if (keep != nullptr) {
      keep->next = nullptr;
      head_ = tail_ = keep;
    } else {
      head_ = tail_ = nullptr;
      completed_.store(submitted_, std::memory_order_release);
      if (host_waiters_ > 0) cv_.notify_all();
      // A wait the stream was parked on is gone with its task (a notify wait may never be
      // released): the device no longer owns the stream.
      if (state_ == State::parked) {
        state_ = State::idle;
        unparked = std::move(keep_alive_);
      }
    }
  }
  Error dropped_error(Errc::task_dropped, "task dropped by aclrtDestroyStreamForce");
  for (Task *t : dropped) {
    t->skip(dropped_error);
    delete t;
  }
}

void Stream::callback_dispatched() {
  std::lock_guard lock(mu_);
  ++callbacks_in_flight_;
}

void Stream::callback_finished() {
  std::lock_guard lock(mu_);
  --callbacks_in_flight_;
  if (host_waiters_ > 0) cv_.notify_all();
}

}  // namespace openacl
