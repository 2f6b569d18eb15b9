// Host callbacks (R15): aclrtSubscribeReport binds a host thread to a stream;
// aclrtLaunchCallback enqueues a task that, when the stream reaches it, hands the callback to
// that thread; the thread runs it inside aclrtProcessReport.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include "core/cond_var.h"

#include "core/status.h"

namespace openacl {

class Signal;
class Stream;

struct Report {
  void (*fn)(void *) = nullptr;
  void *data = nullptr;
  std::shared_ptr<Stream> stream;
  std::shared_ptr<Signal> done;  // blocking callbacks: the stream waits for it
  int64_t posted_ns = 0;
};

class ReportHub {
 public:
  // Errc::stream_subscribe when the stream already has a thread or the thread serves another
  // device.
  void subscribe(uint64_t thread_id, const std::shared_ptr<Stream> &stream);
  // Errc::stream_subscribe when the stream is not subscribed by that thread. Reports of that
  // stream still waiting in the thread's queue run here, so no callback is lost and no
  // blocking callback holds its stream forever.
  void unsubscribe(uint64_t thread_id, const Stream *stream);
  bool subscribed(const Stream *stream) const;
  // The stream is destroyed: its subscription goes with it (as unsubscribe, whatever the
  // thread; its reports still queued run here), so that a stream made later at the same
  // address does not find itself subscribed to a thread that may serve nobody.
  void forget(const Stream *stream);
  // Hands a report to the stream's thread; Errc::stream_no_callback_subscriber when none.
  void post(Report report);
  // Runs the next report for the calling thread. timeout_ms < 0 waits forever.
  // Errc::thread_subscribe when the thread serves no stream, Errc::report_timeout on timeout,
  // Errc::not_initialized once close() was called and nothing is queued for the thread. A
  // callback that throws fails its stream (R20) and its error is thrown here too.
  void process(int32_t timeout_ms);
  // Finalize: runs on the calling thread the reports that have waited in a queue longer than
  // max_wait_ns (their thread is not processing), so finalize never waits on them forever.
  // Returns whether any ran.
  bool run_stale(int64_t max_wait_ns);
  // Finalize, first: threads waiting in process() with nothing queued return.
  void close();
  // Finalize, last: forgets every subscription and wakes waiting threads.
  void clear();

 private:
  struct ThreadQueue {
    std::deque<Report> reports;
    CondVar cv;
    int streams = 0;
    int32_t device_id = -1;
  };
  // Runs the callback and completes its bookkeeping whatever the callback does.
  static std::optional<Error> run(Report &r);

  mutable std::mutex mu_;
  bool closed_ = false;
  std::unordered_map<const Stream *, uint64_t> stream_thread_;
  std::unordered_map<uint64_t, std::shared_ptr<ThreadQueue>> threads_;
};

}  // namespace openacl
