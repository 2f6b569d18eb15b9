// The `openacl` command: `run` on a PP-OCR model (report, .npy outputs, errors in words) and
// `info`.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
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
  const auto dir = std::filesystem::temp_directory_path() / ("openacl_cli_" + std::to_string(getpid()));
  const Result r = openacl("run '" + cls_model() + "' --shape x=2x3x48x192 --streams 2 --iterations 6 --output '" +
                           dir.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char *field : {"load time", "device mem", "p50", "p90", "p99", "throughput", "softmax_0.tmp_0 float32 2x2"})
    EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
  const std::string npy = read_file((dir / "softmax_0.tmp_0.npy").string());
  ASSERT_GT(npy.size(), 16u);
  EXPECT_EQ(npy.substr(1, 5), "NUMPY");
  EXPECT_NE(npy.find("'shape': (2, 2)"), std::string::npos);
  EXPECT_EQ(npy.size() % 64, 16u);  // 64-byte aligned header + 4 floats
  std::filesystem::remove_all(dir);
}

TEST(OpenaclCommand, DumpWritesEveryLayerOfOneExecution) {
  const auto dir = std::filesystem::temp_directory_path() / ("openacl_cli_dump_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Result r = openacl("run '" + cls_model() + "' --shape x=1x3x48x192 --iterations 2 --dump '" + dir.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("dumped the layers of one execution"), std::string::npos) << r.out;
  size_t outputs = 0, iterations = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.find(".output.0.npy") != std::string::npos) ++outputs;
    if (e.is_directory() && e.path().parent_path().filename() == "1") ++iterations;  // <model id>/<iteration>
  }
  EXPECT_GT(outputs, 50u) << "one file per layer of the classifier";
  EXPECT_EQ(iterations, 1u) << "only the one dumped execution";
  std::filesystem::remove_all(dir);
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
