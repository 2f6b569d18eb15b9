// OPENACL_MAX_ISA (include/openacl/openacl_isa.h): each cap runs PP-OCR cls (batch 1 and 8,
// 2 AI cores), rec and det in a process of its own, since the ISA is chosen once per process; the
// outputs must match ONNX Runtime's as closely as uncapped runs do, and openaclGetIsa must
// report the capped ISA for openacl's kernels and for oneDNN.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "model_helpers.h"
#include "openacl/openacl_isa.h"

using namespace model_test;

namespace {

struct Case {
  std::string path;
  std::vector<int64_t> dims;
  TensorF input;
  std::vector<TensorF> reference;
};

struct Outcome {
  std::string kernels, onednn;
  double worst = -1;  // the largest relative error against ONNX Runtime
  std::string error;
};

// In the child: the cap set before anything in the process chose an ISA.
Outcome run_capped(const char *cap, const std::vector<Case> &cases) {
  setenv("OPENACL_MAX_ISA", cap, 1);
  unsetenv("ONEDNN_MAX_CPU_ISA");
  setenv("OPENACL_AI_CORES", "2", 1);
  Outcome o;
  try {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
      throw std::runtime_error("aclInit");
    const char *k = nullptr, *d = nullptr;
    if (openaclGetIsa(&k, &d) != ACL_SUCCESS) throw std::runtime_error("openaclGetIsa failed");
    o.kernels = k, o.onednn = d;
    for (const Case &c : cases) {
      AclModel model(c.path);
      const auto out = model.run(c.input);
      if (out.size() != c.reference.size()) throw std::runtime_error("output count differs");
      for (size_t j = 0; j < out.size(); ++j) {
        if (out[j].dims != c.reference[j].dims) throw std::runtime_error("output dims differ");
        o.worst = std::max(o.worst, relative_error(out[j].data, c.reference[j].data));
      }
    }
    aclrtResetDevice(0);
    aclFinalize();
  } catch (const std::exception &e) {
    o.error = e.what();
  }
  return o;
}

Outcome in_child(const char *cap, const std::vector<Case> &cases) {
  int fd[2];
  if (pipe(fd) != 0) return {"", "", -1, "pipe failed"};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const Outcome o = run_capped(cap, cases);
    const std::string line =
        o.kernels + " " + o.onednn + " " + std::to_string(o.worst) + " " + o.error;
    if (write(fd[1], line.data(), line.size()) < 0) _exit(2);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[512];
  ssize_t n;
  while ((n = read(fd[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome o;
  char k[64] = {}, d[64] = {};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      std::sscanf(text.c_str(), "%63s %63s %lf", k, d, &o.worst) != 3)
    return {"", "", -1, "the child failed: '" + text + "'"};
  o.kernels = k, o.onednn = d;
  if (const size_t at = text.find(' ', text.find(' ', text.find(' ') + 1) + 1);
      at != std::string::npos)
    o.error = text.substr(at + 1);
  return o;
}

std::string cpu_best() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    return "avx512";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c"))
    return "avx2";
  return "sse41";
}

// det with its pre-sigmoid map as the only output: on random inputs the sigmoid map is almost
// all zeros, too small for a relative error (ppocr_test.cpp).
std::string det_presigmoid() {
  onnx::ModelProto m;
  if (!m.ParseFromString(read_file(det_model()))) return "";
  std::string pre;
  for (const auto &n : m.graph().node())
    if (n.op_type() == "Sigmoid") pre = n.input(0);
  m.mutable_graph()->mutable_output(0)->set_name(pre);
  return write_temp("isa_det_presigmoid.onnx", m.SerializeAsString());
}

TEST(IsaCap, EachCapMatchesOnnxRuntimeAndReportsTheCap) {
  // The references are made before any child: the parent never picks an ISA itself.
  std::vector<Case> cases;
  for (auto &[path, dims, seed] :
       std::vector<std::tuple<std::string, std::vector<int64_t>, uint32_t>>{
           {cls_model(), {1, 3, 48, 192}, 11},
           {cls_model(), {8, 3, 48, 192}, 12},
           {rec_model(), {1, 3, 48, 320}, 13},
           // its neck's 3x3 convolutions at 40x40 take the AVX2 Winograd kernel
           {det_presigmoid(), {1, 3, 160, 160}, 14}}) {
    Case c{path, dims, random_input(dims, seed), {}};
    c.reference = ort_run(path, "x", c.input);
    cases.push_back(std::move(c));
  }
  const std::vector<std::string> order = {"sse41", "avx2", "avx512"};
  const std::string best = cpu_best();
  for (const std::string cap : {"sse41", "avx2", "avx512"}) {
    SCOPED_TRACE("OPENACL_MAX_ISA=" + cap);
    const Outcome o = in_child(cap.c_str(), cases);
    ASSERT_TRUE(o.error.empty()) << o.error;
    const std::string expected =
        std::find(order.begin(), order.end(), cap) < std::find(order.begin(), order.end(), best)
            ? cap
            : best;
    EXPECT_EQ(o.kernels, expected);
    EXPECT_EQ(o.onednn.substr(0, expected.size()), expected) << "oneDNN runs " << o.onednn;
    EXPECT_GE(o.worst, 0.0);
    EXPECT_LE(o.worst, 1e-4);
  }
}

}  // namespace
