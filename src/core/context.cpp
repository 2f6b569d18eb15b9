#include "core/context.h"

#include <algorithm>

#include "core/device.h"
#include "core/event.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {

Context::Context(Device &device, bool is_default) : device_(device), is_default_(is_default) {}

Context::~Context() = default;

void Context::start() { default_stream_ = create_stream(0, 0); }

std::shared_ptr<Stream> Context::create_stream(uint32_t priority, uint32_t flags) {
  auto s = std::make_shared<Stream>(*this, device_, priority, flags);
  {
    std::lock_guard lock(mu_);
    streams_.emplace(s.get(), s);
  }
  Runtime::get().streams.add(s);
  return s;
}

void Context::forget_stream(const Stream *s) {
  std::lock_guard lock(mu_);
  streams_.erase(s);
}

std::vector<std::shared_ptr<Stream>> Context::streams() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<Stream>> all;
  all.reserve(streams_.size());
  if (default_stream_) all.push_back(default_stream_);
  for (auto &[p, s] : streams_) {
    if (s != default_stream_) all.push_back(s);
  }
  return all;
}

std::shared_ptr<Event> Context::create_event(uint32_t flags, bool ex) {
  auto e = std::make_shared<Event>(*this, flags, ex);
  {
    std::lock_guard lock(mu_);
    events_.emplace(e.get(), e);
  }
  Runtime::get().events.add(e);
  return e;
}

void Context::forget_event(const Event *e) {
  std::lock_guard lock(mu_);
  events_.erase(e);
}

void Context::release() {
  destroyed_.store(true, std::memory_order_release);
  std::vector<std::shared_ptr<Stream>> streams = this->streams();
  std::vector<std::shared_ptr<Event>> events;
  {
    std::lock_guard lock(mu_);
    for (auto &[p, e] : events_) events.push_back(e);
    streams_.clear();
    events_.clear();
  }
  Runtime &rt = Runtime::get();
  for (auto &e : events) rt.events.remove(e->handle());
  for (auto &s : streams) rt.streams.remove(s->handle());
  for (auto &s : streams) {
    try {
      s->synchronize(-1);
    } catch (const Error &) {
      // A failed stream is released like any other; its error was reported by its syncs.
    }
  }
  default_stream_.reset();
}

}  // namespace openacl
