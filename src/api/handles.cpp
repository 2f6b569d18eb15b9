#include "api/handles.h"

#include "core/context.h"
#include "core/event.h"
#include "core/kernel.h"
#include "core/runtime.h"
#include "core/stream.h"

namespace openacl::api {

std::shared_ptr<Context> current_context() { return Runtime::get().current_context(); }

Device &current_device() { return current_context()->device(); }

namespace {

std::shared_ptr<Stream> default_stream_of(const Context &ctx) {
  auto s = ctx.default_stream();
  if (!s) fail(Errc::context_null, "the calling thread's current context was destroyed meanwhile");
  return s;
}

}  // namespace

std::shared_ptr<Stream> stream_for_host(aclrtStream stream) {
  if (stream == nullptr) return default_stream_of(*current_context());
  auto s = Runtime::get().streams.find(stream);
  if (!s) fail(Errc::invalid_handle, "unknown or destroyed stream handle");
  return s;
}

namespace {

std::shared_ptr<Stream> find_stream(aclrtStream stream) {
  auto s = Runtime::get().streams.find_cached(stream);
  if (!s) fail(Errc::invalid_handle, "unknown or destroyed stream handle");
  return s;
}

}  // namespace

std::shared_ptr<Stream> stream_for_submit(aclrtStream stream) {
  auto ctx = current_context();
  if (stream == nullptr) return default_stream_of(*ctx);
  auto s = find_stream(stream);
  if (&s->context() != ctx.get()) {
    fail(Errc::stream_context,
         "the stream belongs to another context than the calling thread's current one; bind "
         "its context with aclrtSetCurrentContext first");
  }
  return s;
}

Stream &stream_ref_for_submit(aclrtStream stream, std::shared_ptr<Stream> &held) {
  if (stream != nullptr) {
    Stream *s = Runtime::get().streams.find_borrowed(stream);
    if (s != nullptr && Runtime::is_current_context(s->context())) return *s;
  }
  held = stream_for_submit(stream);  // the default stream, or the error
  return *held;
}

int32_t timeout_ms(int32_t timeout) {
  if (timeout < -1) {
    fail(Errc::invalid_value,
         "timeout " + std::to_string(timeout) + " is invalid: use -1 (forever) or > 0 ms");
  }
  return timeout == 0 ? -1 : timeout;
}

std::shared_ptr<Event> event_of(aclrtEvent event, const char *what) {
  if (event == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
  auto e = Runtime::get().events.find(event);
  if (!e) fail(Errc::invalid_handle, std::string(what) + " is an unknown or destroyed event");
  return e;
}

std::shared_ptr<Function> function_of(aclrtFuncHandle funcHandle) {
  if (funcHandle == nullptr) fail(Errc::invalid_argument, "funcHandle is NULL");
  auto f = Runtime::get().functions.find_cached(funcHandle);
  if (!f) fail(Errc::invalid_handle, "unknown function handle, or its binary was unloaded");
  return f;
}

}  // namespace openacl::api
