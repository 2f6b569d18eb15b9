#include "core/stream.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <thread>
#include <vector>

#include "core/asymmetric_fence.h"
#include "core/call_gate.h"
#include "core/capped_cores.h"
#include "core/clock.h"
#include "core/device.h"
#include "core/failure.h"
#include "core/model_ri.h"
#include "core/observer.h"
#include "core/res_limits.h"
#include "core/runtime.h"
#include "core/signal.h"
#include "core/thread_state.h"

namespace openacl {
namespace {
// Tasks a worker runs from one stream before it lets other streams have the worker.
constexpr int kSliceTasks = 64;
// Host waits spin this long before sleeping: most short tasks finish within it.
constexpr auto kHostSpin = std::chrono::microseconds(20);
// A worker that runs out of tasks polls the inbox this many times (about 2 us) before the
// stream goes to rest.
constexpr int kAwaitPushPolls = 128;
// A waiting host thread follows event waits this many streams deep to the stream that records
// (a cycle of waits, which never completes, must not recurse forever).
constexpr int kHelpDepth = 4;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}
}  // namespace

Stream::Stream(std::shared_ptr<Context> context, Device &device, uint32_t priority, uint32_t flags)
    : context_(std::move(context)), device_(device), priority_(priority), flags_(flags) {}

Stream::~Stream() {
  Runtime::get().live_streams().remove(this);
  forget_subscriptions();
  take_inbox();
  for (Task *t = head_; t != nullptr;) {
    Task *next = t->next;
    delete t;
    t = next;
  }
}

uint64_t Stream::enqueue(std::unique_ptr<Task> task, bool caller_waits) {
  take_res_limit(*task, device_);
  task->overflow_check = task->overflow_check || overflow_switch();
  if (capturing()) {
    if (auto c = capture()) {
      c->add(std::move(task), capture_lane_);
      return 0;
    }
  }
  // Task timestamps feed only the trace and the checker: without an observer they cost a
  // clock read each (three per task) for nothing. Event records take their own.
  const bool observed = task_observer() != nullptr;
  if (observed) task->enqueue_ns = now_ns();
  ThreadState &me = this_thread();
  task->thread_id = me.os_id();
  Task *t = task.release();
  uint64_t seq = 0;
  if (!observed && t->runs_at_call() && (seq = run_at_call(t, me.serial)) != 0) delete t;
  // A caller that waits takes the locked path, which can leave an idle stream to it.
  if (!observed && seq == 0 && !caller_waits) seq = push_unlocked(t, me.serial);
  if (seq == 0) {
    claim_submission(me.serial);
    bool schedule;
    {
      std::lock_guard lock(mu_);
      seq = t->seq = submitted_.load(std::memory_order_relaxed) + 1;
      submitted_.store(seq, std::memory_order_release);
      schedule = append(t, caller_waits);
      t->queued(*this);
      if (TaskObserver *obs = task_observer()) obs->on_enqueue(*this, *t);
    }
    if (schedule) device_.backend().schedule(this);
  }
  me.last_task_id = static_cast<uint32_t>(seq);
  return seq;
}

uint64_t Stream::try_run_at_call(Task &task) {
  if (capturing() || task_observer() != nullptr || !task.runs_at_call()) return 0;
  task.overflow_check = task.overflow_check || overflow_switch();
  ThreadState &me = this_thread();
  task.thread_id = me.os_id();
  const uint64_t seq = run_at_call(&task, me.serial);
  if (seq != 0) me.last_task_id = static_cast<uint32_t>(seq);
  return seq;
}

bool Stream::claim_submission(uint64_t me) {
  uint64_t owner = submitter_.load(std::memory_order_acquire);
  if (owner == me) return true;
  if (owner == 0 && submitter_.compare_exchange_strong(owner, me, std::memory_order_acq_rel))
    return true;
  // A thread has fenced and waited below: every push the owner starts after that sees the
  // stream shared, and those before it have ended.
  if (owner_stopped_.load(std::memory_order_acquire)) return false;
  if (owner != kShared) submitter_.store(kShared, std::memory_order_seq_cst);
  // The owner may still be inside push_unlocked or run_at_call, which it entered before the
  // stream turned shared (whichever thread turned it): its task takes the number after
  // submitted_ and stores it only on its way out, so no other thread may number a task before
  // then, also when it found the stream shared already (two threads taking one number was
  // issue 16's hang). From then on the owner takes the locked path too. The cold side of the
  // owner's asymmetric fence: once per stream, not per submission.
  heavy_fence();
  while (pushing_.load(std::memory_order_seq_cst)) std::this_thread::yield();
  owner_stopped_.store(true, std::memory_order_release);
  return false;
}

uint64_t Stream::push_unlocked(Task *t, uint64_t me) {
  if (submitter_.load(std::memory_order_relaxed) != me && !claim_submission(me)) return 0;
  // The hot side of an asymmetric fence (core/asymmetric_fence.h) with claim_submission's
  // store of kShared and its load of pushing_: either this thread sees the stream shared or
  // that one waits for this push to end.
  hot_store(pushing_, true);
  uintptr_t top = inbox_.load(std::memory_order_relaxed);
  if (submitter_.load(std::memory_order_seq_cst) != me || top == kAtRest) {
    pushing_.store(false, std::memory_order_release);
    return 0;
  }
  const uint64_t seq = submitted_.load(std::memory_order_relaxed) + 1;
  t->seq = seq;
  t->queued(*this);
  submitted_.store(seq, std::memory_order_release);
  bool schedule = false;
  for (;;) {
    t->next = reinterpret_cast<Task *>(top);
    if (inbox_.compare_exchange_weak(top, reinterpret_cast<uintptr_t>(t), std::memory_order_release,
                                     std::memory_order_relaxed)) {
      break;
    }
    if (top == kAtRest) {  // the runner let go of the stream meanwhile: it must be scheduled
      std::lock_guard lock(mu_);
      schedule = append(t, false);
      break;
    }
  }
  pushing_.store(false, std::memory_order_release);
  if (schedule) device_.backend().schedule(this);
  return seq;
}

uint64_t Stream::run_at_call(Task *t, uint64_t me) {
  if (submitter_.load(std::memory_order_relaxed) != me && !claim_submission(me)) return 0;
  // As in push_unlocked; while pushing_ is set no other thread can queue a task either.
  hot_store(pushing_, true);
  // Acquire: the last runner stored completed_ and any failure before it put the stream to rest.
  if (submitter_.load(std::memory_order_seq_cst) != me ||
      inbox_.load(std::memory_order_acquire) != kAtRest ||
      failed_.load(std::memory_order_acquire)) {
    pushing_.store(false, std::memory_order_release);
    return 0;
  }
  const uint64_t seq = submitted_.load(std::memory_order_relaxed) + 1;
  t->seq = seq;
  ExecContext exec{device_, device_.backend().cores()};
  std::optional<Error> error;
  try {
    run_task(*t, exec);
  } catch (const Error &e) {
    error = e;
  } catch (...) {
    error = user_code_error(task_kind_name(t->kind()));
  }
  t->ran = true;
  // The report runs the program's exception callbacks, which may call the API and end the
  // submitting call's borrowed reference to this stream (api::stream_ref_for_submit).
  std::shared_ptr<Stream> self;
  if (error) {
    self = shared_from_this();
    report_failure(*this, *t, *error);
    std::lock_guard lock(mu_);
    if (!failure_) failure_ = std::move(error);
    failed_.store(true, std::memory_order_release);
  }
  // Completed before submitted: whoever sees the task submitted sees it complete, and no
  // waiter sleeps on it.
  completed_.store(seq, std::memory_order_release);
  submitted_.store(seq, std::memory_order_release);
  pushing_.store(false, std::memory_order_release);
  return seq;
}

bool Stream::append(Task *t, bool caller_waits) {
  take_inbox();
  t->next = nullptr;
  if (tail_ != nullptr) {
    tail_->next = t;
  } else {
    head_ = t;
  }
  tail_ = t;
  if (state_ != State::idle) return false;
  inbox_.store(0, std::memory_order_release);
  keep_alive_ = shared_from_this();
  // A stream that starts with a wait on a pending record parks right here instead of
  // taking a worker only to park there.
  Signal *gate = failure_ ? nullptr : t->wait_before();
  if (gate != nullptr && !gate->done() && gate->park(keep_alive_)) {
    state_ = State::parked;
    gate_ = gate;
    return false;
  }
  state_ = State::queued;
  // Left to the caller only when it can run the task (host functions and callbacks run on
  // workers).
  in_pool_ = !caller_waits || head_needs_worker();
  return in_pool_;
}

void Stream::take_inbox() {
  // At rest stays at rest here: only a holder of mu_ changes that, and the caller holds it.
  if (inbox_.load(std::memory_order_relaxed) == kAtRest) return;
  auto *t = reinterpret_cast<Task *>(inbox_.exchange(0, std::memory_order_acquire));
  Task *oldest = nullptr, *newest = t;
  while (t != nullptr) {  // pushed newest first
    Task *older = t->next;
    t->next = oldest;
    oldest = t;
    t = older;
  }
  if (oldest == nullptr) return;
  if (tail_ != nullptr) {
    tail_->next = oldest;
  } else {
    head_ = oldest;
  }
  tail_ = newest;
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
  completed_.store(std::max(t->seq, dropped_), std::memory_order_release);
  if (host_waiters_ > 0) cv_.notify_all();
  if (TaskObserver *obs = task_observer()) obs->on_complete(*this, *t);
}

namespace {
void check_time_limit(const Task &t, int64_t ran_ns, int64_t limit_ns) {
  if (ran_ns <= limit_ns) return;
  fail(Errc::task_timeout,
       std::string(task_kind_name(t.kind())) + " '" + t.label() + "' ran " +
           std::to_string(ran_ns / 1000) + " us, past the op execute timeout of " +
           std::to_string(limit_ns / 1000) +
           " us (aclrtSetOpExecuteTimeOut); the simulated AI core could not stop it, so its "
           "outputs are written");
}
}  // namespace

bool Stream::head_needs_worker() const {
  return head_ != nullptr && !head_->ran &&
         (head_->kind() == TaskKind::host_func || head_->kind() == TaskKind::callback);
}

Stream::Stop Stream::run_tasks(std::unique_lock<std::mutex> &lock, Runner who, int budget,
                               uint64_t until, FinishedTasks &finished) {
  ExecContext exec{device_, device_.backend().cores()};
  bool awaited = false;
  for (; budget > 0; --budget) {
    Task *t = head_;
    while (t == nullptr) {
      take_inbox();
      t = head_;
      if (t != nullptr) break;
      if (who == Runner::worker && !awaited) {
        // A host thread that feeds the stream task by task is usually a moment behind: waiting
        // for its next push here is far cheaper for both than the stream going to rest, and
        // the submitter then taking the lock and a worker being woken to restart it.
        awaited = true;
        lock.unlock();
        for (int i = 0; i < kAwaitPushPolls && inbox_.load(std::memory_order_relaxed) == 0; ++i)
          cpu_relax();
        lock.lock();
        t = head_;
        continue;
      }
      uintptr_t none = 0;
      if (inbox_.compare_exchange_strong(none, kAtRest, std::memory_order_acq_rel))
        return Stop::empty;
    }
    if (completed_.load(std::memory_order_relaxed) >= until) return Stop::reached;
    if (t->ran) {  // resumed after a blocking callback returned
      finish_head(lock, t);
      finished.add(t);
      continue;
    }
    if (who == Runner::host && head_needs_worker()) return Stop::needs_worker;
    std::optional<Error> failure = failure_;
    Signal *gate = failure ? nullptr : t->wait_before();
    if (gate != nullptr && !gate->done() && gate->park(shared_from_this())) {
      state_ = State::parked;
      gate_ = gate;
      return Stop::parked;
    }
    head_running_ = true;
    lock.unlock();
    if (finished.full()) finished.clear();

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
        if (limit > 0 && (t->kind() == TaskKind::kernel || t->kind() == TaskKind::op ||
                          t->kind() == TaskKind::model)) {
          const int64_t begin = now_ns();
          run_task(*t, exec);
          check_time_limit(*t, now_ns() - begin, limit);
        } else {
          run_task(*t, exec);
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
    if (error && !failure_) {
      failure_ = std::move(error);
      failed_.store(true, std::memory_order_release);
    }
    if (!failure_) {
      Signal *hold = t->wait_after();
      if (hold != nullptr && !hold->done() && hold->park(shared_from_this())) {
        state_ = State::parked;
        gate_ = nullptr;  // the report thread completes it: nothing a waiter could run
        return Stop::parked;
      }
    }
    finish_head(lock, t);
    finished.add(t);
  }
  return Stop::budget;
}

std::shared_ptr<Stream> Stream::end_run(Stop stop) {
  runner_ = Runner::none;
  if (stop == Stop::empty) {
    state_ = State::idle;
    return std::move(keep_alive_);
  }
  if (stop != Stop::parked) hand_off();  // still ready: to a waiting host thread or a worker
  return nullptr;
}

void Stream::hand_off() {
  if (!runnable() || in_pool_) return;
  if (helpers_ > 0 && !head_needs_worker()) {
    cv_.notify_all();
    return;
  }
  in_pool_ = true;
  device_.backend().schedule(this);
}

void Stream::run_slice() {
  std::shared_ptr<Stream> last;  // may destroy this stream: released last, after the lock
  FinishedTasks finished;
  std::unique_lock lock(mu_);
  in_pool_ = false;
  runner_ = Runner::worker;
  last = end_run(run_tasks(lock, Runner::worker, kSliceTasks, UINT64_MAX, finished));
  lock.unlock();
}

void Stream::resume() {
  std::lock_guard lock(mu_);
  // drop_pending() may have unparked the stream already: its gate completing later is moot.
  if (state_ != State::parked) return;
  state_ = State::queued;
  gate_ = nullptr;
  hand_off();
}

bool Stream::help(std::unique_lock<std::mutex> &lock, uint64_t until, int depth) {
  if (host_may_run()) {
    if (completed_.load(std::memory_order_relaxed) >= until) return false;
    if (in_pool_) {
      if (!device_.backend().unschedule(this)) return false;  // a worker has just taken it
      in_pool_ = false;
    }
    runner_ = Runner::host;
    backend::AiCores &cores = device_.backend().cores();
    cores.host_enter();
    FinishedTasks finished;
    std::shared_ptr<Stream> last = end_run(run_tasks(lock, Runner::host, INT_MAX, until, finished));
    cores.host_leave();
    lock.unlock();
    finished.clear();
    last.reset();  // the caller holds the stream too: this never destroys it
    lock.lock();
    return true;
  }
  if (state_ != State::parked || gate_ == nullptr || depth >= kHelpDepth) return false;
  auto [producer, seq] = gate_->producer();
  if (producer == nullptr || producer.get() == this) return false;
  lock.unlock();
  const bool ran = producer->help_until(seq, depth + 1);
  lock.lock();
  return ran;
}

bool Stream::help_until(uint64_t seq, int depth) {
  std::unique_lock lock(mu_);
  bool ran = false;
  while (completed_.load(std::memory_order_acquire) < seq && help(lock, seq, depth)) ran = true;
  return ran;
}

bool Stream::wait_until(std::unique_lock<std::mutex> &lock, uint64_t target, bool callbacks,
                        int32_t timeout_ms) {
  auto ready = [&] {
    return completed_.load(std::memory_order_acquire) >= target &&
           (!callbacks || callbacks_in_flight_ == 0);
  };
  if (ready()) return true;
  QuiescentWait blocked;  // what the caller enqueued is queued already (core/call_gate.h)
  // A timed wait only sleeps: a task it ran itself could outlast the timeout.
  const bool helps = timeout_ms < 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
  bool spun = false, ok = true;
  while (ok && !ready()) {
    // Only callbacks left to wait for: nothing of the stream to run, and what was left for
    // this thread goes on without it.
    const bool helping = helps && completed_.load(std::memory_order_relaxed) < target;
    if (!helping) {
      hand_off();
    } else if (help(lock, target, 0)) {
      continue;
    }
    if (!spun) {
      // A spinning helper counts as one: what becomes ready while it spins (the stream a
      // record it waits for resumes) is left to it, not to a worker it would cost a wake-up.
      spun = true;
      if (helping) ++helpers_;
      const uint32_t seen = cv_.sequence();
      lock.unlock();
      auto spin_end = std::chrono::steady_clock::now() + kHostSpin;
      while (completed_.load(std::memory_order_acquire) < target && cv_.sequence() == seen &&
             std::chrono::steady_clock::now() < spin_end) {
        std::this_thread::yield();
      }
      lock.lock();
      if (helping) --helpers_;
      continue;
    }
    ++host_waiters_;
    if (helping) ++helpers_;
    auto wake = [&] { return ready() || (helping && host_may_run() && !in_pool_); };
    if (timeout_ms < 0) {
      cv_.wait(lock, wake);
    } else {
      ok = cv_.wait_until(lock, deadline, wake);
    }
    --host_waiters_;
    if (helping) --helpers_;
  }
  hand_off();
  return ok;
}

void Stream::synchronize(int32_t timeout_ms) {
  std::unique_lock lock(mu_);
  uint64_t target = submitted_.load(std::memory_order_acquire);
  if (!wait_until(lock, target, true, timeout_ms)) {
    fail(Errc::stream_sync_timeout, "stream did not finish within " + std::to_string(timeout_ms) +
                                        " ms; its tasks stay queued");
  }
  notify(&TaskObserver::on_stream_synchronized, *this, target);
  if (failure_) throw *failure_;
}

bool Stream::wait_for(uint64_t seq, int32_t timeout_ms) {
  std::unique_lock lock(mu_);
  if (!wait_until(lock, seq, false, timeout_ms)) return false;
  notify(&TaskObserver::on_stream_synchronized, *this, seq);
  return true;
}

bool Stream::idle() const {
  std::lock_guard lock(mu_);
  return completed_.load(std::memory_order_acquire) >= submitted_.load(std::memory_order_acquire) &&
         callbacks_in_flight_ == 0 && state_ == State::idle;
}

uint64_t Stream::latest_pending() const {
  std::lock_guard lock(mu_);
  const uint64_t submitted = submitted_.load(std::memory_order_acquire);
  return completed_.load(std::memory_order_acquire) < submitted ? submitted : 0;
}

void Stream::set_failure(const Error &error) {
  std::lock_guard lock(mu_);
  if (!failure_) {
    failure_ = error;
    failed_.store(true, std::memory_order_release);
  }
}

bool Stream::parked() const {
  std::lock_guard lock(mu_);
  return state_ == State::parked;
}

bool Stream::query() const {
  std::lock_guard lock(mu_);
  const uint64_t submitted = submitted_.load(std::memory_order_acquire);
  bool done = completed_.load(std::memory_order_acquire) >= submitted && callbacks_in_flight_ == 0;
  if (done) notify(&TaskObserver::on_stream_synchronized, *this, submitted);
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
    take_inbox();
    Task *keep = (head_ != nullptr && (head_running_ || head_->ran)) ? head_ : nullptr;
    Task *t = keep != nullptr ? keep->next : head_;
    for (; t != nullptr; t = t->next) dropped.push_back(t);
    if (!dropped.empty()) dropped_ = dropped.back()->seq;
    if (keep != nullptr) {
      keep->next = nullptr;
      head_ = tail_ = keep;
    } else {
      head_ = tail_ = nullptr;
      if (!dropped.empty()) completed_.store(dropped_, std::memory_order_release);
      if (host_waiters_ > 0) cv_.notify_all();
      // A wait the stream was parked on is gone with its task (a notify wait may never be
      // released): the device no longer owns the stream, unless tasks came in meanwhile.
      if (state_ == State::parked) {
        gate_ = nullptr;
        uintptr_t none = 0;
        if (inbox_.compare_exchange_strong(none, kAtRest, std::memory_order_acq_rel)) {
          state_ = State::idle;
          unparked = std::move(keep_alive_);
        } else {
          state_ = State::queued;
          hand_off();
        }
      }
    }
  }
  Error dropped_error(Errc::task_dropped, "task dropped by aclrtDestroyStreamForce");
  for (Task *t : dropped) {
    t->skip(dropped_error);
    delete t;
  }
}

void Stream::forget_subscriptions() {
  Runtime &rt = Runtime::get();
  rt.reports().forget(this);
  rt.host_funcs().forget(this);
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
