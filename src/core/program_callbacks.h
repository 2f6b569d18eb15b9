// The callbacks a program hands the runtime: run at initialization and before finalization
// (aclInitCallbackRegister, aclFinalizeCallbackRegister) and told of each failing task
// (aclrtSetExceptionInfoCallback, aclrtExceptionInfoCallbackRegister). They are the program's,
// like its data descriptions: registered before aclInit too, and kept across aclFinalize and a
// new aclInit until it takes them back.
//
// Thread safety: every member may be called from any thread; one mutex guards the lists, and
// callbacks run on copies outside it, so a callback may register or unregister others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

struct rtExceptionInfo;  // acl_rt.h's aclrtExceptionInfo; its fields are the C API's business

namespace openacl {

class ProgramCallbacks {
 public:
  // acl_rt.h's aclInitCallbackFunc, aclFinalizeCallbackFunc (aclError is int) and
  // aclrtExceptionInfoCallback.
  using InitFn = int (*)(const char *config, size_t length, void *user_data);
  using FinalizeFn = int (*)(void *user_data);
  using ExceptionFn = void (*)(rtExceptionInfo *info);

  // One callback per type, except a type that is `shared` (ACL_REG_TYPE_OTHER) where each
  // function once. A second of a type, or removing one never added, throws Errc::internal,
  // as CANN's runtime answers; a null fn throws Errc::invalid_argument.
  void add_init(int64_t type, bool shared, InitFn fn, void *user_data);
  void remove_init(int64_t type, InitFn fn);
  void add_finalize(int64_t type, bool shared, FinalizeFn fn, void *user_data);
  void remove_finalize(int64_t type, FinalizeFn fn);
  // The acl.json text of the last initialization: what a callback added afterwards is given.
  std::string config() const;

  // After an aclInit that initialized: reads config_path (NULL or "": no text) and runs the init
  // callbacks with its text. Returns the first failing callback's error, or 0; throws
  // Errc::internal when one throws.
  int run_init(const char *config_path);
  // Before the runtime releases everything; a callback that fails or throws is passed over.
  void run_finalize();

  // aclrtSetExceptionInfoCallback's one callback (nullptr clears it) and the registered ones.
  void set_exception(ExceptionFn fn);
  void add_exception(ExceptionFn fn);     // throws Errc::invalid_argument when null or present
  void remove_exception(ExceptionFn fn);  // throws Errc::invalid_argument when absent
  // Every exception callback, the set one first.
  std::vector<ExceptionFn> exception_callbacks() const;

 private:
  template <class Fn>
  struct Registered {
    int64_t type;
    Fn fn;
    void *user_data;
  };
  template <class Fn>
  static void add(std::vector<Registered<Fn>> &list, int64_t type, bool shared, Fn fn,
                  void *user_data);
  template <class Fn>
  static void remove(std::vector<Registered<Fn>> &list, int64_t type, Fn fn);

  mutable std::mutex mu_;
  std::vector<Registered<InitFn>> init_;
  std::vector<Registered<FinalizeFn>> finalize_;
  std::string config_;
  ExceptionFn set_exception_ = nullptr;
  std::vector<ExceptionFn> exception_;
};

}  // namespace openacl
