// atc: CANN's model converter, with the command line of the samples' READMEs
//   atc --model=resnet50.onnx --framework=5 --output=resnet50 --soc_version=Ascend310
// writes <output>.om, openacl's model file (include/openacl/openacl_model.h), which every
// aclmdlLoad* call and `openacl run` load. Only ONNX converts (--framework=5).
//   atc --singleop=op_list.json --soc_version=Ascend310 --output=op_models
// checks each op of the list and writes its op model file (atc_singleop.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "atc_singleop.h"
#include "openacl/openacl_model.h"

namespace {

bool read_file(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

int failed(const std::string &message) {
  std::fprintf(stderr, "ATC run failed: %s\n", message.c_str());
  return 1;
}

// What to do with a model of a framework openacl does not read.
std::string framework_advice(int framework) {
  const std::map<int, std::string> names = {{0, "Caffe"}, {1, "MindSpore"}, {3, "TensorFlow"}};
  auto it = names.find(framework);
  if (it == names.end())
    return "--framework=" + std::to_string(framework) + " is not a framework atc knows (5 is ONNX)";
  const std::map<int, std::string> exporters = {
      {0, "caffe2onnx"}, {1, "mindspore.export(..., file_format='ONNX')"}, {3, "tf2onnx"}};
  return "--framework=" + std::to_string(framework) + " (" + it->second +
         "): openacl's atc converts ONNX models only; export the model to ONNX (" +
         exporters.at(framework) + ") and convert that with --framework=5";
}

// CANN's atc takes long options with one dash too (the samples' READMEs write
// "-output_type=FP32"); CLI11 reads those as short flags, so they get their second dash here.
std::vector<std::string> normalized(int argc, char **argv) {
  std::vector<std::string> args;
  for (int i = argc - 1; i > 0; --i) {  // CLI11 takes the arguments in reverse order
    std::string a = argv[i];
    if (a.size() > 2 && a[0] == '-' && a[1] != '-') a.insert(0, "-");
    args.push_back(std::move(a));
  }
  return args;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"atc: converts an ONNX model into openacl's .om model file"};
  std::string model, output, log = "null", insert_op_conf, singleop;
  int framework = -1, mode = 0;
  std::map<std::string, std::string> options;
  auto *model_opt = app.add_option("--model", model, "the model file (ONNX)");
  app.add_option("--framework", framework,
                 "the model's framework: 5 (ONNX); 0 Caffe, 1 MindSpore, 3 TensorFlow are "
                 "refused with what to do");
  app.add_option("--singleop", singleop,
                 "an op list (JSON) to compile into op models, instead of --model")
      ->excludes(model_opt);
  app.add_option("--output", output,
                 "the .om to write, without the .om suffix (with --singleop: a folder)")
      ->required();
  app.add_option("--mode", mode, "0: convert (the only mode openacl has)")->capture_default_str();
  app.add_option("--insert_op_conf", insert_op_conf, "AIPP configuration file");
  std::string weight;
  app.add_option("--weight", weight,
                 "weights of a Caffe model (--framework=0, which openacl refuses)");
  app.add_option("--log", log, "message level: debug, info, warning, error, null")
      ->check(CLI::IsMember({"debug", "info", "warning", "error", "null"}));
  for (const char *name :
       {"soc_version", "input_shape", "input_format", "dynamic_batch_size", "dynamic_image_size",
        "dynamic_dims", "output_type", "out_nodes", "precision_mode", "input_fp16_nodes",
        "op_select_implmode", "save_original_model"}) {
    auto *opt = app.add_option(std::string("--") + name, options[name]);
    if (std::string(name) == "soc_version")
      opt->required()->description("the target chip, e.g. Ascend310P3");
  }
  try {
    app.parse(normalized(argc, argv));
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }

  if (mode != 0)
    return failed("--mode=" + std::to_string(mode) + ": openacl's atc only converts (--mode=0)");
  if (!singleop.empty()) {
    const std::string error = atc::compile_single_ops(singleop, output);
    if (!error.empty()) return failed(error);
    std::printf("ATC run success, welcome to the next use.\n");
    return 0;
  }
  if (model.empty()) return failed("--model or --singleop is required");
  if (framework == -1) return failed("--framework is required with --model (5: ONNX)");
  if (framework != 5) return failed(framework_advice(framework));
  std::string onnx;
  if (!read_file(model, onnx) || onnx.empty())
    return failed("--model: cannot read '" + model + "'");
  if (!insert_op_conf.empty() && !read_file(insert_op_conf, options["insert_op_conf"]))
    return failed("--insert_op_conf: cannot read '" + insert_op_conf + "'");

  std::vector<const char *> names, values;
  for (const auto &[k, v] : options) {
    if (v.empty()) continue;
    names.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  const bool has_suffix = output.size() > 3 && output.compare(output.size() - 3, 3, ".om") == 0;
  const std::string om = has_suffix ? output : output + ".om";
  if (openaclConvertModel(onnx.data(), onnx.size(), names.data(), values.data(), names.size(),
                          om.c_str()) != ACL_SUCCESS)
    return failed(aclGetRecentErrMsg());
  if (log == "info" || log == "debug") std::printf("[INFO] %s -> %s\n", model.c_str(), om.c_str());
  std::printf("ATC run success, welcome to the next use.\n");
  return 0;
}
