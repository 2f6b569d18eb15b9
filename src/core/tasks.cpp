#include "core/tasks.h"

#include <algorithm>
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
    case TaskKind::memcpy:
      return "memcpy";
    case TaskKind::memset:
      return "memset";
    case TaskKind::kernel:
      return "kernel";
    case TaskKind::event_record:
      return "event_record";
    case TaskKind::event_wait:
      return "event_wait";
    case TaskKind::event_reset:
      return "event_reset";
    case TaskKind::notify_record:
      return "notify_record";
    case TaskKind::notify_wait:
      return "notify_wait";
    case TaskKind::notify_reset:
      return "notify_reset";
    case TaskKind::value_write:
      return "value_write";
    case TaskKind::value_wait:
      return "value_wait";
    case TaskKind::callback:
      return "callback";
    case TaskKind::host_func:
      return "host_func";
    case TaskKind::op:
      return "op";
    case TaskKind::model:
      return "model";
    case TaskKind::dvpp:
      return "dvpp";
  }
  return "task";
}

CopyTask::CopyTask(void *dst, const void *src, size_t n, bool staged, const char *direction)
    : CopyTask(dst, n, src, n, n, 1, staged, direction) {}

CopyTask::CopyTask(AtCall, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                   size_t height, const char *direction)
    : Task(TaskKind::memcpy),
      dst_(dst),
      src_(src),
      dpitch_(dpitch),
      spitch_(spitch),
      width_(width),
      height_(height),
      direction_(direction) {}

CopyTask::CopyTask(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                   size_t height, bool staged, const char *direction)
    : CopyTask(AtCall{}, dst, dpitch, src, spitch, width, height, direction) {
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

namespace {

// Large copies and fills are split over the AI cores: one core does not saturate the memory
// bus, and the stream's task holds the device's cores anyway.
constexpr size_t kSplitBytes = size_t{512} << 10;

template <class Piece>
void split_bytes(ExecContext &ctx, size_t n, const Piece &piece) {
  const size_t parts = std::min<size_t>(ctx.cores.count(), n / (kSplitBytes / 2));
  if (parts <= 1) return piece(0, n);
  const size_t step = (n / parts + 63) / 64 * 64;  // cache-line aligned pieces
  ctx.cores.parallel_for(parts, [&](size_t i) {
    const size_t begin = std::min(n, i * step),
                 end = i + 1 == parts ? n : std::min(n, begin + step);
    if (begin < end) piece(begin, end - begin);
  });
}

}  // namespace

std::unique_ptr<Task> CopyTask::replica(const std::shared_ptr<Stream> &) const {
  // A staged copy replays the bytes taken at the original call.
  return std::make_unique<CopyTask>(dst_, dpitch_, src_, spitch_, width_, height_,
                                    staging_ != nullptr, direction_);
}

void CopyTask::run(ExecContext &ctx) {
  auto &be = ctx.device.backend();
  if (height_ == 1 || (dpitch_ == width_ && spitch_ == width_)) {
    auto *dst = static_cast<uint8_t *>(dst_);
    const auto *src = static_cast<const uint8_t *>(src_);
    split_bytes(ctx, width_ * height_,
                [&](size_t at, size_t n) { be.copy(dst + at, src + at, n); });
    return;
  }
  for (size_t row = 0; row < height_; ++row) {
    be.copy(static_cast<uint8_t *>(dst_) + row * dpitch_,
            static_cast<const uint8_t *>(src_) + row * spitch_, width_);
  }
}

MemsetTask::MemsetTask(void *dst, int value, size_t n) : MemsetTask(AtCall{}, dst, value, n) {
  add_range(dst, n, true);
}

void MemsetTask::run(ExecContext &ctx) {
  auto *dst = static_cast<uint8_t *>(dst_);
  split_bytes(ctx, n_,
              [&](size_t at, size_t n) { ctx.device.backend().fill(dst + at, value_, n); });
}

void RecordTask::run(ExecContext &) { record_->complete(now_ns()); }

void RecordTask::skip(const Error &failure) { record_->complete(now_ns(), failure); }

void RecordTask::queued(Stream &stream) { record_->set_producer(stream.weak_from_this(), seq); }

bool WaitTask::runs_at_call() const { return record_->done() && !record_->error(); }

void ResetTask::run(ExecContext &) { event_->reset(record_.get()); }

CallbackTask::CallbackTask(ReportHub &hub, std::shared_ptr<Stream> stream, void (*fn)(void *),
                           void *data, bool blocking)
    : Task(TaskKind::callback),
      hub_(hub),
      stream_(stream),
      fn_(fn),
      data_(data),
      done_(blocking ? std::make_shared<Signal>() : nullptr) {}

void CallbackTask::run(ExecContext &) {
  auto stream = stream_.lock();
  if (!stream) return;
  hub_.post(Report{fn_, data_, std::move(stream), done_});
}

}  // namespace openacl
