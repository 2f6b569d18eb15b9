// An aclnn run is one op task that the timeline trace and the race checker see: the trace
// names the operator and the memory it read and wrote, and two streams that use one output
// without synchronizing are reported as a race.
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "fixture.h"

namespace {

std::string trace_path() {
  return "/tmp/openacl_aclnn_trace_" + std::to_string(getpid()) + ".json";
}

class Traced : public AclnnTest {
 protected:
  static void SetUpTestSuite() {
    setenv("OPENACL_TRACE", trace_path().c_str(), 1);
    setenv("OPENACL_CHECK", "1", 1);
    AclnnTest::SetUpTestSuite();
  }
};

std::string address(const aclTensor *t) {
  void *p = nullptr;
  aclGetRawTensorAddr(t, &p);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

TEST_F(Traced, RacesOnAnOutputAreReportedAndTheTraceShowsTheRanges) {
  float one = 1;
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {4});
  aclTensor *y = tensor<float>({0, 0, 0, 0}, {4});
  aclTensor *z = tensor<float>({0, 0, 0, 0}, {4});
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  testing::internal::CaptureStderr();
  // y = x + x on one stream, z = y * x on another, with nothing ordering them.
  uint64_t ws = 0;
  aclOpExecutor *e = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(x, x, alpha, y, &ws, &e), ACLNN_SUCCESS);
  ASSERT_EQ(ws, 0u);
  ASSERT_EQ(aclnnAdd(nullptr, 0, e, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMulGetWorkspaceSize(y, x, z, &ws, &e), ACLNN_SUCCESS);
  ASSERT_EQ(ws, 0u);
  ASSERT_EQ(aclnnMul(nullptr, 0, e, other), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::string report = testing::internal::GetCapturedStderr();
  EXPECT_NE(report.find("Add"), std::string::npos) << report;
  EXPECT_NE(report.find("Mul"), std::string::npos) << report;
  aclrtDestroyStream(other);
  aclDestroyScalar(alpha);
  const std::string xs = address(x), ys = address(y);
  TearDown();
  aclFinalize();  // writes the trace
  std::ifstream in(trace_path());
  std::stringstream text;
  text << in.rdbuf();
  const std::string t = text.str();
  EXPECT_NE(t.find("\"name\":\"Add\""), std::string::npos);
  EXPECT_NE(t.find("\"read " + xs + " +16\""), std::string::npos) << t.substr(0, 2000);
  EXPECT_NE(t.find("\"write " + ys + " +16\""), std::string::npos);
  std::remove(trace_path().c_str());
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // for the suite's own teardown
  SetUp();
}

}  // namespace
