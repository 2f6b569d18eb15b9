// `openacl run`: loads a model through the public AscendCL API, feeds random or given inputs,
// runs the iterations round-robin over the streams (events time each execution on the device
// timeline), and prints a report. Outputs of dynamic shape are sized by a probe execution:
// openacl writes the output shapes into the output dataset's tensor descriptors even when the
// buffers are too small.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "commands.h"
#include "npy.h"
#include "openacl/openacl_isa.h"
#include "run_gears.h"
#include "trace_commands.h"

namespace openacl_tool {
namespace {

void check(aclError e, const std::string &what) {
  if (e != ACL_SUCCESS) {
    const char *msg = aclGetRecentErrMsg();
    throw std::runtime_error(what + " failed (error " + std::to_string(e) + ")" +
                             (msg && *msg ? std::string(": ") + msg : ""));
  }
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string dims_text(const std::vector<int64_t> &dims) {
  std::string s;
  for (auto d : dims) s += (s.empty() ? "" : "x") + (d < 0 ? std::string("?") : std::to_string(d));
  return s.empty() ? "scalar" : s;
}

std::string mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / 1048576.0);
  return buf;
}

std::pair<std::string, std::string> split_spec(const std::string &spec, const char *option) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::runtime_error(std::string(option) + " '" + spec + "': expected name=value");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

std::vector<int64_t> parse_dims(const std::string &text) {
  std::vector<int64_t> dims;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('x', pos);
    if (end == std::string::npos) end = text.size();
    dims.push_back(std::stoll(text.substr(pos, end - pos)));
    pos = end + 1;
  }
  return dims;
}

const char *dtype_name(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return "float32";
    case ACL_FLOAT16:
      return "float16";
    case ACL_INT32:
      return "int32";
    case ACL_INT64:
      return "int64";
    case ACL_INT8:
      return "int8";
    case ACL_UINT8:
      return "uint8";
    case ACL_BOOL:
      return "bool";
    default:
      return "other";
  }
}

// Host data: seeded uniform [0, 1) for floats, zeros otherwise.
std::vector<uint8_t> random_bytes(aclDataType t, size_t count, uint32_t seed) {
  std::vector<uint8_t> bytes(count * aclDataTypeSize(t), 0);
  if (t == ACL_FLOAT) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    auto *p = reinterpret_cast<float *>(bytes.data());
    for (size_t i = 0; i < count; ++i) p[i] = u(gen);
  }
  return bytes;
}

struct Io {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> dims;
  size_t bytes = 0;
};

size_t element_count(const std::vector<int64_t> &dims) {
  size_t n = 1;
  for (auto d : dims) n *= static_cast<size_t>(d);
  return n;
}

// Datasets over device buffers of the given sizes.
struct DeviceSet {
  aclmdlDataset *ds = nullptr;
  std::vector<void *> ptrs;
  DeviceSet() : ds(aclmdlCreateDataset()) {}
  ~DeviceSet() {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
    for (void *p : ptrs) aclrtFree(p);
  }
  void add(size_t bytes) {
    void *p = nullptr;
    check(aclrtMalloc(&p, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    ptrs.push_back(p);
    check(aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(p, bytes)), "aclmdlAddDatasetBuffer");
  }
};

void progress(int done, int total) {
  const int width = 40, filled = total ? done * width / total : width;
  std::printf("\r  [%s%s] %d/%d", std::string(filled, '#').c_str(),
              std::string(width - filled, ' ').c_str(), done, total);
  std::fflush(stdout);
  if (done == total) std::printf("\n");
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double rank = p / 100.0 * (v.size() - 1);
  const size_t lo = static_cast<size_t>(rank);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (rank - lo);
}

std::string file_name_of(std::string name) {
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return name;
}

// One execution with the model dump on (aclmdlInitDump / aclmdlSetDump) for every layer.
void dump_layers(const RunOptions &opt, uint32_t id, aclmdlDataset *in, aclmdlDataset *out) {
  const auto config = std::filesystem::temp_directory_path() /
                      ("openacl_dump_" + std::to_string(getpid()) + ".json");
  const std::string model_name = std::filesystem::path(opt.model).stem().string();
  std::ofstream(config) << "{\"dump\": {\"dump_path\": \""
                        << std::filesystem::absolute(opt.dump_dir).string()
                        << "\", \"dump_list\": [{\"model_name\": \"" << model_name << "\"}]}}";
  check(aclmdlInitDump(), "aclmdlInitDump");
  const aclError set = aclmdlSetDump(config.c_str());
  std::filesystem::remove(config);
  check(set, "aclmdlSetDump");
  check(aclmdlExecute(id, in, out), "aclmdlExecute");
  check(aclmdlFinalizeDump(), "aclmdlFinalizeDump");
  size_t files = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(opt.dump_dir))
    files += e.is_regular_file();
  std::printf("dumped the layers of one execution: %zu .npy files under %s\n", files,
              opt.dump_dir.c_str());
}

int run(const RunOptions &opt) {
  // The profile is read from the trace, which aclFinalize writes.
  std::string trace = opt.trace;
  if (opt.profile && trace.empty())
    trace = (std::filesystem::temp_directory_path() /
             ("openacl_profile_" + std::to_string(getpid()) + ".json"))
                .string();
  if (!trace.empty()) setenv("OPENACL_TRACE", trace.c_str(), 1);  // read by aclInit
  check(aclInit(nullptr), "aclInit");
  check(aclrtSetDevice(opt.device), "aclrtSetDevice(" + std::to_string(opt.device) + ")");
  std::vector<aclrtStream> streams(opt.streams);
  for (auto &s : streams) check(aclrtCreateStream(&s), "aclrtCreateStream");

  size_t free0 = 0, total = 0, free1 = 0;
  check(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), "aclrtGetMemInfo");
  const double t0 = now_ms();
  uint32_t id = 0;
  check(aclmdlLoadFromFile(opt.model.c_str(), &id), "aclmdlLoadFromFile");
  const double load_ms = now_ms() - t0;
  check(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), "aclrtGetMemInfo");
  aclmdlDesc *desc = aclmdlCreateDesc();
  check(aclmdlGetDesc(desc, id), "aclmdlGetDesc");

  // Inputs: shapes from --input files, --shape, --batch, or the model.
  std::map<std::string, std::vector<int64_t>> shapes;
  std::map<std::string, NpyArray> files;
  for (const auto &spec : opt.shapes) {
    auto [name, dims] = split_spec(spec, "--shape");
    shapes[name] = parse_dims(dims);
  }
  for (const auto &spec : opt.inputs) {
    auto [name, path] = split_spec(spec, "--input");
    files[name] = read_npy(path);
  }
  std::vector<Io> inputs(aclmdlGetNumInputs(desc));
  // A model with gears takes one of them: the one --shape / --batch ask for, else its last.
  size_t gear_input = inputs.size();
  if (size_t at = 0; aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &at) == ACL_SUCCESS)
    gear_input = at;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Io &in = inputs[i];
    in.name = aclmdlGetInputNameByIndex(desc, i);
    in.dtype = aclmdlGetInputDataType(desc, i);
    aclmdlIODims d{};
    check(aclmdlGetInputDims(desc, i, &d), "aclmdlGetInputDims");
    in.dims.assign(d.dims, d.dims + d.dimCount);
    if (i == gear_input) continue;
    if (files.count(in.name)) in.dims = files[in.name].dims;
    if (shapes.count(in.name)) in.dims = shapes[in.name];
    if (opt.batch > 0 && !in.dims.empty()) in.dims[0] = opt.batch;
  }
  std::vector<Gear> gears;
  const Gear *gear = nullptr;
  if (gear_input < inputs.size()) {
    std::vector<std::vector<int64_t>> declared, asked;
    for (size_t i = 0; i < gear_input; ++i) {
      aclmdlIODims d{};
      check(aclmdlGetInputDims(desc, i, &d), "aclmdlGetInputDims");
      declared.emplace_back(d.dims, d.dims + d.dimCount);
      asked.push_back(inputs[i].dims);
    }
    gears = model_gears(desc, declared);
    gear = pick_gear(gears, asked);
    if (!gear)
      throw std::runtime_error(
          "the shapes asked for are no gear of the model (see aclmdlGetDynamicBatch / HW / "
          "InputDynamicDims; without --shape or --batch the last gear runs)");
    for (size_t i = 0; i < gear_input; ++i) inputs[i].dims = gear->dims[i];
  }
  for (auto &in : inputs) {
    for (auto x : in.dims)
      if (x < 0)
        throw std::runtime_error("input '" + in.name + "' has dynamic dims " + dims_text(in.dims) +
                                 ": give them with --shape " + in.name + "=..." +
                                 " (e.g. 1x3x48x192)");
    in.bytes = element_count(in.dims) * aclDataTypeSize(in.dtype);
  }
  for (const auto &[name, arr] : files) {
    auto it =
        std::find_if(inputs.begin(), inputs.end(), [&](const Io &in) { return in.name == name; });
    if (it == inputs.end())
      throw std::runtime_error("--input " + name + ": the model has no input of that name");
    if (arr.dtype != it->dtype)
      throw std::runtime_error("--input " + name + ": the file's dtype does not match the model's");
    if (arr.dims != it->dims)
      throw std::runtime_error("--input " + name + ": the file's shape " + dims_text(arr.dims) +
                               " is not the input shape " + dims_text(it->dims));
  }

  DeviceSet in_set;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Io &in = inputs[i];
    in_set.add(in.bytes);
    const auto host = files.count(in.name) ? files[in.name].bytes
                                           : random_bytes(in.dtype, element_count(in.dims),
                                                          opt.seed + static_cast<uint32_t>(i));
    check(aclrtMemcpy(in_set.ptrs[i], in.bytes, host.data(), in.bytes, ACL_MEMCPY_HOST_TO_DEVICE),
          "aclrtMemcpy");
    aclTensorDesc *td =
        aclCreateTensorDesc(in.dtype, static_cast<int>(in.dims.size()), in.dims.data(),
                            in.dims.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND);
    check(aclmdlSetDatasetTensorDesc(in_set.ds, td, i), "aclmdlSetDatasetTensorDesc");
    aclDestroyTensorDesc(td);
  }
  if (gear) check(gear->choose(id, in_set.ds, gear_input), "aclmdlSetDynamic*");

  // Output shapes: a probe with empty buffers makes the model write them into the dataset.
  std::vector<Io> outputs(aclmdlGetNumOutputs(desc));
  {
    DeviceSet probe;
    for (size_t j = 0; j < outputs.size(); ++j) probe.add(0);
    const aclError e = aclmdlExecute(id, in_set.ds, probe.ds);
    if (e != ACL_SUCCESS && e != ACL_ERROR_MODEL_OUTPUT_NOT_MATCH) check(e, "aclmdlExecute");
    for (size_t j = 0; j < outputs.size(); ++j) {
      const aclTensorDesc *td = aclmdlGetDatasetTensorDesc(probe.ds, j);
      if (!td)
        throw std::runtime_error("the runtime gave no shape for output " + std::to_string(j));
      Io &o = outputs[j];
      o.name = aclmdlGetOutputNameByIndex(desc, j);
      o.dtype = aclGetTensorDescType(td);
      for (size_t k = 0; k < aclGetTensorDescNumDims(td); ++k) {
        int64_t d = 0;
        aclGetTensorDescDimV2(td, k, &d);
        o.dims.push_back(d);
      }
      o.bytes = aclGetTensorDescSize(td);
    }
  }
  std::vector<std::unique_ptr<DeviceSet>> out_sets;
  for (size_t s = 0; s < streams.size(); ++s) {
    out_sets.push_back(std::make_unique<DeviceSet>());
    for (const auto &o : outputs) out_sets.back()->add(o.bytes);
  }

  if (!opt.dump_dir.empty()) dump_layers(opt, id, in_set.ds, out_sets[0]->ds);

  // Warm-up (plans and workspaces are made at the first execution of a shape).
  for (size_t s = 0; s < streams.size(); ++s)
    check(aclmdlExecuteAsync(id, in_set.ds, out_sets[s]->ds, streams[s]), "aclmdlExecuteAsync");
  for (auto s : streams) check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");

  const int k = opt.iterations;
  std::vector<aclrtEvent> start(k), end(k);
  for (int i = 0; i < k; ++i) {
    check(aclrtCreateEventWithFlag(&start[i], ACL_EVENT_TIME_LINE), "aclrtCreateEventWithFlag");
    check(aclrtCreateEventWithFlag(&end[i], ACL_EVENT_TIME_LINE), "aclrtCreateEventWithFlag");
  }
  const bool tty = isatty(STDOUT_FILENO);
  std::printf("running %d iterations on %zu stream(s) of device %d\n", k, streams.size(),
              opt.device);
  const double w0 = now_ms();
  for (int i = 0; i < k; ++i) {
    const size_t s = static_cast<size_t>(i) % streams.size();
    check(aclrtRecordEvent(start[i], streams[s]), "aclrtRecordEvent");
    check(aclmdlExecuteAsync(id, in_set.ds, out_sets[s]->ds, streams[s]), "aclmdlExecuteAsync");
    check(aclrtRecordEvent(end[i], streams[s]), "aclrtRecordEvent");
  }
  std::vector<double> latency(k);
  for (int i = 0; i < k; ++i) {
    check(aclrtSynchronizeEvent(end[i]), "aclrtSynchronizeEvent");
    float ms = 0;
    check(aclrtEventElapsedTime(&ms, start[i], end[i]), "aclrtEventElapsedTime");
    latency[i] = ms;
    if (tty) progress(i + 1, k);
  }
  const double wall_ms = now_ms() - w0;
  for (auto s : streams) check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  size_t free2 = 0;
  check(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), "aclrtGetMemInfo");

  size_t io_bytes = 0;
  for (const auto &in : inputs) io_bytes += in.bytes;
  for (const auto &o : outputs) io_bytes += o.bytes * streams.size();
  const size_t file_size = std::filesystem::file_size(opt.model);
  const int batch =
      inputs.empty() || inputs[0].dims.empty() ? 1 : static_cast<int>(inputs[0].dims[0]);

  std::printf("\nmodel        %s (%s)\n", opt.model.c_str(), mib(file_size).c_str());
  int64_t cores = 0;
  check(aclrtGetDeviceInfo(static_cast<uint32_t>(opt.device), ACL_DEV_ATTR_AICORE_CORE_NUM, &cores),
        "aclrtGetDeviceInfo");
  const char *kernels = "?", *onednn = "?";
  check(openaclGetIsa(&kernels, &onednn), "openaclGetIsa");
  const char *cap = std::getenv("OPENACL_MAX_ISA");
  std::printf("device       %d: %lld AI cores, ISA %s (oneDNN %s%s%s)\n", opt.device,
              static_cast<long long>(cores), kernels, onednn, cap ? ", OPENACL_MAX_ISA=" : "",
              cap ? cap : "");
  std::printf("load time    %.1f ms\n", load_ms);
  std::printf(
      "device mem   weights %s, peak in use %s (weights + workspaces of %zu stream(s), I/O buffers "
      "excluded)\n",
      mib(free0 - free1).c_str(), mib(free0 - free2 - io_bytes).c_str(), streams.size());
  for (const auto &in : inputs)
    std::printf("input        %s %s %s\n", in.name.c_str(), dtype_name(in.dtype),
                dims_text(in.dims).c_str());
  std::printf(
      "latency      p50 %.3f ms   p90 %.3f ms   p99 %.3f ms   (device time per execution)\n",
      percentile(latency, 50), percentile(latency, 90), percentile(latency, 99));
  std::printf("throughput   %.1f executions/s, %.1f samples/s (%d executions in %.1f ms)\n",
              k * 1000.0 / wall_ms, k * batch * 1000.0 / wall_ms, k, wall_ms);

  if (!opt.output_dir.empty()) std::filesystem::create_directories(opt.output_dir);
  for (size_t j = 0; j < outputs.size(); ++j) {
    const Io &o = outputs[j];
    NpyArray a{o.dtype, o.dims, std::vector<uint8_t>(o.bytes)};
    check(aclrtMemcpy(a.bytes.data(), o.bytes, out_sets[0]->ptrs[j], o.bytes,
                      ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy");
    double sum = 0, abs_sum = 0;
    if (o.dtype == ACL_FLOAT) {
      const auto *p = reinterpret_cast<const float *>(a.bytes.data());
      for (size_t i = 0; i < o.bytes / 4; ++i) sum += p[i], abs_sum += std::fabs(p[i]);
    } else if (o.dtype == ACL_FLOAT16) {
      const auto *p = reinterpret_cast<const aclFloat16 *>(a.bytes.data());
      for (size_t i = 0; i < o.bytes / 2; ++i)
        sum += aclFloat16ToFloat(p[i]), abs_sum += std::fabs(aclFloat16ToFloat(p[i]));
    }
    std::printf("output       %s %s %s   sum %.6g   mean|x| %.6g\n", o.name.c_str(),
                dtype_name(o.dtype), dims_text(o.dims).c_str(), sum,
                o.bytes ? abs_sum / (o.bytes / aclDataTypeSize(o.dtype)) : 0.0);
    if (!opt.output_dir.empty()) {
      const std::string path =
          (std::filesystem::path(opt.output_dir) / (file_name_of(o.name) + ".npy")).string();
      write_npy(path, a);
      std::printf("             -> %s\n", path.c_str());
    }
  }

  for (int i = 0; i < k; ++i) aclrtDestroyEvent(start[i]), aclrtDestroyEvent(end[i]);
  out_sets.clear();
  aclmdlDestroyDesc(desc);
  check(aclmdlUnload(id), "aclmdlUnload");
  for (auto s : streams) aclrtDestroyStream(s);
  aclrtResetDevice(opt.device);
  aclFinalize();
  if (opt.profile) {
    std::printf("\n");
    openacl_print_profile(trace, static_cast<size_t>(k), 25);
    if (opt.trace.empty()) std::filesystem::remove(trace);
  }
  return 0;
}

}  // namespace

int run_command(const RunOptions &options) {
  try {
    return run(options);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "openacl run: %s\n", e.what());
    return 1;
  }
}

}  // namespace openacl_tool
