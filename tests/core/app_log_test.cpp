// Application logs (aclAppLog, the ACL_APP_LOG macro): CANN's line format, the
// ASCEND_GLOBAL_LOG_LEVEL filter, ASCEND_SLOG_PRINT_TO_STDOUT, and bad arguments.
#include <cstdlib>
#include <regex>
#include <string>

#include "core/fixture.h"

namespace {

class AppLog : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  }
};

TEST_F(AppLog, ErrorsPrintInCannsLineFormatByDefault) {
  testing::internal::CaptureStderr();
  ACL_APP_LOG(ACL_ERROR, "value %d of %s", 42, "x");
  const std::string err = testing::internal::GetCapturedStderr();
  const std::regex line(
      R"(\[ERROR\] APP\([0-9]+,[^)]+\):[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\.[0-9]{3} )"
      R"(\[[^\]]*app_log_test\.cpp:[0-9]+\][0-9]+ TestBody: value 42 of x\n)");
  EXPECT_TRUE(std::regex_match(err, line)) << err;
}

TEST_F(AppLog, GlobalLogLevelFiltersByLevel) {
  testing::internal::CaptureStderr();
  ACL_APP_LOG(ACL_INFO, "hidden info");
  ACL_APP_LOG(ACL_WARNING, "hidden warning");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  testing::internal::CaptureStderr();
  ACL_APP_LOG(ACL_DEBUG, "hidden debug");
  ACL_APP_LOG(ACL_INFO, "shown info");
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("hidden debug"), std::string::npos) << err;
  EXPECT_NE(err.find("[INFO] APP("), std::string::npos) << err;
  EXPECT_NE(err.find("shown info"), std::string::npos) << err;

  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
  testing::internal::CaptureStderr();
  ACL_APP_LOG(ACL_ERROR, "silenced");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(AppLog, PrintToStdoutMovesTheLines) {
  setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  ACL_APP_LOG(ACL_ERROR, "to stdout");
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(err, "");
  EXPECT_NE(out.find("to stdout\n"), std::string::npos) << out;
}

TEST_F(AppLog, BadArgumentsAreRecordedNotPrinted) {
  testing::internal::CaptureStderr();
  aclAppLog(static_cast<aclLogLevel>(7), "f", "file.c", 1, "never");
  EXPECT_NE(oat::recent_msg().find("aclAppLog"), std::string::npos) << oat::recent_msg();
  EXPECT_NE(oat::recent_msg().find("logLevel 7"), std::string::npos) << oat::recent_msg();
  aclAppLog(ACL_ERROR, "f", "file.c", 1, nullptr);
  EXPECT_NE(oat::recent_msg().find("fmt is NULL"), std::string::npos) << oat::recent_msg();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
