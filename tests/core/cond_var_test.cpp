// core/cond_var.h, the runtime's own condition variable (glibc's loses wake-ups: sourceware bug
// 25847, which hung a device in the fuzzer). A lost wake-up here shows as a test that never
// ends (ctest's time limit).
#include "core/cond_var.h"

#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using openacl::CondVar;
using namespace std::chrono_literals;

TEST(CondVar, ATimedWaitWhoseConditionNeverHoldsReturnsFalseAfterItsDeadline) {
  std::mutex mu;
  CondVar cv;
  std::unique_lock lock(mu);
  const auto start = CondVar::Clock::now();
  EXPECT_FALSE(cv.wait_for(lock, 20ms, [] { return false; }));
  EXPECT_GE(CondVar::Clock::now() - start, 20ms);
  EXPECT_TRUE(lock.owns_lock());
  EXPECT_FALSE(cv.wait_until(lock, CondVar::Clock::now() - 1ms));  // past: at once
}

TEST(CondVar, NotifyAllWakesEveryWaiterAndEachSeesTheChangeMadeUnderTheLock) {
  std::mutex mu;
  CondVar cv;
  bool go = false;
  int woken = 0, waiting = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      std::unique_lock lock(mu);
      ++waiting;
      cv.notify_all();  // tells the main thread
      cv.wait(lock, [&] { return go; });
      ++woken;
    });
  }
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return waiting == 6; });
    go = true;
  }
  cv.notify_all();  // after the lock: a notify need not hold it
  for (auto &t : threads) t.join();
  EXPECT_EQ(woken, 6);
}

// One item, one notify_one, many consumers, some of them timing out and coming back: the
// pattern of glibc's lost wake-up. Every item is taken, and the final notify_all ends every
// untimed wait.
TEST(CondVar, NotifyOnePerItemNeverLeavesAnItemUntakenAmongTimedAndUntimedWaiters) {
  constexpr int kConsumers = 6, kItems = 60000;
  std::mutex mu;
  CondVar cv;
  std::deque<int> queue;
  int taken = 0;
  bool done = false;
  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&, c] {
      std::unique_lock lock(mu);
      for (;;) {
        auto ready = [&] { return !queue.empty() || done; };
        if (c % 2 == 0) {
          cv.wait(lock, ready);
        } else if (!cv.wait_for(lock, 50us, ready)) {
          continue;  // timed out: wait again
        }
        if (queue.empty()) return;  // done
        queue.pop_front();
        ++taken;
      }
    });
  }
  std::thread producer([&] {
    for (int i = 0; i < kItems; ++i) {
      {
        std::lock_guard lock(mu);
        queue.push_back(i);
      }
      cv.notify_one();
    }
  });
  producer.join();
  {
    std::unique_lock lock(mu);
    // The consumers (the timed ones at least) take what is left.
    while (!queue.empty()) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
    }
    done = true;
  }
  cv.notify_all();
  for (auto &t : consumers) t.join();
  EXPECT_EQ(taken, kItems);
}

}  // namespace
