// A function openacl declares but does not implement still links (a stub the build generates
// from scripts/gen_api/coverage.json), fails with ACL_ERROR_API_NOT_SUPPORT and says why in
// aclGetRecentErrMsg. aclrtSnapShotProcessLock (process snapshots of a real NPU driver) has no
// counterpart in openacl, so it stays unsupported.
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Unsupported, FailsWithApiNotSupportAndNamesTheFunction) {
  EXPECT_EQ(aclrtSnapShotProcessLock(0, nullptr), ACL_ERROR_API_NOT_SUPPORT);
  const char *msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("aclrtSnapShotProcessLock"), std::string::npos) << msg;
  EXPECT_NE(std::string(msg).find("not supported"), std::string::npos) << msg;
}

TEST(Unsupported, NonErrorReturnsAreEmpty) {
  // Every unsupported function that returns no aclError returns a pointer.
  EXPECT_EQ(aclrtCreateGroupInfo(), nullptr);
  const char *msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("aclrtCreateGroupInfo"), std::string::npos) << msg;
}

}  // namespace
