#include <cstring>

#include "common.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_CPU_RELAX() _mm_pause()
#else
#define BENCH_CPU_RELAX() std::this_thread::yield()
#endif

namespace bench {
namespace {

// Spin, then yield: on a loaded machine the peer may not be running, and a pure spin would
// burn its time slice.
template <class Pred>
void spin_until(Pred done) {
  for (int i = 0; !done(); ++i) {
    if (i < 2000) {
      BENCH_CPU_RELAX();
    } else {
      std::this_thread::yield();
    }
  }
}

constexpr int kConsumerSpin = 4000;

}  // namespace

double ping_pong_round_trip_ns(int rounds) {
  std::atomic<int> ball{0};
  std::thread peer([&] {
    for (int i = 0; i <= rounds; ++i) {
      spin_until([&] { return ball.load(std::memory_order_acquire) == 2 * i + 1; });
      ball.store(2 * i + 2, std::memory_order_release);
    }
  });
  auto serve = [&](int i) {
    ball.store(2 * i + 1, std::memory_order_release);
    spin_until([&] { return ball.load(std::memory_order_acquire) == 2 * i + 2; });
  };
  serve(0);  // the peer is up
  std::vector<double> samples(rounds);
  for (int i = 1; i <= rounds; ++i) {
    int64_t t0 = now_ns();
    serve(i);
    samples[i - 1] = static_cast<double>(now_ns() - t0);
  }
  peer.join();
  return median(std::move(samples));
}

struct PlainQueue::Node {
  void *dst;
  int value;
  size_t n;
  Node *next;
};

size_t PlainQueue::task_bytes() { return sizeof(Node); }

PlainQueue::PlainQueue() : consumer_([this] { consume(); }) {}

PlainQueue::~PlainQueue() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    held_ = false;
  }
  work_cv_.notify_one();
  consumer_.join();
}

void PlainQueue::push(void *dst, int value, size_t n) {
  Node *t = new Node{dst, value, n, nullptr};
  bool wake;
  {
    std::lock_guard lock(mu_);
    if (tail_ != nullptr) {
      tail_->next = t;
    } else {
      head_ = t;
    }
    tail_ = t;
    pushed_.fetch_add(1, std::memory_order_release);
    wake = sleeping_ && !held_;
  }
  if (wake) work_cv_.notify_one();
}

void PlainQueue::hold(bool held) {
  {
    std::lock_guard lock(mu_);
    held_ = held;
  }
  if (!held) work_cv_.notify_one();
}

void PlainQueue::drain() {
  uint64_t target = pushed_.load(std::memory_order_acquire);
  spin_until([&] { return done_.load(std::memory_order_acquire) >= target; });
}

void PlainQueue::consume() {
  uint64_t seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    if (head_ == nullptr || held_) {
      if (stop_ && head_ == nullptr) return;
      lock.unlock();
      for (int i = 0; i < kConsumerSpin && pushed_.load(std::memory_order_acquire) == seen; ++i) {
        BENCH_CPU_RELAX();
      }
      lock.lock();
      sleeping_ = true;
      work_cv_.wait(lock, [&] { return stop_ || (head_ != nullptr && !held_); });
      sleeping_ = false;
      continue;
    }
    Node *list = head_;
    head_ = tail_ = nullptr;
    seen = pushed_.load(std::memory_order_relaxed);
    lock.unlock();
    uint64_t ran = 0;
    while (list != nullptr) {
      Node *next = list->next;
      std::memset(list->dst, list->value, list->n);
      delete list;
      list = next;
      ++ran;
    }
    done_.fetch_add(ran, std::memory_order_release);
    lock.lock();
  }
}

double plain_enqueue_ns(int tasks, int batch) {
  static char target[4];
  PlainQueue q;
  q.push(target, 0, sizeof(target));
  q.drain();  // the consumer is up
  std::vector<double> samples;
  for (int done = 0; done < tasks; done += batch) {
    int64_t t0 = now_ns();
    for (int i = 0; i < batch; ++i) q.push(target, 0, sizeof(target));
    samples.push_back(static_cast<double>(now_ns() - t0) / batch);
    q.drain();
  }
  return median(std::move(samples));
}

}  // namespace bench
