#include "core/device.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "core/clock.h"
#include "core/context.h"
#include "core/event.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"

namespace openacl {

Device::Device(int32_t id, std::unique_ptr<backend::DeviceBackend> backend, MemoryMap &memory)
    : id_(id), backend_(std::move(backend)), memory_(memory), boot_ns_(now_ns()) {}

void Device::charge(size_t bytes) {
  size_t used = used_.load(std::memory_order_relaxed);
  do {
    if (bytes > capacity() - used) {
      std::ostringstream msg;
      msg << "device " << id_ << " is out of memory: " << bytes << " bytes requested, "
          << capacity() - used << " of " << capacity() << " free";
      fail(Errc::out_of_memory, msg.str());
    }
  } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  size_t peak = peak_.load(std::memory_order_relaxed);
  while (used + bytes > peak &&
         !peak_.compare_exchange_weak(peak, used + bytes, std::memory_order_relaxed)) {
  }
}

void Device::refund(size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

void *Device::allocate(size_t bytes) {
  charge(bytes);
  void *p = backend_->allocate(bytes);
  if (p == nullptr) {
    refund(bytes);
    fail(Errc::out_of_memory, "device " + std::to_string(id_) + ": host could not back " +
                                  std::to_string(bytes) + " bytes");
  }
  memory_.add({reinterpret_cast<uintptr_t>(p), bytes, MemoryKind::device, this});
  Runtime::get().retired_memory().collect();
  return p;
}

void *Device::allocate_host(size_t bytes) {
  void *p = backend_->allocate_host(bytes);
  if (p == nullptr) {
    fail(Errc::out_of_memory,
         "host could not provide " + std::to_string(bytes) + " bytes of page-locked memory");
  }
  memory_.add({reinterpret_cast<uintptr_t>(p), bytes, MemoryKind::host_pinned, this});
  return p;
}

void Device::release(void *p) {
  auto a = memory_.remove(p);
  if (!a) return;
  if (a->kind == MemoryKind::device) refund(a->size);
  Runtime::get().retired_memory().retire(*this, p, a->size, a->kind == MemoryKind::host_pinned);
}

std::shared_ptr<Context> Device::retain_default_context() {
  std::lock_guard lock(mu_);
  if (!default_context_) {
    auto ctx = std::make_shared<Context>(*this, true);
    ctx->start();  // may throw (no stream left): then no default context is kept
    default_context_ = ctx;
    contexts_.push_back(default_context_);
  }
  ++default_refs_;
  return default_context_;
}

bool Device::release_default_context(bool force) {
  std::shared_ptr<Context> ctx;
  {
    std::lock_guard lock(mu_);
    if (default_refs_ == 0) return false;
    default_refs_ = force ? 0 : default_refs_ - 1;
    if (default_refs_ > 0) return true;
    ctx = std::move(default_context_);
  }
  ctx->release();
  remove_context(ctx.get());
  return true;
}

std::shared_ptr<Context> Device::default_context() const {
  std::lock_guard lock(mu_);
  return default_context_;
}

bool Device::default_context_active() const {
  std::lock_guard lock(mu_);
  return default_context_ != nullptr;
}

void Device::add_context(const std::shared_ptr<Context> &ctx) {
  std::lock_guard lock(mu_);
  contexts_.push_back(ctx);
}

void Device::remove_context(const Context *ctx) {
  std::lock_guard lock(mu_);
  std::erase_if(contexts_, [&](const auto &w) {
    auto c = w.lock();
    return !c || c.get() == ctx;
  });
}

std::vector<std::shared_ptr<Context>> Device::contexts() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<Context>> all;
  for (auto &w : contexts_) {
    if (auto c = w.lock(); c && !c->destroyed()) all.push_back(std::move(c));
  }
  return all;
}

void Device::synchronize(int32_t timeout_ms, const Context *context) {
  // One deadline for the whole device, not timeout_ms per stream.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::optional<Error> first;
  for (auto &ctx : contexts()) {
    for (auto &s : ctx->streams()) {
      int32_t left = -1;
      if (timeout_ms >= 0) {
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
        left = static_cast<int32_t>(std::max<int64_t>(ms, 0));
      }
      try {
        s->synchronize(left);
      } catch (const Error &e) {
        if (e.code() == Errc::stream_sync_timeout) throw;
        if (!first && ctx.get() == context) first = e;
      }
    }
  }
  Runtime::get().retired_memory().collect();
  if (first) throw *first;
}

void Device::shutdown() {
  std::shared_ptr<Context> def;
  {
    std::lock_guard lock(mu_);
    def = std::move(default_context_);
    default_refs_ = 0;
  }
  if (def) def->release();
  for (auto &ctx : contexts()) ctx->release();
  {
    std::lock_guard lock(mu_);
    contexts_.clear();
  }
}

void Device::set_peer_access(int32_t peer, bool enabled) {
  std::lock_guard lock(peers_mu_);
  auto it = std::lower_bound(peers_.begin(), peers_.end(), peer);
  const bool present = it != peers_.end() && *it == peer;
  if (enabled && !present) peers_.insert(it, peer);
  if (!enabled && present) peers_.erase(it);
}

bool Device::peer_access(int32_t peer) const {
  std::lock_guard lock(peers_mu_);
  return std::binary_search(peers_.begin(), peers_.end(), peer);
}

uint32_t Device::live_streams() const {
  return static_cast<uint32_t>(
      Runtime::get().streams.count_if([this](const Stream &s) { return &s.device() == this; }));
}

uint32_t Device::live_events() const {
  return static_cast<uint32_t>(Runtime::get().events.count_if(
      [this](const Event &e) { return &e.context().device() == this; }));
}

}  // namespace openacl
