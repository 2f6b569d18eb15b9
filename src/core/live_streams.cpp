#include "core/live_streams.h"

#include "core/stream.h"

namespace openacl {

void LiveStreams::add(const std::shared_ptr<Stream> &s) {
  std::lock_guard lock(mu_);
  streams_.insert(s.get());
}

void LiveStreams::remove(Stream *s) {
  std::lock_guard lock(mu_);
  streams_.erase(s);
}

std::vector<std::shared_ptr<Stream>> LiveStreams::all() const {
  // A stream being destroyed waits in remove() for the lock, so its weak reference is merely
  // expired here, never dangling. The references taken are dropped by the caller, after the
  // lock: dropping the last one destroys the stream, which takes the lock.
  std::vector<std::shared_ptr<Stream>> all;
  std::lock_guard lock(mu_);
  all.reserve(streams_.size());
  for (Stream *s : streams_) {
    if (auto sp = s->weak_from_this().lock()) all.push_back(std::move(sp));
  }
  return all;
}

std::vector<std::shared_ptr<Stream>> LiveStreams::busy() const {
  std::vector<std::shared_ptr<Stream>> busy = all();
  std::erase_if(busy, [](const std::shared_ptr<Stream> &s) { return s->idle(); });
  return busy;
}

std::vector<std::pair<std::weak_ptr<Stream>, uint64_t>> LiveStreams::pending() const {
  std::vector<std::pair<std::weak_ptr<Stream>, uint64_t>> pending;
  for (auto &s : all()) {
    if (uint64_t seq = s->latest_pending(); seq != 0) pending.emplace_back(s, seq);
  }
  return pending;
}

}  // namespace openacl
