// Application logs (aclAppLog / ACL_APP_LOG): CANN writes them to its log files; openacl prints
// them, in CANN's line format, to stderr, or to stdout when ASCEND_SLOG_PRINT_TO_STDOUT=1.
// ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 none; default 3, as in CANN) filters them.
#pragma once

#include <cstdint>
#include <string_view>

namespace openacl {

enum class LogLevel { debug = 0, info = 1, warning = 2, error = 3 };

// Whether a message of this level passes ASCEND_GLOBAL_LOG_LEVEL.
bool app_log_enabled(LogLevel level);

// Writes one line: [LEVEL] APP(pid,process):yyyy-mm-dd-hh:mm:ss.mmm.uuu [file:line]tid func: msg
void app_log(LogLevel level, const char *func, const char *file, uint32_t line,
             std::string_view msg);

}  // namespace openacl
