#include "core/app_log.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace openacl {
namespace {

int threshold() {
  const char *v = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (v == nullptr || v[0] < '0' || v[0] > '4' || v[1] != '\0') return 3;
  return v[0] - '0';
}

const char *level_name(LogLevel level) {
  switch (level) {
    case LogLevel::debug:
      return "DEBUG";
    case LogLevel::info:
      return "INFO";
    case LogLevel::warning:
      return "WARNING";
    case LogLevel::error:
      return "ERROR";
  }
  return "ERROR";
}

std::string timestamp() {
  auto now = std::chrono::system_clock::now();
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(us / 1000000);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d-%02d:%02d:%02d.%03d.%03d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(us / 1000 % 1000), static_cast<int>(us % 1000));
  return buf;
}

}  // namespace

bool app_log_enabled(LogLevel level) { return static_cast<int>(level) >= threshold(); }

void app_log(LogLevel level, const char *func, const char *file, uint32_t line,
             std::string_view msg) {
  const char *to_stdout = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  std::FILE *out = (to_stdout != nullptr && std::string_view(to_stdout) == "1") ? stdout : stderr;
  std::string text = std::string("[") + level_name(level) + "] APP(" + std::to_string(getpid()) +
                     "," + program_invocation_short_name + "):" + timestamp() + " [" +
                     (file != nullptr ? file : "") + ":" + std::to_string(line) + "]" +
                     std::to_string(syscall(SYS_gettid)) + " " + (func != nullptr ? func : "") +
                     ": ";
  text.append(msg);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  // One write per line, so lines from several threads do not interleave.
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

}  // namespace openacl
