// Host callbacks (R15) and host functions.
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/tasks.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

extern "C" {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_submit(stream);
    if (Runtime::get().host_funcs().subscribed(s.get()))
      fail(Errc::stream_subscribe,
           "the stream has an aclrtSubscribeHostFunc thread; report callbacks cannot share it");
    Runtime::get().reports().subscribe(threadId, s);
  });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(stream);
    Runtime::get().reports().unsubscribe(threadId, s.get());
  });
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    if (fn == nullptr) fail(Errc::invalid_value, "fn is NULL");
    int64_t block = openacl::api::enum_value(blockType);
    if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK) {
      fail(Errc::invalid_argument, "blockType must be ACL_CALLBACK_NO_BLOCK or ACL_CALLBACK_BLOCK");
    }
    auto s = openacl::api::stream_for_submit(stream);
    auto &hub = Runtime::get().reports();
    if (!hub.subscribed(s.get())) {
      fail(Errc::stream_no_callback_subscriber,
           "no thread is subscribed to the stream: call aclrtSubscribeReport first");
    }
    s->enqueue(
        std::make_unique<openacl::CallbackTask>(hub, s, fn, userData, block == ACL_CALLBACK_BLOCK));
  });
}

aclError aclrtProcessReport(int32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    if (timeout == 0 || timeout < -1) {
      fail(Errc::invalid_argument,
           "timeout " + std::to_string(timeout) + " is invalid: use -1 (forever) or > 0 ms");
    }
    Runtime::get().reports().process(timeout);
  });
}

// A host function runs on the thread subscribed to its stream with aclrtSubscribeHostFunc,
// inside that thread's aclrtProcessHostFunc, the stream waiting for it; on a stream without
// such a thread it runs on the device's worker when the stream reaches it.
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
  return guarded(__func__, [&] {
    require_initialized();
    if (fn == nullptr) fail(Errc::invalid_argument, "fn is NULL");
    auto s = openacl::api::stream_for_submit(stream);
    if (Runtime::get().reports().subscribed(s.get())) {
      fail(Errc::stream_subscribe,
           "the stream uses aclrtSubscribeReport callbacks; the two callback mechanisms cannot be "
           "mixed on one stream");
    }
    auto &hub = Runtime::get().host_funcs();
    if (hub.subscribed(s.get())) {
      s->enqueue(std::make_unique<openacl::CallbackTask>(hub, s, fn, args, true));
      return;
    }
    s->enqueue(
        std::make_unique<openacl::FunctionTask>(openacl::TaskKind::host_func, "host_func",
                                                [fn, args](openacl::ExecContext &) { fn(args); }));
  });
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_submit(exeStream);
    if (Runtime::get().reports().subscribed(s.get()))
      fail(Errc::stream_subscribe,
           "the stream uses aclrtSubscribeReport callbacks; host functions cannot share it");
    Runtime::get().host_funcs().subscribe(hostFuncThreadId, s);
  });
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    if (timeout == 0 || timeout < -1)
      fail(Errc::invalid_argument,
           "timeout " + std::to_string(timeout) + " is invalid: use -1 (forever) or > 0 ms");
    Runtime::get().host_funcs().process(timeout);
  });
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto s = openacl::api::stream_for_host(exeStream);
    Runtime::get().host_funcs().unsubscribe(hostFuncThreadId, s.get());
  });
}

}  // extern "C"
