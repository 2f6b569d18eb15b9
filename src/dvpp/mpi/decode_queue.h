// The decodes (or encodes) a V2 channel has queued, taken in send order
// (hi_mpi_vdec_get_frame, hi_mpi_pngd_get_image_data, hi_mpi_venc_get_stream).
//
// Thread safety: push, counts and close may be called from any thread; take from one thread
// at a time (a second taker may see the first's entry). close wakes a take that waits.
#pragma once

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#include "core/cond_var.h"

#include "dvpp/mpi/guard.h"
#include "dvpp/mpi/lane.h"

namespace openacl::dvpp::mpi {

template <class T>
class DecodeQueue {
 public:
  struct Done {
    T item;
    Errc code = Errc::ok;  // the task's error, when it failed
    std::string message;
  };

  void push(Ticket ticket, T item, uint32_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back({std::move(ticket), std::move(item), bytes});
      ++sent_;
    }
    pushed_.notify_all();
  }

  struct Counts {
    uint32_t waiting = 0, waiting_bytes = 0;  // not yet run
    uint32_t ready = 0;                       // run, not yet taken
    uint32_t sent = 0;                        // ever pushed
  };
  Counts counts(const Lane &lane) {
    std::lock_guard<std::mutex> lock(mutex_);
    Counts c;
    c.sent = sent_;
    for (const Entry &e : queue_) {
      if (lane.finished(e.ticket)) {
        ++c.ready;
      } else {
        ++c.waiting;
        c.waiting_bytes += e.bytes;
      }
    }
    return c;
  }

  // The oldest entry when its task has run (what take gives next without waiting).
  std::optional<T> front_ready(const Lane &lane) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty() || !lane.finished(queue_.front().ticket)) return std::nullopt;
    return queue_.front().item;
  }

  // Takes the oldest entry once its task has run, as CANN's get calls do: milli_sec -1 waits
  // as long as it takes (for an entry to be queued, then for its task), 0 not at all, else at
  // most that long in all. HI_ERR_BUF_EMPTY when nothing was queued in time, HI_ERR_TIMEOUT when
  // the task had not run (it stays queued), HI_ERR_UNEXIST when the channel was closed.
  Done take(Lane &lane, hi_s32 milli_sec, const char *send_call) {
    if (milli_sec < -1)
      reject(HI_ERR_ILLEGAL_PARAM, "milli_sec " + std::to_string(milli_sec) + " is below -1");
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(milli_sec, 0));
    Entry front;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      auto ready = [&] { return !queue_.empty() || closed_; };
      if (milli_sec < 0) pushed_.wait(lock, ready);
      else pushed_.wait_until(lock, deadline, ready);
      if (closed_) reject(HI_ERR_UNEXIST, "the channel was destroyed");
      if (queue_.empty())
        reject(HI_ERR_BUF_EMPTY, std::string("nothing is queued: call ") + send_call + " first");
      front = queue_.front();
    }
    Done done;
    done.item = front.item;
    hi_s32 left = -1;
    if (milli_sec >= 0) {
      const auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      left = static_cast<hi_s32>(std::max<int64_t>(rest.count(), 0));
    }
    try {
      lane.wait(front.ticket, left);
    } catch (const Error &e) {
      done.code = e.code();
      done.message = e.what();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || queue_.empty() || queue_.front().ticket.seq != front.ticket.seq)
      reject(HI_ERR_UNEXIST, "the channel was destroyed");
    queue_.pop_front();
    return done;
  }

  // Wakes waiting takers (they get HI_ERR_UNEXIST) and returns what was never taken.
  std::vector<T> close() {
    std::vector<T> left = drain();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    pushed_.notify_all();
    return left;
  }
  // Drops what was never taken and returns it (a channel reset).
  std::vector<T> drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<T> left;
    for (Entry &e : queue_) left.push_back(std::move(e.item));
    queue_.clear();
    return left;
  }

 private:
  struct Entry {
    Ticket ticket;
    T item;
    uint32_t bytes = 0;  // of the stream or picture sent
  };
  std::mutex mutex_;
  openacl::CondVar pushed_;
  std::deque<Entry> queue_;
  uint32_t sent_ = 0;
  bool closed_ = false;
};

}  // namespace openacl::dvpp::mpi
