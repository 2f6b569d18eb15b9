// The decodes a JPEGD or PNGD channel has queued, taken in send order (hi_mpi_vdec_get_frame,
// hi_mpi_pngd_get_image_data).
//
// Thread safety: push may be called from any thread; take from one thread at a time.
#pragma once

#include <deque>
#include <mutex>
#include <string>

#include "dvpp/mpi/lane.h"

namespace openacl::dvpp::mpi {

template <class T>
class DecodeQueue {
 public:
  struct Done {
    T item;
    Errc code = Errc::ok;  // the decode's error, when it failed
    std::string message;
  };

  void push(Ticket ticket, T item, uint32_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back({std::move(ticket), std::move(item), bytes});
    ++sent_;
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
  // Waits for the oldest decode (Lane::wait's milli_sec; on timeout it stays queued) and
  // removes it. HI_ERR_BUF_EMPTY when nothing is queued.
  Done take(Lane &lane, hi_s32 milli_sec, const char *send_call) {
    Entry front;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (queue_.empty()) reject(HI_ERR_BUF_EMPTY, std::string("nothing is queued: call ") + send_call + " first");
      front = queue_.front();
    }
    Done done;
    done.item = front.item;
    try {
      lane.wait(front.ticket, milli_sec);
    } catch (const Error &e) {
      done.code = e.code();
      done.message = e.what();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.pop_front();
    return done;
  }

 private:
  struct Entry {
    Ticket ticket;
    T item;
    uint32_t bytes = 0;  // of the stream
  };
  uint32_t sent_ = 0;
  std::mutex mutex_;
  std::deque<Entry> queue_;
};

}  // namespace openacl::dvpp::mpi
