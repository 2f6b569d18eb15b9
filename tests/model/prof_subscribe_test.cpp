// Model subscription (acl_prof.h): a subscribed model's executions write one record per op into
// the subscriber's pipe; the aclprofGetOp* calls read them back. A two-op model (Mul, Relu) is
// run twice and the records are checked against the graph and against each other's times.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "model_helpers.h"

using namespace model_test;

namespace {

class ProfSubscribe : public DeviceSuite {
 protected:
  void SetUp() override {
    auto m = tiny_model();
    add_input(m, "x", {1, 8});
    add_initializer(m, "two", {1}, {-2});
    add_node(m, "Mul", "scale", {"x", "two"}, {"scaled"});
    add_node(m, "Relu", "clip", {"scaled"}, {"y"});
    add_output(m, "y");
    const std::string onnx = m.SerializeAsString();
    ASSERT_EQ(aclmdlLoadFromMem(onnx.data(), onnx.size(), &id_), ACL_SUCCESS) << recent();
    ASSERT_EQ(aclrtMalloc(&in_, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtMemset(in_, 32, 0, 32);
    ins_ = aclmdlCreateDataset();
    outs_ = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(ins_, aclCreateDataBuffer(in_, 32));
    aclmdlAddDatasetBuffer(outs_, aclCreateDataBuffer(out_, 32));
    ASSERT_EQ(pipe2(fds_, O_NONBLOCK), 0);
  }
  void TearDown() override {
    for (aclmdlDataset *d : {ins_, outs_}) {
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, 0));
      aclmdlDestroyDataset(d);
    }
    aclrtFree(in_);
    aclrtFree(out_);
    aclmdlUnload(id_);
    for (int fd : fds_)
      if (fd >= 0) close(fd);
  }
  aclError execute() { return aclmdlExecute(id_, ins_, outs_); }
  // What the pipe holds now (its write end stays open: reads never block).
  std::vector<char> drain() {
    std::vector<char> bytes;
    char buf[4096];
    for (ssize_t n; (n = read(fds_[0], buf, sizeof buf)) > 0;)
      bytes.insert(bytes.end(), buf, buf + n);
    return bytes;
  }
  uint32_t id_ = 0;
  void *in_ = nullptr, *out_ = nullptr;
  aclmdlDataset *ins_ = nullptr, *outs_ = nullptr;
  int fds_[2] = {-1, -1};
};

TEST_F(ProfSubscribe, EachExecutionWritesOneRecordPerOp) {
  aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config, nullptr) << recent();
  ASSERT_EQ(aclprofModelSubscribe(id_, config), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclprofModelSubscribe(id_, config), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("already subscribed"), std::string::npos) << recent();
  ASSERT_EQ(execute(), ACL_SUCCESS) << recent();
  ASSERT_EQ(execute(), ACL_SUCCESS) << recent();
  ASSERT_EQ(aclprofModelUnSubscribe(id_), ACL_SUCCESS) << recent();
  ASSERT_EQ(execute(), ACL_SUCCESS) << recent();  // no longer reported
  const auto info = drain();

  size_t desc_size = 0;
  ASSERT_EQ(aclprofGetOpDescSize(&desc_size), ACL_SUCCESS);
  ASSERT_EQ(info.size(), 4 * desc_size);
  uint32_t n = 0;
  ASSERT_EQ(aclprofGetOpNum(info.data(), info.size(), &n), ACL_SUCCESS) << recent();
  ASSERT_EQ(n, 4u);
  const char *names[] = {"scale", "clip", "scale", "clip"};
  uint64_t last_end = 0;
  for (uint32_t i = 0; i < n; ++i) {
    size_t name_len = 0, type_len = 0;
    ASSERT_EQ(aclprofGetOpNameLen(info.data(), info.size(), i, &name_len), ACL_SUCCESS);
    EXPECT_EQ(name_len, std::string(names[i]).size() + 1);
    std::vector<char> name(name_len), type(ACL_PROF_MAX_OP_TYPE_LEN);
    ASSERT_EQ(aclprofGetOpName(info.data(), info.size(), i, name.data(), name.size()), ACL_SUCCESS);
    EXPECT_STREQ(name.data(), names[i]);
    ASSERT_EQ(aclprofGetOpTypeLen(info.data(), info.size(), i, &type_len), ACL_SUCCESS);
    ASSERT_EQ(aclprofGetOpType(info.data(), info.size(), i, type.data(), type.size()), ACL_SUCCESS);
    EXPECT_EQ(std::string(type.data()).size() + 1, type_len);
    EXPECT_FALSE(std::string(type.data()).empty());
    const uint64_t start = aclprofGetOpStart(info.data(), info.size(), i),
                   end = aclprofGetOpEnd(info.data(), info.size(), i);
    EXPECT_GT(start, 0u);
    EXPECT_GE(end, start);
    EXPECT_GE(start, last_end);  // the ops ran one after another, in graph order
    EXPECT_EQ(aclprofGetOpDuration(info.data(), info.size(), i), end - start);
    EXPECT_EQ(aclprofGetModelId(info.data(), info.size(), i), id_);
    EXPECT_EQ(aclprofGetOpFlag(info.data(), info.size(), i), ACL_SUBSCRIBE_OP);
    last_end = end;
  }
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

TEST_F(ProfSubscribe, MisuseIsRefusedWithAReason) {
  EXPECT_EQ(aclprofModelUnSubscribe(id_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("is not subscribed"), std::string::npos) << recent();
  int closed = 1000;
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &closed), nullptr);
  EXPECT_NE(recent().find("not an open file"), std::string::npos) << recent();
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds_[1]), nullptr);
  EXPECT_EQ(aclprofModelSubscribe(id_, nullptr), ACL_ERROR_INVALID_PARAM);

  aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config, nullptr) << recent();
  EXPECT_EQ(aclprofModelSubscribe(id_ + 100, config), ACL_ERROR_INVALID_MODEL_ID);
  ASSERT_EQ(aclprofModelSubscribe(id_, config), ACL_SUCCESS) << recent();
  ASSERT_EQ(execute(), ACL_SUCCESS) << recent();
  const auto info = drain();
  ASSERT_EQ(info.size(), 2 * 256u);
  EXPECT_EQ(aclprofGetOpStart(info.data(), info.size(), 0), 0u);  // timeInfoSwitch 0: no times
  uint32_t n = 0;
  EXPECT_EQ(aclprofGetOpNum(info.data(), info.size() - 1, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("not a whole number of op records"), std::string::npos) << recent();
  EXPECT_EQ(aclprofGetOpEnd(info.data(), info.size(), 2), 0u);
  EXPECT_NE(recent().find("index 2 is past the 2 op records"), std::string::npos) << recent();
  char small[3];
  EXPECT_EQ(aclprofGetOpName(info.data(), info.size(), 0, small, sizeof small),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("opNameLen 3 is too short"), std::string::npos) << recent();
  const std::vector<char> junk(256, 'x');
  EXPECT_EQ(aclprofGetOpNum(junk.data(), junk.size(), &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recent().find("does not hold op records"), std::string::npos) << recent();

  // A reader that went away fails the writes, not the process or the execution.
  close(fds_[0]);
  fds_[0] = -1;
  EXPECT_EQ(execute(), ACL_SUCCESS) << recent();
  EXPECT_EQ(aclprofModelUnSubscribe(id_), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
