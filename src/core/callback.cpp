#include "core/callback.h"

#include <pthread.h>

#include <chrono>
#include <vector>

#include "core/call_gate.h"
#include "core/clock.h"
#include "core/device.h"
#include "core/failure.h"
#include "core/signal.h"
#include "core/status.h"
#include "core/stream.h"

namespace openacl {

void ReportHub::subscribe(uint64_t thread_id, const std::shared_ptr<Stream> &stream) {
  std::lock_guard lock(mu_);
  if (stream_thread_.count(stream.get()) != 0) {
    fail(Errc::stream_subscribe, "the stream is already subscribed by thread " +
                                     std::to_string(stream_thread_[stream.get()]));
  }
  auto &q = threads_[thread_id];
  if (!q) q = std::make_shared<ThreadQueue>();
  int32_t dev = stream->device().id();
  if (q->streams > 0 && q->device_id != dev) {
    fail(Errc::stream_subscribe, "thread " + std::to_string(thread_id) +
                                     " already serves streams of device " +
                                     std::to_string(q->device_id));
  }
  q->device_id = dev;
  ++q->streams;
  stream_thread_[stream.get()] = thread_id;
}

void ReportHub::unsubscribe(uint64_t thread_id, const Stream *stream) {
  std::vector<Report> orphans;
  {
    std::lock_guard lock(mu_);
    auto it = stream_thread_.find(stream);
    if (it == stream_thread_.end() || it->second != thread_id) {
      fail(Errc::stream_subscribe,
           "the stream is not subscribed by thread " + std::to_string(thread_id));
    }
    stream_thread_.erase(it);
    auto &q = threads_[thread_id];
    --q->streams;
    std::erase_if(q->reports, [&](Report &r) {
      if (r.stream.get() != stream) return false;
      orphans.push_back(std::move(r));
      return true;
    });
    q->cv.notify_all();
  }
  for (auto &r : orphans) run(r);
}

void ReportHub::forget(const Stream *stream) {
  std::vector<Report> orphans;
  {
    std::lock_guard lock(mu_);
    auto it = stream_thread_.find(stream);
    if (it == stream_thread_.end()) return;
    auto &q = threads_[it->second];
    stream_thread_.erase(it);
    --q->streams;
    std::erase_if(q->reports, [&](Report &r) {
      if (r.stream.get() != stream) return false;
      orphans.push_back(std::move(r));
      return true;
    });
    q->cv.notify_all();  // a thread left with no stream stops waiting
  }
  for (auto &r : orphans) run(r);
}

bool ReportHub::subscribed(const Stream *stream) const {
  std::lock_guard lock(mu_);
  return stream_thread_.count(stream) != 0;
}

void ReportHub::post(Report report) {
  std::lock_guard lock(mu_);
  auto it = stream_thread_.find(report.stream.get());
  if (it == stream_thread_.end()) {
    fail(Errc::stream_no_callback_subscriber,
         "callback reached a stream that no thread is subscribed to (aclrtUnSubscribeReport "
         "came before the callback ran)");
  }
  auto &q = threads_[it->second];
  if (!report.done) report.stream->callback_dispatched();
  report.posted_ns = now_ns();
  q->reports.push_back(std::move(report));
  q->cv.notify_one();
}

std::optional<Error> ReportHub::run(Report &r) {
  std::optional<Error> error;
  try {
    r.fn(r.data);
  } catch (...) {
    error = user_code_error("callback");
    r.stream->set_failure(*error);
  }
  if (r.done) {
    r.done->complete(now_ns(), error);
  } else {
    r.stream->callback_finished();
  }
  return error;
}

void ReportHub::process(int32_t timeout_ms) {
  auto self = static_cast<uint64_t>(pthread_self());
  Report r;
  {
    std::unique_lock lock(mu_);
    auto it = threads_.find(self);
    if (it == threads_.end() || it->second->streams == 0) {
      fail(Errc::thread_subscribe,
           "the calling thread is not subscribed to any stream (aclrtSubscribeReport)");
    }
    std::shared_ptr<ThreadQueue> q = it->second;
    auto ready = [&] { return !q->reports.empty() || q->streams == 0 || closed_; };
    {
      QuiescentWait blocked;  // holds nothing freed memory must wait for
      if (timeout_ms < 0) {
        q->cv.wait(lock, ready);
      } else if (!q->cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready)) {
        fail(Errc::report_timeout,
             "no callback arrived within " + std::to_string(timeout_ms) + " ms");
      }
    }
    if (q->reports.empty()) {
      if (closed_) fail(Errc::not_initialized, "aclFinalize was called while the thread waited");
      fail(Errc::thread_subscribe, "the calling thread was unsubscribed while waiting");
    }
    r = std::move(q->reports.front());
    q->reports.pop_front();
  }
  if (auto error = run(r)) throw *error;
}

bool ReportHub::run_stale(int64_t max_wait_ns) {
  std::vector<Report> stale;
  int64_t now = now_ns();
  {
    std::lock_guard lock(mu_);
    for (auto &[id, q] : threads_) {
      std::erase_if(q->reports, [&](Report &r) {
        if (now - r.posted_ns < max_wait_ns) return false;
        stale.push_back(std::move(r));
        return true;
      });
    }
  }
  for (auto &r : stale) run(r);  // a callback's failure is its stream's (R20)
  return !stale.empty();
}

void ReportHub::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  for (auto &[id, q] : threads_) q->cv.notify_all();
}

void ReportHub::clear() {
  std::vector<Report> orphans;
  {
    std::lock_guard lock(mu_);
    closed_ = false;
    for (auto &[id, q] : threads_) {
      for (auto &r : q->reports) orphans.push_back(std::move(r));
      q->reports.clear();
      q->streams = 0;
      q->cv.notify_all();
    }
    stream_thread_.clear();
    threads_.clear();
  }
  for (auto &r : orphans) run(r);
}

}  // namespace openacl
