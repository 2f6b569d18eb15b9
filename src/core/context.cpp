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
    streams_.push_back(s);
  }
  Runtime::get().streams.add(s);
  return s;
}

void Context::forget_stream(const Stream *s) {
  std::lock_guard lock(mu_);
  std::erase_if(streams_, [&](const auto &p) { return p.get() == s; });
}

std::vector<std::shared_ptr<Stream>> Context::streams() const {
  std::lock_guard lock(mu_);
  return streams_;
}

std::shared_ptr<Event> Context::create_event(uint32_t flags, bool ex) {
  auto e = std::make_shared<Event>(*this, flags, ex);
  {
    std::lock_guard lock(mu_);
    events_.push_back(e);
  }
  Runtime::get().events.add(e);
  return e;
}

void Context::forget_event(const Event *e) {
  std::lock_guard lock(mu_);
  std::erase_if(events_, [&](const auto &p) { return p.get() == e; });
}

void Context::release() {
  destroyed_.store(true, std::memory_order_release);
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::shared_ptr<Event>> events;
  {
    std::lock_guard lock(mu_);
    streams.swap(streams_);
    events.swap(events_);
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
