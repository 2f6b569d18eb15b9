// Helpers shared by the examples: check every AscendCL call, report in one line per step,
// exit non-zero on the first wrong result.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "acl/acl.h"

#define CHECK_ACL(call)                                                                         \
  do {                                                                                          \
    aclError err_ = (call);                                                                     \
    if (err_ != ACL_SUCCESS) {                                                                  \
      const char *msg_ = aclGetRecentErrMsg();                                                  \
      std::fprintf(stderr, "FAIL %s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call, err_, \
                   msg_ ? msg_ : "");                                                           \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

#define EXPECT_TRUE(cond, what)                                           \
  do {                                                                    \
    if (!(cond)) {                                                        \
      std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what); \
      std::exit(1);                                                       \
    }                                                                     \
    std::printf("  ok   %s\n", what);                                     \
  } while (0)

inline bool all_bytes(const void *p, size_t n, unsigned char v) {
  const auto *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != v) return false;
  return true;
}
