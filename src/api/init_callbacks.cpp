#include "api/init_callbacks.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

namespace {

template <class Fn>
struct Registered {
  int64_t type;
  Fn fn;
  void *user_data;
};

struct Callbacks {
  std::mutex mu;
  std::vector<Registered<aclInitCallbackFunc>> init;
  std::vector<Registered<aclFinalizeCallbackFunc>> finalize;
  std::string config;  // what the last aclInit read
};

Callbacks &callbacks() {
  static auto *c = new Callbacks();  // outlives static destruction: finalize may run at exit
  return *c;
}

// One callback per type, except ACL_REG_TYPE_OTHER, as CANN's runtime keeps them; a second one
// of a type, or unregistering one never registered, is CANN's ACL_ERROR_INTERNAL_ERROR.
template <class Fn>
void add(std::vector<Registered<Fn>> &list, const aclRegisterCallbackType &type_arg, Fn fn, void *user_data) {
  if (fn == nullptr) fail(Errc::invalid_argument, "cbFunc is NULL");
  const int64_t type = openacl::api::enum_value(type_arg);
  for (const auto &r : list) {
    if (r.type == type && (type != ACL_REG_TYPE_OTHER || r.fn == fn)) {
      fail(Errc::internal, "a callback of type " + std::to_string(type) + " is registered already");
    }
  }
  list.push_back({type, fn, user_data});
}

template <class Fn>
void remove(std::vector<Registered<Fn>> &list, const aclRegisterCallbackType &type_arg, Fn fn) {
  if (fn == nullptr) fail(Errc::invalid_argument, "cbFunc is NULL");
  const int64_t type = openacl::api::enum_value(type_arg);
  auto it = std::find_if(list.begin(), list.end(), [&](const auto &r) { return r.type == type && r.fn == fn; });
  if (it == list.end()) fail(Errc::internal, "this callback is not registered for type " + std::to_string(type));
  list.erase(it);
}

}  // namespace

namespace openacl::api {

int init_callbacks(const char *configPath) {
  std::string text;
  if (configPath != nullptr && configPath[0] != '\0') {
    std::ifstream in(configPath, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::vector<Registered<aclInitCallbackFunc>> run;
  {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    c.config = text;
    run = c.init;
  }
  for (const auto &r : run) {
    aclError e = ACL_SUCCESS;
    try {
      e = r.fn(text.c_str(), text.size(), r.user_data);
    } catch (...) {
      openacl::fail(openacl::Errc::internal, "an aclInitCallbackRegister callback threw an exception");
    }
    if (e != ACL_SUCCESS) return e;
  }
  return ACL_SUCCESS;
}

void finalize_callbacks() {
  std::vector<Registered<aclFinalizeCallbackFunc>> run;
  {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    run = c.finalize;
  }
  for (const auto &r : run) {
    try {
      r.fn(r.user_data);
    } catch (...) {  // finalize goes on: the runtime must not stay half released
      std::fprintf(stderr, "openacl: an aclFinalizeCallbackRegister callback threw; ignored\n");
    }
  }
}

}  // namespace openacl::api

extern "C" {

// Registered before aclInit: runs at initialization; registered after: runs at once.
aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData) {
  std::string config;
  bool now = false;
  aclError ret = guarded(__func__, [&] {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    add(c.init, type, cbFunc, userData);
    now = openacl::Runtime::get().initialized();
    config = c.config;
  });
  if (ret != ACL_SUCCESS || !now) return ret;
  return cbFunc(config.c_str(), config.size(), userData);
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  return guarded(__func__, [&] {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    remove(c.init, type, cbFunc);
  });
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void *userData) {
  return guarded(__func__, [&] {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    add(c.finalize, type, cbFunc, userData);
  });
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
  return guarded(__func__, [&] {
    Callbacks &c = callbacks();
    std::lock_guard lock(c.mu);
    remove(c.finalize, type, cbFunc);
  });
}

}  // extern "C"
