#include "core/program_callbacks.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "core/status.h"

namespace openacl {

template <class Fn>
void ProgramCallbacks::add(std::vector<Registered<Fn>> &list, int64_t type, bool shared, Fn fn,
                           void *user_data) {
  if (fn == nullptr) fail(Errc::invalid_argument, "cbFunc is NULL");
  for (const auto &r : list) {
    if (r.type == type && (!shared || r.fn == fn)) {
      fail(Errc::internal, "a callback of type " + std::to_string(type) + " is registered already");
    }
  }
  list.push_back({type, fn, user_data});
}

template <class Fn>
void ProgramCallbacks::remove(std::vector<Registered<Fn>> &list, int64_t type, Fn fn) {
  if (fn == nullptr) fail(Errc::invalid_argument, "cbFunc is NULL");
  auto it = std::find_if(list.begin(), list.end(),
                         [&](const auto &r) { return r.type == type && r.fn == fn; });
  if (it == list.end())
    fail(Errc::internal, "this callback is not registered for type " + std::to_string(type));
  list.erase(it);
}

void ProgramCallbacks::add_init(int64_t type, bool shared, InitFn fn, void *user_data) {
  std::lock_guard lock(mu_);
  add(init_, type, shared, fn, user_data);
}

void ProgramCallbacks::remove_init(int64_t type, InitFn fn) {
  std::lock_guard lock(mu_);
  remove(init_, type, fn);
}

void ProgramCallbacks::add_finalize(int64_t type, bool shared, FinalizeFn fn, void *user_data) {
  std::lock_guard lock(mu_);
  add(finalize_, type, shared, fn, user_data);
}

void ProgramCallbacks::remove_finalize(int64_t type, FinalizeFn fn) {
  std::lock_guard lock(mu_);
  remove(finalize_, type, fn);
}

std::string ProgramCallbacks::config() const {
  std::lock_guard lock(mu_);
  return config_;
}

int ProgramCallbacks::run_init(const char *config_path) {
  std::string text;
  if (config_path != nullptr && config_path[0] != '\0') {
    std::ifstream in(config_path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::vector<Registered<InitFn>> run;
  {
    std::lock_guard lock(mu_);
    config_ = text;
    run = init_;
  }
  for (const auto &r : run) {
    int e = 0;
    try {
      e = r.fn(text.c_str(), text.size(), r.user_data);
    } catch (...) {
      fail(Errc::internal, "an aclInitCallbackRegister callback threw an exception");
    }
    if (e != 0) return e;
  }
  return 0;
}

void ProgramCallbacks::run_finalize() {
  std::vector<Registered<FinalizeFn>> run;
  {
    std::lock_guard lock(mu_);
    run = finalize_;
  }
  for (const auto &r : run) {
    try {
      r.fn(r.user_data);
    } catch (...) {  // finalize goes on: the runtime must not stay half released
      std::fprintf(stderr, "openacl: an aclFinalizeCallbackRegister callback threw; ignored\n");
    }
  }
}

void ProgramCallbacks::set_exception(ExceptionFn fn) {
  std::lock_guard lock(mu_);
  set_exception_ = fn;
}

void ProgramCallbacks::add_exception(ExceptionFn fn) {
  if (fn == nullptr) fail(Errc::invalid_argument, "callback is NULL");
  std::lock_guard lock(mu_);
  if (std::find(exception_.begin(), exception_.end(), fn) != exception_.end()) {
    fail(Errc::invalid_argument, "the callback is already registered");
  }
  exception_.push_back(fn);
}

void ProgramCallbacks::remove_exception(ExceptionFn fn) {
  if (fn == nullptr) fail(Errc::invalid_argument, "callback is NULL");
  std::lock_guard lock(mu_);
  auto it = std::find(exception_.begin(), exception_.end(), fn);
  if (it == exception_.end()) fail(Errc::invalid_argument, "the callback is not registered");
  exception_.erase(it);
}

std::vector<ProgramCallbacks::ExceptionFn> ProgramCallbacks::exception_callbacks() const {
  std::vector<ExceptionFn> all;
  std::lock_guard lock(mu_);
  if (set_exception_ != nullptr) all.push_back(set_exception_);
  all.insert(all.end(), exception_.begin(), exception_.end());
  return all;
}

}  // namespace openacl
