// What each frame sent to a video decoder asked for (its output buffer, user data, stream
// description), kept until the decoder gives that frame's picture: with frame reordering
// (B-frames) pictures come out in display order, later than their frames and in another order,
// and CANN hands each picture out with its own frame's output, user data and timestamps.
//
// Thread safety: every call may come from any thread (add from the sending call, take from the
// channel's tasks).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace openacl::dvpp {

template <class Slot>
class FrameSlots {
 public:
  // Keeps a frame's slot; returns the frame's number (VideoDecoder::send's `frame`).
  int64_t add(Slot slot) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.emplace(next_, std::move(slot));
    return next_++;
  }
  // The slot of frame `frame`, taken; nullopt when there is none (taken before).
  std::optional<Slot> take(int64_t frame) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(frame);
    if (it == pending_.end()) return std::nullopt;
    Slot s = std::move(it->second);
    pending_.erase(it);
    return s;
  }
  // Every slot still kept, in send order (frames that will give no picture).
  std::vector<Slot> take_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Slot> left;
    for (auto &[frame, slot] : pending_) left.push_back(std::move(slot));
    pending_.clear();
    return left;
  }

 private:
  std::mutex mutex_;
  std::map<int64_t, Slot> pending_;
  int64_t next_ = 0;
};

}  // namespace openacl::dvpp
