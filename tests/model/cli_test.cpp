// The `openacl` command: `run` on a PP-OCR model (report, .npy outputs, per-op profile, errors
// in words) and `info`.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "model_helpers.h"

using namespace model_test;

namespace {

struct Result {
  int status;
  std::string out;
};

Result openacl(const std::string &args) {
  FILE *p = popen((std::string(OPENACL_TOOL) + " " + args + " 2>&1").c_str(), "r");
  Result r{-1, ""};
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  r.status = pclose(p);
  return r;
}

TEST(OpenaclCommand, RunReportsAndWritesOutputs) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("openacl_cli_" + std::to_string(getpid()));
  const Result r =
      openacl("run '" + cls_model() +
              "' --shape x=2x3x48x192 --streams 2 --iterations 6 --output '" + dir.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char *field : {"load time", "device mem", "AI cores, ISA", "p50", "p90", "p99",
                            "throughput", "softmax_0.tmp_0 float32 2x2"})
    EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
  const std::string npy = read_file((dir / "softmax_0.tmp_0.npy").string());
  ASSERT_GT(npy.size(), 16u);
  EXPECT_EQ(npy.substr(1, 5), "NUMPY");
  EXPECT_NE(npy.find("'shape': (2, 2)"), std::string::npos);
  EXPECT_EQ(npy.size() % 64, 16u);  // 64-byte aligned header + 4 floats
  std::filesystem::remove_all(dir);
}

TEST(OpenaclCommand, DumpWritesEveryLayerOfOneExecution) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("openacl_cli_dump_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = openacl("run '" + cls_model() +
                           "' --shape x=1x3x48x192 --iterations 2 --dump '" + dir.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("dumped the layers of one execution"), std::string::npos) << r.out;
  size_t outputs = 0, iterations = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.find(".output.0.npy") != std::string::npos) ++outputs;
    if (e.is_directory() && e.path().parent_path().filename() == "1")
      ++iterations;  // <model id>/<iteration>
  }
  EXPECT_GT(outputs, 50u) << "one file per layer of the classifier";
  EXPECT_EQ(iterations, 1u) << "only the one dumped execution";
  std::filesystem::remove_all(dir);
}

// The classifier has 53 convolutions: the profile counts them per execution, and the trace holds
// every op of every execution inside its model task.
TEST(OpenaclCommand, ProfileTimesEveryOpOfTheTimedExecutions) {
  const auto trace = std::filesystem::temp_directory_path() /
                     ("openacl_cli_profile_" + std::to_string(getpid()) + ".json");
  const Result r =
      openacl("run '" + cls_model() + "' --shape x=1x3x48x192 --iterations 3 --profile --trace '" +
              trace.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char *field :
       {"profile of 3 model execution(s)", "host overhead between consecutive ops", "op type",
        "HardSwish", "p2o.Conv.0 "})
    EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
  const size_t conv = r.out.find("Conv2D ");
  ASSERT_NE(conv, std::string::npos) << r.out;
  EXPECT_EQ(std::stoi(r.out.substr(conv + 6, 40)), 53) << r.out.substr(conv, 80);

  std::ifstream in(trace);
  const auto doc = nlohmann::json::parse(in);
  std::map<std::pair<int64_t, uint64_t>, std::pair<double, double>>
      model_tasks;  // (track, seq) -> span
  for (const auto &e : doc["traceEvents"])
    if (e.value("cat", "") == "model")
      model_tasks[{e["tid"].get<int64_t>(), e["args"]["seq"].get<uint64_t>()}] = {
          e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()};
  size_t ops = 0;
  for (const auto &e : doc["traceEvents"]) {
    if (e.value("cat", "") != "model_op") continue;
    ++ops;
    const auto task = model_tasks.find({e["tid"].get<int64_t>(), e["args"]["seq"].get<uint64_t>()});
    ASSERT_NE(task, model_tasks.end()) << e.dump();
    EXPECT_GE(e["ts"].get<double>(), task->second.first - 0.001) << e.dump();
    EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), task->second.second + 0.001)
        << e.dump();
  }
  EXPECT_EQ(ops % 125, 0u) << "125 ops per execution";
  EXPECT_GE(ops, 4u * 125u) << "the 3 timed executions and the warm-up";

  const Result last = openacl("trace profile '" + trace.string() + "' --last 1 --top 0");
  ASSERT_EQ(last.status, 0) << last.out;
  EXPECT_NE(last.out.find("profile of 1 model execution(s)"), std::string::npos) << last.out;
  EXPECT_NE(last.out.find("p2o.Conv.52 "), std::string::npos) << "--top 0 lists every op\n"
                                                              << last.out;
  const Result summary = openacl("trace summary '" + trace.string() + "'");
  ASSERT_EQ(summary.status, 0) << summary.out;
  EXPECT_EQ(summary.out.find("Conv2D"), std::string::npos) << "ops are no tasks\n" << summary.out;
  std::filesystem::remove(trace);
}

TEST(OpenaclCommand, DynamicInputWithoutShapeIsExplained) {
  const Result r = openacl("run '" + cls_model() + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--shape x="), std::string::npos) << r.out;
}

TEST(OpenaclCommand, BadModelFileIsExplained) {
  const std::string path = write_temp("bad.onnx", "not a model");
  const Result r = openacl("run '" + path + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("100013"), std::string::npos) << r.out;  // ACL_ERROR_PARSE_MODEL
  EXPECT_NE(r.out.find("not a valid ONNX model"), std::string::npos) << r.out;
}

TEST(OpenaclCommand, InfoListsDevices) {
  const Result r = openacl("info");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("AI cores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|      0 |"), std::string::npos) << r.out;
}

}  // namespace
