#include "core/context.h"

#include <algorithm>

#include "core/device.h"
#include "core/event.h"
#include "core/notify.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl {

Context::Context(Device &device, bool is_default) : device_(device), is_default_(is_default) {}

Context::~Context() = default;

void Context::start() {
  auto s = create_stream(0, 0);
  std::lock_guard lock(mu_);
  default_stream_ = std::move(s);
}

std::shared_ptr<Stream> Context::default_stream() const {
  std::lock_guard lock(mu_);
  return default_stream_;
}

namespace {

// Registers obj with the context (released with it) and with the runtime (found by handle), both
// under the context's lock: release() sees either both or neither, and a context released
// meanwhile takes no new object (it would never let go of it).
template <class T>
std::shared_ptr<T> own(std::mutex &mu, const std::atomic<bool> &destroyed,
                       std::unordered_map<const T *, std::shared_ptr<T>> &owned,
                       Registry<T> &registry, std::shared_ptr<T> obj) {
  std::lock_guard lock(mu);
  if (destroyed.load(std::memory_order_relaxed))
    fail(Errc::context_null, "the context was destroyed meanwhile");
  owned.emplace(obj.get(), obj);
  registry.add(obj);
  return obj;
}

template <class T>
void forget(std::mutex &mu, std::unordered_map<const T *, std::shared_ptr<T>> &owned,
            const T *obj) {
  std::lock_guard lock(mu);
  owned.erase(obj);
}

}  // namespace

std::shared_ptr<Stream> Context::create_stream(uint32_t priority, uint32_t flags) {
  if (device_.live_streams() >= Device::kMaxStreams)
    fail(Errc::no_stream_resource,
         "device " + std::to_string(device_.id()) + " has all its " +
             std::to_string(Device::kMaxStreams) +
             " streams in use (default streams included); destroy some first");
  auto s = std::make_shared<Stream>(shared_from_this(), device_, priority, flags);
  Runtime::get().live_streams().add(
      s);  // once owned: the set reaches streams through weak_from_this
  return own(mu_, destroyed_, streams_, Runtime::get().streams, std::move(s));
}

void Context::forget_stream(const Stream *s) { forget(mu_, streams_, s); }

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
  return own(mu_, destroyed_, events_, Runtime::get().events,
             std::make_shared<Event>(shared_from_this(), flags, ex));
}

void Context::forget_event(const Event *e) { forget(mu_, events_, e); }

std::shared_ptr<Notify> Context::create_notify(bool counting) {
  return own(mu_, destroyed_, notifies_, Runtime::get().notifies,
             std::make_shared<Notify>(shared_from_this(), counting));
}

void Context::forget_notify(const Notify *n) { forget(mu_, notifies_, n); }

void Context::release() {
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::shared_ptr<Event>> events;
  std::vector<std::shared_ptr<Notify>> notifies;
  {
    std::lock_guard lock(mu_);  // the maps' references go, breaking the ownership cycles
    destroyed_.store(true, std::memory_order_release);
    if (default_stream_) streams.push_back(default_stream_);
    for (auto &[p, s] : streams_) {
      if (s != default_stream_) streams.push_back(s);
    }
    for (auto &[p, e] : events_) events.push_back(e);
    for (auto &[p, n] : notifies_) notifies.push_back(n);
    streams_.clear();
    events_.clear();
    notifies_.clear();
  }
  Runtime &rt = Runtime::get();
  for (auto &e : events) rt.events.remove(e->handle());
  for (auto &n : notifies) rt.notifies.remove(n->handle());
  for (auto &s : streams) {
    rt.streams.remove(s->handle());
    s->end_capture();
  }
  for (auto &s : streams) {
    try {
      s->synchronize(-1);
    } catch (const Error &) {
      // A failed stream is released like any other; its error was reported by its syncs.
    }
  }
  std::lock_guard lock(mu_);
  default_stream_.reset();  // breaks the stream -> context ownership cycle
}

}  // namespace openacl
