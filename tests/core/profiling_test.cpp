// Profiling (acl/acl_prof.h): a session between aclprofStart and aclprofStop records the
// timeline trace into the aclprofInit directory; user ranges land on it; misuse gets the
// profiling error codes.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "acl/acl_prof.h"
#include "core/fixture.h"

namespace {

using oat::RuntimeTest;
namespace fs = std::filesystem;

class Profiling : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    dir_ =
        fs::temp_directory_path() / ("openacl_prof_test_" + std::to_string(getpid())) / "results";
    fs::remove_all(dir_.parent_path());
  }
  void TearDown() override {
    RuntimeTest::TearDown();
    fs::remove_all(dir_.parent_path());
  }
  aclError init() { return aclprofInit(dir_.c_str(), dir_.string().size()); }
  aclprofConfig *config() {
    uint32_t devices[] = {0};
    return aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                               ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
  }
  std::vector<nlohmann::json> traces() const {
    std::vector<nlohmann::json> all;
    for (const auto &e : fs::directory_iterator(dir_)) {
      std::ifstream in(e.path());
      all.push_back(nlohmann::json::parse(in));
    }
    return all;
  }
  static bool has_event(const nlohmann::json &trace, const std::string &name) {
    for (const auto &ev : trace["traceEvents"])
      if (ev.value("name", "") == name) return true;
    return false;
  }
  static int device_events(const nlohmann::json &trace) {
    int n = 0;
    for (const auto &ev : trace["traceEvents"])
      n += ev.value("ph", "") == "X" && ev.value("pid", 0) == 100;
    return n;
  }
  fs::path dir_;
};

TEST_F(Profiling, ASessionWritesTheTimelineWithTheProgramsRanges) {
  ASSERT_ACL_OK(init());
  aclprofConfig *cfg = config();
  ASSERT_NE(cfg, nullptr) << oat::recent_msg();
  void *before = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&before, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(before, 256, 1, 256));  // before the session: not in its trace
  ASSERT_ACL_OK(aclprofStart(cfg));
  void *stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  const char msg[] = "preprocess \"batch\"";
  ASSERT_ACL_OK(aclprofSetStampTraceMessage(stamp, msg, sizeof msg - 1));
  ASSERT_ACL_OK(aclprofPush(stamp));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtMemsetAsync(before, 256, 2, 256, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclprofPop());
  uint32_t range = 0;
  ASSERT_ACL_OK(aclprofRangeStart(stamp, &range));
  ASSERT_ACL_OK(aclprofRangeStop(range));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(range));
  ASSERT_ACL_OK(aclprofMarkEx("checkpoint", 10, s));
  aclprofStepInfo *step = aclprofCreateStepInfo();
  ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, s));
  ASSERT_ACL_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, s));
  aclprofDestroyStepInfo(step);
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclrtMemsetAsync(before, 256, 3, 256, s));  // after the session: not in it either
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  aclprofDestroyStamp(stamp);
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());

  const auto all = traces();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(device_events(all[0]), 1) << "exactly the memset enqueued during the session";
  EXPECT_TRUE(has_event(all[0], msg));
  EXPECT_TRUE(has_event(all[0], "checkpoint"));
  EXPECT_TRUE(has_event(all[0], "step"));
  EXPECT_TRUE(has_event(all[0], "aclrtSynchronizeStream"));
}

TEST_F(Profiling, MisuseGetsTheProfilingCodes) {
  aclprofConfig *cfg = config();
  ASSERT_NE(cfg, nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStart(cfg));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize());
  ASSERT_ACL_OK(init());
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN, init());
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStop(cfg));
  ASSERT_ACL_OK(aclprofStart(cfg));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(cfg));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofStart(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofPop());

  uint32_t bad_device[] = {7};
  EXPECT_EQ(aclprofCreateConfig(bad_device, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_NE(oat::recent_msg().find("aclprofCreateConfig"), std::string::npos) << oat::recent_msg();
  uint32_t dev0[] = {0};
  EXPECT_EQ(aclprofCreateConfig(dev0, 1, static_cast<aclprofAicoreMetrics>(42), nullptr,
                                ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_NE(oat::recent_msg().find("aicoreMetrics 42"), std::string::npos) << oat::recent_msg();
  EXPECT_EQ(aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, nullptr, 0), nullptr);
  EXPECT_NE(oat::recent_msg().find("dataTypeConfig"), std::string::npos) << oat::recent_msg();
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(1, nullptr));
  EXPECT_NE(oat::recent_msg().find("profSubscribeConfig is NULL"), std::string::npos)
      << oat::recent_msg();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclprofSetConfig(static_cast<aclprofConfigType>(99), "1", 1));
  EXPECT_ACL_OK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));
  ASSERT_ACL_OK(aclprofFinalize());  // stops the running session and writes it
  EXPECT_EQ(traces().size(), 1u);
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(cfg));
}

TEST_F(Profiling, AclFinalizeEndsARunningSession) {
  ASSERT_ACL_OK(init());
  aclprofConfig *cfg = config();
  ASSERT_ACL_OK(aclprofStart(cfg));
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemsetAsync(p, 64, 0, 64, nullptr));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  const auto all = traces();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(device_events(all[0]), 1);
  ASSERT_ACL_OK(aclInit(nullptr));  // a fresh runtime has no profiling state
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_NOT_RUN, aclprofStart(cfg));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
}

}  // namespace

namespace {

using ProfilerConfig = oat::BareRuntimeTest;

TEST_F(ProfilerConfig, AclJsonProfilerSwitchRecordsFromInitToFinalize) {
  const fs::path dir =
      fs::temp_directory_path() / ("openacl_prof_json_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string json = (dir / "acl.json").string();
  std::ofstream(json) << R"({"profiler": {"switch": "on", "output": ")" << (dir / "prof").string()
                      << R"(", "aicpu": "on"}})";
  ASSERT_ACL_OK(aclInit(json.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_PROF_ALREADY_RUN, aclprofInit("/tmp", 4));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(p, 64, 0, 64));
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  ASSERT_TRUE(fs::exists(dir / "prof"));
  int files = 0;
  for (const auto &e : fs::directory_iterator(dir / "prof")) {
    ++files;
    std::ifstream in(e.path());
    const auto trace = nlohmann::json::parse(in);
    EXPECT_FALSE(trace["traceEvents"].empty());
  }
  EXPECT_EQ(files, 1);
  std::ofstream(json) << R"({"profiler": {"switch": "maybe"}})";
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PROFILING_CONFIG, aclInit(json.c_str()));
  fs::remove_all(dir);
}

}  // namespace

namespace {

// With OPENACL_TRACE (or OPENACL_CHECK) on, a session's recorder runs after that observer:
// both see the session's work, the trace also what came before and after.
TEST_F(ProfilerConfig, ASessionChainsAfterTheDiagnosticsObserver) {
  const fs::path dir =
      fs::temp_directory_path() / ("openacl_prof_chain_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string trace = (dir / "trace.json").string();
  setenv("OPENACL_TRACE", trace.c_str(), 1);
  ASSERT_ACL_OK(aclInit(nullptr));
  unsetenv("OPENACL_TRACE");
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtMemsetAsync(p, 64, 1, 64, nullptr));  // before the session: done before it starts
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  ASSERT_ACL_OK(aclprofInit((dir / "prof").c_str(), (dir / "prof").string().size()));
  uint32_t devices[] = {0};
  aclprofConfig *cfg =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  ASSERT_ACL_OK(aclprofStart(cfg));
  ASSERT_ACL_OK(aclrtMemsetAsync(p, 64, 2, 64, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  ASSERT_ACL_OK(aclprofStop(cfg));
  ASSERT_ACL_OK(aclrtMemsetAsync(p, 64, 3, 64, nullptr));  // after it
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  ASSERT_ACL_OK(aclprofDestroyConfig(cfg));
  ASSERT_ACL_OK(aclprofFinalize());
  ASSERT_ACL_OK(aclrtResetDevice(0));
  ASSERT_ACL_OK(aclFinalize());
  auto device_tasks = [](const fs::path &file) {
    std::ifstream in(file);
    const auto trace = nlohmann::json::parse(in);
    int n = 0;
    for (const auto &ev : trace["traceEvents"])
      n += ev.value("ph", "") == "X" && ev.value("pid", 0) == 100;
    return n;
  };
  EXPECT_EQ(device_tasks(trace), 3);
  const auto session = *fs::directory_iterator(dir / "prof");
  EXPECT_EQ(device_tasks(session.path()), 1);
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
