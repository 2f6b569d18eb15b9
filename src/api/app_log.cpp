// aclAppLog, which the ACL_APP_LOG macro calls (printing in core/app_log.h). It returns nothing,
// so bad arguments are only recorded for aclGetRecentErrMsg.
#include <cstdarg>
#include <cstdio>
#include <string>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/app_log.h"

using openacl::Errc;
using openacl::fail;

extern "C" void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                          const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  (void)openacl::api::guarded(__func__, [&] {
    const int64_t level = openacl::api::enum_value(logLevel);
    if (level < ACL_DEBUG || level > ACL_ERROR) {
      fail(Errc::invalid_argument, "logLevel " + std::to_string(level) +
                                       " is not ACL_DEBUG, ACL_INFO, ACL_WARNING or ACL_ERROR");
    }
    if (fmt == nullptr) fail(Errc::invalid_argument, "fmt is NULL");
    const auto lv = static_cast<openacl::LogLevel>(level);
    if (!openacl::app_log_enabled(lv)) return;
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, again);
    va_end(again);
    std::string msg;
    if (n > 0) {
      msg.resize(static_cast<size_t>(n) + 1);
      std::vsnprintf(msg.data(), msg.size(), fmt, args);
      msg.resize(static_cast<size_t>(n));
    }
    openacl::app_log(lv, func, file, line, msg);
  });
  va_end(args);
}
