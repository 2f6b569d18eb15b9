#include "check/call_site.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace openacl::check {
namespace {

// The load address of libascendcl (this object), to tell its frames from the program's.
const void *library_base() {
  static const void *base = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&capture_call_site), &info) == 0) return (void *)nullptr;
    return info.dli_fbase;
  }();
  return base;
}

bool in_library(void *pc, Dl_info &info) {
  if (dladdr(pc, &info) == 0) return false;
  return info.dli_fbase == library_base();
}

std::string demangle(const char *name) {
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return name;
  std::string out(d);
  std::free(d);
  // Argument lists make call sites hard to read; the name is enough.
  if (auto paren = out.find('('); paren != std::string::npos && paren > 0) out.resize(paren);
  return out;
}

std::string frame_text(void *pc) {
  Dl_info info{};
  char buf[64];
  if (dladdr(pc, &info) == 0) {
    std::snprintf(buf, sizeof buf, "%p", pc);
    return buf;
  }
  const char *file = info.dli_fname != nullptr ? info.dli_fname : "?";
  if (const char *slash = std::strrchr(file, '/')) file = slash + 1;
  std::string out;
  if (info.dli_sname != nullptr) {
    auto off = reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_saddr);
    std::snprintf(buf, sizeof buf, "+0x%zx", static_cast<size_t>(off));
    out = demangle(info.dli_sname) + buf;
  } else {
    // No exported name (build the program with -rdynamic for names): the offset in the file
    // is what addr2line -f -C -e FILE wants.
    auto off = reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_fbase);
    std::snprintf(buf, sizeof buf, "+0x%zx", static_cast<size_t>(off));
    out = buf;
  }
  return out + " (" + file + ")";
}

// Index of the first frame outside the library after the library frames, or depth.
int first_user_frame(const CallSite &site, std::string *api) {
  bool seen_library = false;
  for (int i = 0; i < site.depth; ++i) {
    Dl_info info{};
    if (in_library(site.pcs[i], info)) {
      seen_library = true;
      if (api != nullptr && info.dli_sname != nullptr &&
          std::strncmp(info.dli_sname, "acl", 3) == 0) {
        *api = info.dli_sname;
      }
      continue;
    }
    if (seen_library) return i;
  }
  return site.depth;
}

}  // namespace

CallSite capture_call_site() {
  CallSite site;
  site.depth = backtrace(site.pcs.data(), CallSite::kDepth);
  return site;
}

std::string api_of(const CallSite &site) {
  std::string api;
  first_user_frame(site, &api);
  return api;
}

std::string api_name(const char *api, const CallSite &site) {
  if (api != nullptr && std::strncmp(api, "acl", 3) == 0) return api;
  std::string found = api_of(site);
  return found.empty() ? std::string(api != nullptr ? api : "?") : found;
}

uintptr_t user_pc(const CallSite &site) {
  int i = first_user_frame(site, nullptr);
  return i < site.depth ? reinterpret_cast<uintptr_t>(site.pcs[i]) : 0;
}

std::string describe(const CallSite &site, int frames) {
  std::string api;
  int i = first_user_frame(site, &api);
  std::string out = api.empty() ? std::string("the runtime") : api;
  if (i >= site.depth) return out + " (call site unknown)";
  out += " at ";
  for (int n = 0; n < frames && i < site.depth; ++n, ++i) {
    if (n > 0) out += ", ";
    out += frame_text(site.pcs[i]);
    Dl_info info{};
    if (dladdr(site.pcs[i], &info) != 0 && info.dli_sname != nullptr &&
        std::strcmp(info.dli_sname, "main") == 0) {
      break;  // what runs main is of no interest
    }
  }
  return out;
}

}  // namespace openacl::check
