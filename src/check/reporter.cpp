#include "check/reporter.h"

#include <cstdio>
#include <cstdlib>

namespace openacl::check {

bool Reporter::print(const Key &key, const std::string &text) {
  if (!seen_.insert(key).second) return false;
  // Every line carries the prefix, so that grep finds whole reports in mixed output.
  std::string out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    out += "openacl-check: ";
    out.append(text, begin, end - begin);
    out += '\n';
    begin = end + 1;
  }
  std::fputs(out.c_str(), stderr);
  std::fflush(stderr);
  return true;
}

bool Reporter::problem(const Key &key, const std::string &text) {
  std::lock_guard lock(mu_);
  if (!print(key, text)) return false;
  ++problems_;
  if (abort_) {
    std::fputs("openacl-check: OPENACL_CHECK=abort: stopping at the first problem\n", stderr);
    std::fflush(stderr);
    std::abort();  // the user asked for it (CI mode); never taken otherwise
  }
  return true;
}

bool Reporter::warning(const Key &key, const std::string &text) {
  std::lock_guard lock(mu_);
  if (!print(key, text)) return false;
  ++warnings_;
  return true;
}

size_t Reporter::problems() const {
  std::lock_guard lock(mu_);
  return problems_;
}

size_t Reporter::warnings() const {
  std::lock_guard lock(mu_);
  return warnings_;
}

}  // namespace openacl::check
