// Where the program called the runtime from: a short raw backtrace taken at an API call (a
// task's enqueue, an allocation, a free), symbolized only when a report needs it.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace openacl::check {

struct CallSite {
  static constexpr int kDepth = 24;
  std::array<void *, kDepth> pcs{};
  int depth = 0;
};

// backtrace(): a few hundred ns, no allocation, no symbol lookup.
CallSite capture_call_site();

// The AscendCL entry point the program called (the outermost frame inside libascendcl with an
// acl* name), or "" when there is none.
std::string api_of(const CallSite &site);

// `api` when it is an AscendCL name, else the entry point found in `site`: hook sites inside
// the API's guarded lambdas pass __func__, which is "operator()" there.
std::string api_name(const char *api, const CallSite &site);

// The first frame outside libascendcl: the program's call site. 0 when unknown. Reports are
// told apart by it (once per distinct race).
uintptr_t user_pc(const CallSite &site);

// "aclrtMemsetAsync at run_pipeline+0x4c (./app), main+0x21 (./app)": the API and up to
// `frames` frames of the program.
std::string describe(const CallSite &site, int frames = 3);

}  // namespace openacl::check
