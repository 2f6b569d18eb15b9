// A condition variable on a bare futex, for every wait of the runtime.
//
// glibc's pthread_cond_t before 2.41 loses wake-ups (sourceware bug 25847): the fuzzer caught
// a pthread_cond_broadcast stuck for good in __condvar_quiesce_and_switch_g1 while the
// waiters slept on the other group, on Debian 12's glibc 2.36, and the whole device hung with
// it. This one is a sequence number: a waiter reads it with the mutex held and sleeps only
// while it is unchanged, and every notify changes it, so no wake-up can be lost. The same
// interface as the parts of std::condition_variable the runtime uses.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <mutex>

namespace openacl {

class CondVar {
 public:
  using Clock = std::chrono::steady_clock;

  CondVar() = default;
  CondVar(const CondVar &) = delete;
  CondVar &operator=(const CondVar &) = delete;

  void notify_one() { notify(1); }
  void notify_all() { notify(INT32_MAX); }
  // Changes at every notify: a thread that spins instead of sleeping watches it.
  uint32_t sequence() const { return seq_.load(std::memory_order_acquire); }

  // Like std::condition_variable's: the lock is held on entry and on return; a wait may end
  // without a notify, so waits sit in a loop (the predicate forms loop themselves).
  void wait(std::unique_lock<std::mutex> &lock) { sleep(lock, nullptr); }
  template <class Pred>
  void wait(std::unique_lock<std::mutex> &lock, Pred pred) {
    while (!pred()) wait(lock);
  }
  // False once the deadline has passed.
  bool wait_until(std::unique_lock<std::mutex> &lock, Clock::time_point deadline) {
    return sleep(lock, &deadline);
  }
  // pred() at the end: false when the deadline passed first.
  template <class Pred>
  bool wait_until(std::unique_lock<std::mutex> &lock, Clock::time_point deadline, Pred pred) {
    while (!pred()) {
      if (!wait_until(lock, deadline)) return pred();
    }
    return true;
  }
  template <class Rep, class Period, class Pred>
  bool wait_for(std::unique_lock<std::mutex> &lock, std::chrono::duration<Rep, Period> d,
                Pred pred) {
    return wait_until(lock, Clock::now() + std::chrono::duration_cast<Clock::duration>(d), pred);
  }

 private:
  // Header-only: libacl_dvpp's queues wait with it too, and libascendcl exports no C++.
  void notify(int32_t count) {
    // Both sides write one word, then read the other's, all seq_cst: either this notify sees
    // the sleeper counted, or the sleeper reads the new sequence number and does not sleep on
    // it.
    seq_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&seq_), FUTEX_WAKE_PRIVATE, count, nullptr,
            nullptr, 0);
  }
  // Sleeps until a notify or the deadline (nullptr: none); false when the deadline passed.
  bool sleep(std::unique_lock<std::mutex> &lock, const Clock::time_point *deadline) {
    timespec until{};
    if (deadline != nullptr) {
      if (*deadline <= Clock::now()) return false;
      // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time, steady_clock's clock.
      const int64_t ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(deadline->time_since_epoch())
              .count();
      until.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
      until.tv_nsec = static_cast<long>(ns % 1'000'000'000);
    }
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    const uint32_t seen = seq_.load(std::memory_order_seq_cst);
    lock.unlock();
    const long r =
        syscall(SYS_futex, reinterpret_cast<uint32_t *>(&seq_), FUTEX_WAIT_BITSET_PRIVATE, seen,
                deadline != nullptr ? &until : nullptr, nullptr, FUTEX_BITSET_MATCH_ANY);
    const bool timed_out = r == -1 && errno == ETIMEDOUT;
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    lock.lock();
    return !timed_out;
  }

  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the futex word is the atomic");
  std::atomic<uint32_t> seq_{0};
  std::atomic<int32_t> sleepers_{0};  // notify makes the system call only when some wait
};

}  // namespace openacl
