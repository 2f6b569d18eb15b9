// A Stream: an in-order queue of tasks on one device, owned by one context. Tasks of a stream
// run strictly FIFO on the device's workers; different streams run concurrently. A stream
// waiting for an event parks without holding a worker.
//
// The waiter helps: a host thread that blocks without a time limit until tasks of the stream
// complete (synchronize, wait_for, help_until) and finds the stream ready but not running takes
// it off the device's queue and runs its tasks itself, as a worker would, instead of sleeping
// until a worker is scheduled and then wakes it; a waiter whose stream is parked on an event
// record runs the recording stream up to that record. Host functions and callbacks are left to
// the workers (and report threads), where programs expect them. One runner at a time (a worker
// or a host thread) keeps the FIFO; while a host thread runs the stream it counts as the
// stream's holder, so idle() stays false and neither aclFinalize nor freed memory can release
// under it. Work a waiting host thread can take (a stream resumed, or left by its runner, while
// one sleeps on it) goes to that thread, not to a worker.
//
// Submission: while one host thread alone feeds a stream (the common case), it queues without
// the stream's lock: it pushes the task onto a lock-free inbox that the stream's runner takes
// whole, in one exchange, when its own list runs out (a batch hand-over). The first thread to
// enqueue owns the inbox; when a second one enqueues, the stream turns shared for good and
// every enqueue takes the lock, which keeps the sequence numbers in FIFO order. An observer
// (trace, race checker), a capture, or a stream at rest (it must be scheduled) also take the
// locked path. A small copy or memset (Task::runs_at_call) that its owner submits to a stream
// at rest, without an observer, runs during the call on the calling thread instead: nothing is
// queued or running before it, so FIFO holds, and the stream stays at rest.
//
// Thread safety: every member function may be called from any thread. Ownership: the stream
// keeps its context object alive (not its handle: a destroyed context stays destroyed), and
// the device keeps the stream alive while it has tasks, so a task enqueued by a call that
// raced the stream's destruction still runs, on a live object (docs/lifetimes.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include "core/cond_var.h"

#include "backend/backend.h"
#include "core/handle.h"
#include "core/res_limits.h"
#include "core/status.h"
#include "core/task.h"

namespace openacl {

class Context;
class Device;
class ModelRI;
class Signal;

class Stream final : public backend::Runnable,
                     public Handled,
                     public std::enable_shared_from_this<Stream> {
 public:
  Stream(std::shared_ptr<Context> context, Device &device, uint32_t priority, uint32_t flags);
  ~Stream();

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  uint32_t priority() const { return priority_.load(std::memory_order_relaxed); }
  void set_priority(uint32_t p) { priority_.store(p, std::memory_order_relaxed); }
  uint32_t flags() const { return flags_; }
  // ACL_STREAM_ATTR_USER_CUSTOM_TAG: a value the program attaches to the stream.
  uint32_t user_tag() const { return user_tag_.load(std::memory_order_relaxed); }
  void set_user_tag(uint32_t tag) { user_tag_.store(tag, std::memory_order_relaxed); }
  // aclrtSetStreamResLimit: limits for the threads that use them (core/res_limits.h).
  ResLimits &res_limits() { return res_limits_; }
  // aclrtSetStreamOverflowSwitch: the tasks queued while it is on report float overflow
  // (Task::overflow_check, Runtime::note_overflow).
  bool overflow_switch() const { return overflow_switch_.load(std::memory_order_relaxed); }
  void set_overflow_switch(bool on) { overflow_switch_.store(on, std::memory_order_relaxed); }

  // Queues a task and returns at once (R10). Returns the task's sequence number, or 0 when
  // the stream is being captured and the task went to the capture instead. caller_waits: the
  // caller calls wait_for(seq) with no time limit right after, so on an idle stream the task
  // is left for it to run (as hand_off() leaves a stream to a waiting host thread) instead of
  // waking a worker that would race it for the stream: a synchronous model execution lost
  // about 20 us to that hand-off.
  uint64_t enqueue(std::unique_ptr<Task> task, bool caller_waits = false);
  // The run-at-call part of enqueue for a task the caller keeps (on its stack: a small copy or
  // memset need not be allocated to run during the call). Returns its seq when it ran, or 0
  // when it must be enqueued instead (the stream is not at rest, captured or observed); the
  // task is then untouched. Never runs a task while an observer is installed, so the task need
  // not record its memory ranges (AtCall, core/tasks.h).
  uint64_t try_run_at_call(Task &task);
  // A second thread has enqueued: every submission takes the lock from now on.
  bool shared() const { return submitter_.load(std::memory_order_acquire) == kShared; }

  // Stream capture (aclmdlRICaptureBegin/End): while a capture is set, enqueue() hands every
  // task to it, on this stream's lane of it. begin_capture throws Errc::stream_captured when
  // one is already set.
  void begin_capture(std::shared_ptr<ModelRI> capture, uint32_t lane);
  uint32_t capture_lane() const { return capture_lane_; }
  // Ends the capture and returns it (nullptr when there was none). A stream released with
  // its context or at aclFinalize ends its capture too.
  std::shared_ptr<ModelRI> end_capture();
  std::shared_ptr<ModelRI> capture() const;
  bool capturing() const { return capturing_.load(std::memory_order_acquire); }
  // Waits for every task enqueued before the call (R11) and for callbacks it dispatched;
  // then throws the stream's failure if it has one (R20). timeout_ms < 0 waits forever; on
  // timeout throws Errc::stream_sync_timeout and leaves the queue intact.
  void synchronize(int32_t timeout_ms = -1);
  // Waits until the task with sequence number seq has completed (no failure check); false
  // when timeout_ms (>= 0) passed first.
  bool wait_for(uint64_t seq, int32_t timeout_ms = -1);
  // A host thread waits for task seq of this stream (an event record): runs the stream up to it
  // when it is ready and no worker has started it; never sleeps. True when it ran something.
  bool help_until(uint64_t seq, int depth = 0);
  // True when every enqueued task and dispatched callback has finished and no worker holds or
  // has queued the stream (a worker may still run it for a moment after its last task).
  bool idle() const;
  // The sequence number of the latest task when some task has not completed, else 0.
  uint64_t latest_pending() const;
  // Tasks up to this sequence number have completed (or were dropped).
  uint64_t completed() const { return completed_.load(std::memory_order_acquire); }
  // Fails the stream from outside a task (a callback that threw, R20); the first failure stays.
  void set_failure(const Error &error);
  // Waiting at a signal (an event, notify or value wait, a blocking callback) with no worker.
  bool parked() const;
  // aclrtStreamQuery: idle(), and when it is, the host has now seen every task complete.
  bool query() const;
  std::optional<Error> failure() const;

  // Drops the tasks that have not started (aclrtDestroyStreamForce). Event records among them
  // complete with Errc::task_dropped so that nobody waits for them forever.
  void drop_pending();

  // Destroyed (aclrtDestroyStream, or the object freed): the threads subscribed to it with
  // aclrtSubscribeReport / aclrtSubscribeHostFunc no longer serve it.
  void forget_subscriptions();

  // A non-blocking callback was handed to its thread / has returned there.
  void callback_dispatched();
  void callback_finished();

  // backend::Runnable: runs a bounded number of tasks on a device worker.
  void run_slice() override;
  // A signal this stream parked on has completed.
  void resume();

 private:
  // queued: ready to run, on the device's queue (in_pool_), running, or left for a waiting
  // host thread (helpers_ > 0).
  enum class State { idle, queued, parked };
  enum class Runner : uint8_t { none, worker, host };
  enum class Stop { empty, parked, budget, reached, needs_worker };
  // Finished tasks, deleted a few at a time outside the lock: what they release (a kernel's
  // function, an event's signal) is often shared with the submitting thread, and releasing a
  // run of them at once moves those counts between the two cores once per run, not per task.
  class FinishedTasks {
   public:
    ~FinishedTasks() { clear(); }
    void add(Task *t) { tasks_[size_++] = t; }
    // Leaves room for one more: a task resumed after a blocking callback is added before
    // run_tasks next looks at full().
    bool full() const { return size_ >= kSize; }
    void clear() {
      for (int i = 0; i < size_; ++i) delete tasks_[i];
      size_ = 0;
    }

   private:
    static constexpr int kSize = 16;
    Task *tasks_[kSize + 1];
    int size_ = 0;
  };
  // The inbox word: the newest task pushed without the lock (linked to older ones through
  // Task::next), or kAtRest: the stream is idle, and the next task must take the lock to
  // schedule it. Only a holder of mu_ sets or clears kAtRest.
  static constexpr uintptr_t kAtRest = 1;
  // submitter_ once two threads have enqueued.
  static constexpr uint64_t kShared = UINT64_MAX;
  // The owner pushes onto the inbox and returns the task's seq; 0 when it must take the
  // locked path instead (the task is then untouched).
  uint64_t push_unlocked(Task *t, uint64_t me);
  // The owner runs a Task::runs_at_call task on the stream at rest and returns its seq (the
  // task is the caller's to delete); 0 when the stream is not at rest (the task is then
  // untouched).
  uint64_t run_at_call(Task *t, uint64_t me);
  // Makes the calling thread's serial `me` the only one that may push without the lock, or
  // the stream shared; false when it is shared, once no push of the owner is in progress.
  bool claim_submission(uint64_t me);
  // Appends a task whose seq is set, under mu_; true when the stream must be scheduled (not
  // when caller_waits and the caller can run it, see enqueue).
  bool append(Task *t, bool caller_waits);
  // Moves the inbox's tasks onto the list, oldest first (under mu_).
  void take_inbox();
  void finish_head(std::unique_lock<std::mutex> &lock, Task *t);
  // Runs tasks until the queue is empty, the stream parks, `budget` tasks ran or task `until`
  // has completed; a host runner also stops before a task a worker must run. Finished tasks
  // are left in `finished`, to delete after the lock.
  Stop run_tasks(std::unique_lock<std::mutex> &lock, Runner who, int budget, uint64_t until,
                 FinishedTasks &finished);
  // Host functions and callbacks run user code that expects a runtime thread (or dispatch it
  // to one): never on a host thread that waits.
  bool head_needs_worker() const;
  // The runner lets go of the stream; returns what must be released after the lock.
  std::shared_ptr<Stream> end_run(Stop stop);
  // A ready stream nobody runs goes to a waiting host thread if one sleeps on it, else to the
  // device's queue.
  void hand_off();
  bool runnable() const { return state_ == State::queued && runner_ == Runner::none; }
  bool host_may_run() const { return runnable() && !head_needs_worker(); }
  // The calling host thread, waiting for task `until`, runs this stream (or the stream whose
  // record it is parked on) when it can. True when it ran something.
  bool help(std::unique_lock<std::mutex> &lock, uint64_t until, int depth);
  bool wait_until(std::unique_lock<std::mutex> &lock, uint64_t target, bool callbacks,
                  int32_t timeout_ms);

  const std::shared_ptr<Context> context_;
  Device &device_;
  std::atomic<uint32_t> priority_;
  const uint32_t flags_;
  std::atomic<uint32_t> user_tag_{0};
  std::atomic<bool> overflow_switch_{false};
  ResLimits res_limits_;

  // What the submitting thread writes per task, on a cache line apart from what the runner
  // writes per task (completed_, the lock): sharing one would cost the submitter a cache miss
  // per task. The runner takes the inbox once per batch.
  alignas(64) std::atomic<uintptr_t> inbox_{kAtRest};
  // Written by the owner while it pushes (pushing_ set) or under mu_ once claimed or shared.
  std::atomic<uint64_t> submitted_{0};
  std::atomic<uint64_t> submitter_{0};      // ThreadState::serial of the owner, 0 or kShared
  std::atomic<bool> pushing_{false};        // the owner is inside push_unlocked or run_at_call
  std::atomic<bool> owner_stopped_{false};  // no unlocked push can start or be in progress

  alignas(64) mutable std::mutex mu_;
  CondVar cv_;  // host waiters
  Task *head_ = nullptr;
  Task *tail_ = nullptr;
  uint64_t dropped_ = 0;  // tasks up to this seq were dropped (drop_pending)
  std::atomic<uint64_t> completed_{0};
  int callbacks_in_flight_ = 0;
  int host_waiters_ = 0;
  bool head_running_ = false;
  State state_ = State::idle;
  Runner runner_ = Runner::none;
  bool in_pool_ = false;    // on the device's queue, waiting for a worker
  int helpers_ = 0;         // host threads asleep here that run the stream when it is ready
  Signal *gate_ = nullptr;  // parked on it before the head task (owned by the head)
  std::shared_ptr<Stream> keep_alive_;  // held while the device owns the stream
  std::atomic<bool> capturing_{false};  // capture_ is set: checked without the lock
  std::shared_ptr<ModelRI> capture_;
  uint32_t capture_lane_ = 0;
  std::optional<Error> failure_;
  std::atomic<bool> failed_{false};  // failure_ is set: read without the lock by run_at_call
};

}  // namespace openacl
