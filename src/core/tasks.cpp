#include "core/tasks.h"

#include <cstring>

#include "core/clock.h"
#include "core/device.h"
#include "core/event.h"
#include "core/signal.h"
#include "core/status.h"
#include "core/stream.h"

namespace openacl {

const char *task_kind_name(TaskKind kind) {
  switch (kind) {
    case TaskKind::memcpy: return "memcpy";
    case TaskKind::memset: return "memset";
    case TaskKind::kernel: return "kernel";
    case TaskKind::event_record: return "event_record";
    case TaskKind::event_wait: return "event_wait";
    case TaskKind::event_reset: return "event_reset";
    case TaskKind::callback: return "callback";
    case TaskKind::host_func: return "host_func";
    case TaskKind::op: return "op";
    case TaskKind::model: return "model";
  }
  return "task";
}

CopyTask::CopyTask(void *dst, const void *src, size_t n, bool staged, const char *direction)
    : CopyTask(dst, n, src, n, n, 1, staged, direction) {}

CopyTask::CopyTask(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                   size_t height, bool staged, const char *direction)
    : Task(TaskKind::memcpy), dst_(dst), src_(src), dpitch_(dpitch), spitch_(spitch),
      width_(width), height_(height), direction_(direction) {
  if (staged) {
    staging_.reset(new uint8_t[width * height]);
    for (size_t row = 0; row < height; ++row) {
      std::memcpy(staging_.get() + row * width, static_cast<const uint8_t *>(src) + row * spitch,
                  width);
    }
    src_ = staging_.get();
    spitch_ = width;
  } else {
    add_range(src, spitch * (height - 1) + width, false);
  }
  add_range(dst, dpitch * (height - 1) + width, true);
}

void CopyTask::run(ExecContext &ctx) {
  auto &be = ctx.device.backend();
  if (height_ == 1 || (dpitch_ == width_ && spitch_ == width_)) {
    be.copy(dst_, src_, width_ * height_);
    return;
  }
  for (size_t row = 0; row < height_; ++row) {
    be.copy(static_cast<uint8_t *>(dst_) + row * dpitch_,
            static_cast<const uint8_t *>(src_) + row * spitch_, width_);
  }
}

MemsetTask::MemsetTask(void *dst, int value, size_t n)
    : Task(TaskKind::memset), dst_(dst), value_(value), n_(n) {
  add_range(dst, n, true);
}

void MemsetTask::run(ExecContext &ctx) { ctx.device.backend().fill(dst_, value_, n_); }

void RecordTask::run(ExecContext &) { record_->complete(now_ns()); }

void RecordTask::skip(const Error &failure) { record_->complete(now_ns(), failure); }

void ResetTask::run(ExecContext &) { event_->reset(record_.get()); }

CallbackTask::CallbackTask(ReportHub &hub, std::shared_ptr<Stream> stream, void (*fn)(void *),
                           void *data, bool blocking)
    : Task(TaskKind::callback), hub_(hub), stream_(stream), fn_(fn), data_(data),
      done_(blocking ? std::make_shared<Signal>() : nullptr) {}

void CallbackTask::run(ExecContext &) {
  auto stream = stream_.lock();
  if (!stream) return;
  hub_.post(Report{fn_, data_, std::move(stream), done_});
}

}  // namespace openacl
