// aclnn plans on a backend whose device memory the host cannot address and whose operator
// kernels read device memory only (support/staging_device.h): the constants a plan holds (an
// alpha, a fill value) reach the kernels and the host steps as a device copy of their own, with
// sim's results.
#include "aclnn/fixture.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "support/staging_device.h"

namespace {

class AclnnOnStagingDevice : public AclnnTest {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(openacl::api::init_with(nullptr, staging::parts()), ACL_SUCCESS);
  }
};

TEST_F(AclnnOnStagingDevice, AddReadsItsAlphaFromDeviceMemory) {
  aclTensor *x = tensor<float>({1, 2, 3, 4}, {4});
  aclTensor *y = tensor<float>({10, 20, 30, 40}, {4});
  aclTensor *out = tensor<float>({0, 0, 0, 0}, {4});
  const int kernels = staging::counts().kernels;
  ASSERT_EQ(run(aclnnAddGetWorkspaceSize, aclnnAdd, x, y, scalar(2.5f), out), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_GE(staging::counts().kernels - kernels, 2) << "alpha * other, then the sum";
  EXPECT_EQ(read<float>(out), (std::vector<float>{26, 52, 78, 104}));
}

TEST_F(AclnnOnStagingDevice, FillCopiesItsValueFromDeviceMemory) {
  aclTensor *self = tensor<float>(std::vector<float>(6, 1.0f), {2, 3});
  const int views = staging::counts().views;
  ASSERT_EQ(run(aclnnInplaceFillScalarGetWorkspaceSize, aclnnInplaceFillScalar, self, scalar(7.0f)),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(staging::counts().views - views, 2) << "the value's device copy read, selfRef written";
  EXPECT_EQ(read<float>(self), std::vector<float>(6, 7.0f));
}

}  // namespace
