#include "core/compile_options.h"

#include <map>
#include <mutex>

namespace openacl {
namespace {

std::mutex mu;
std::map<int, std::string> &options() {
  static std::map<int, std::string> o;
  return o;
}

}  // namespace

void set_compile_option(int option, std::string value) {
  std::lock_guard lock(mu);
  options()[option] = std::move(value);
}

std::string compile_option(int option) {
  std::lock_guard lock(mu);
  auto it = options().find(option);
  return it == options().end() ? std::string() : it->second;
}

}  // namespace openacl
