// Notifies (aclrtNotify, aclrtCntNotify): counters that streams update and wait on. A wait
// holds its stream until the condition holds, whenever the record comes (src/core/notify.h).
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/context.h"
#include "core/notify.h"
#include "core/observer.h"
#include "core/registry.h"
#include "core/runtime.h"
#include "core/stream.h"

using openacl::Errc;
using openacl::fail;
using openacl::Notify;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

namespace {

const char *kind_name(bool counting) { return counting ? "CntNotify" : "notify"; }

void create(void **out, uint64_t flag, bool counting) {
  require_initialized();
  if (out == nullptr) fail(Errc::invalid_argument, std::string(kind_name(counting)) + " is NULL");
  if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
    fail(Errc::invalid_argument,
         "flag " + std::to_string(flag) +
             " is not ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)");
  }
  *out = openacl::api::current_context()->create_notify(counting)->handle();
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::notify, *out, true);
}

std::shared_ptr<Notify> find(const void *handle, bool counting) {
  const std::string name = kind_name(counting);
  if (handle == nullptr) fail(Errc::invalid_argument, name + " is NULL");
  auto n = Runtime::get().notifies.find(handle);
  if (!n) fail(Errc::invalid_handle, name + " is an unknown or destroyed handle");
  if (n->counting() != counting) {
    fail(Errc::invalid_handle,
         counting ? "the handle is an aclrtNotify; this call takes an aclrtCntNotify"
                  : "the handle is an aclrtCntNotify; this call takes an aclrtNotify");
  }
  return n;
}

void destroy(void *handle, bool counting) {
  require_initialized();
  auto n = find(handle, counting);
  Runtime::get().notifies.remove(handle);
  n->context().forget_notify(n.get());
  openacl::notify(&openacl::TaskObserver::on_object, openacl::ObjectKind::notify, handle, false);
}

// The stream to put a notify task on, checked against the notify's context (R7).
std::shared_ptr<openacl::Stream> stream_for(const Notify &n, aclrtStream stream) {
  auto s = openacl::api::stream_for_submit(stream);
  if (&n.context() != &s->context()) {
    fail(Errc::stream_context, std::string("the ") + kind_name(n.counting()) +
                                   " belongs to another context than the stream");
  }
  return s;
}

void get_id(const void *handle, uint32_t *id, bool counting) {
  require_initialized();
  if (id == nullptr) fail(Errc::invalid_argument, "notifyId is NULL");
  *id = openacl::handle_serial(find(handle, counting)->handle());
}

Notify::Update update_of(const aclrtCntNotifyRecordMode &mode_arg) {
  const int64_t mode = openacl::api::enum_value(mode_arg);
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE:
      return Notify::Update::set;
    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
      return Notify::Update::add;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
      return Notify::Update::bit_or;
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:
      return Notify::Update::bit_and;
  }
  fail(Errc::invalid_argument,
       "info->mode " + std::to_string(mode) + " is not an aclrtCntNotifyRecordMode (0, 1, 2 or 4)");
}

Notify::Condition condition_of(const aclrtCntNotifyWaitMode &mode_arg) {
  const int64_t mode = openacl::api::enum_value(mode_arg);
  switch (mode) {
    case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:
      return Notify::Condition::less;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:
      return Notify::Condition::equal;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:
      return Notify::Condition::greater;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:
      return Notify::Condition::greater_equal;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE:
      return Notify::Condition::all_bits;
  }
  fail(Errc::invalid_argument,
       "info->mode " + std::to_string(mode) + " is not an aclrtCntNotifyWaitMode (0 to 4)");
}

}  // namespace

extern "C" {

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag) {
  return guarded(__func__, [&] { create(notify, flag, false); });
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  return guarded(__func__, [&] { destroy(notify, false); });
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto n = find(notify, false);
    stream_for(*n, stream)
        ->enqueue(std::make_unique<openacl::NotifyUpdateTask>(n, Notify::Update::set, 1));
  });
}

// timeout: seconds; 0 waits without a limit.
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  return guarded(__func__, [&] {
    require_initialized();
    auto n = find(notify, false);
    stream_for(*n, stream)
        ->enqueue(std::make_unique<openacl::NotifyWaitTask>(
            n, Notify::Condition::greater_equal, 1, true, timeout, "aclrtWaitAndResetNotify"));
  });
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId) {
  return guarded(__func__, [&] { get_id(notify, notifyId, false); });
}

aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num) {
  return guarded(__func__, [&] {
    require_initialized();
    if (notifies == nullptr) fail(Errc::invalid_argument, "notifies is NULL");
    if (num == 0) fail(Errc::invalid_argument, "num is 0");
    std::vector<std::shared_ptr<Notify>> found;
    for (size_t i = 0; i < num; ++i) found.push_back(find(notifies[i], false));  // all or nothing
    for (auto &n : found) n->reset();
  });
}

aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag) {
  return guarded(__func__, [&] { create(cntNotify, flag, true); });
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  return guarded(__func__, [&] { destroy(cntNotify, true); });
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                              aclrtCntNotifyRecordInfo *info) {
  return guarded(__func__, [&] {
    require_initialized();
    auto n = find(cntNotify, true);
    if (info == nullptr) fail(Errc::invalid_argument, "info is NULL");
    auto how = update_of(info->mode);
    stream_for(*n, stream)
        ->enqueue(std::make_unique<openacl::NotifyUpdateTask>(n, how, info->value));
  });
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                       aclrtCntNotifyWaitInfo *info) {
  return guarded(__func__, [&] {
    require_initialized();
    auto n = find(cntNotify, true);
    if (info == nullptr) fail(Errc::invalid_argument, "info is NULL");
    auto cond = condition_of(info->mode);
    if (info->isClear > 1) {
      fail(Errc::invalid_argument,
           "info->isClear is " + std::to_string(info->isClear) + " (0 or 1)");
    }
    stream_for(*n, stream)
        ->enqueue(std::make_unique<openacl::NotifyWaitTask>(n, cond, info->value,
                                                            info->isClear == 1, info->timeout,
                                                            "aclrtCntNotifyWaitWithTimeout"));
  });
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
  return guarded(__func__, [&] {
    require_initialized();
    auto n = find(cntNotify, true);
    stream_for(*n, stream)->enqueue(std::make_unique<openacl::NotifyResetTask>(n));
  });
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId) {
  return guarded(__func__, [&] { get_id(cntNotify, notifyId, true); });
}

}  // extern "C"
