#include "model/convert.h"

#include <onnx/onnx_pb.h>

#include <charconv>
#include <set>

#include "model/model.h"
#include "model/om_file.h"
#include "model/onnx_import.h"

namespace openacl::model {
namespace {

constexpr size_t kMaxGears = 100;  // CANN's limit for every gear kind

[[noreturn]] void bad(const std::string &option, const std::string &msg) {
  fail(Errc::parse_model, "--" + option + ": " + msg);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

int64_t to_int(const std::string &option, const std::string &text) {
  int64_t v = 0;
  const char *end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) {
    if (text.find('~') != std::string::npos)
      bad(option,
          "'" + text +
              "' is a shape range; openacl takes -1 for a dynamic dim (ranges need no declaring)");
    bad(option, "'" + text + "' is not an integer");
  }
  return v;
}

std::vector<int64_t> to_ints(const std::string &option, const std::string &text) {
  std::vector<int64_t> v;
  for (const auto &part : split(text, ',')) v.push_back(to_int(option, part));
  return v;
}

std::string input_names(const Graph &g) {
  std::string s;
  for (int v : g.inputs) {
    s += s.empty() ? "" : ", ";
    s += g.values[v].name;
  }
  return s;
}

void apply_input_shape(Graph &g, const std::string &text) {
  std::set<std::string> seen;
  for (const auto &item : split(text, ';')) {
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos) bad("input_shape", "'" + item + "' is not name:dims");
    const std::string name = item.substr(0, colon);
    const auto dims = colon + 1 == item.size() ? std::vector<int64_t>{}
                                               : to_ints("input_shape", item.substr(colon + 1));
    int found = -1;
    for (int v : g.inputs)
      if (g.values[v].name == name) found = v;
    if (found < 0)
      bad("input_shape",
          "the model has no input named '" + name + "' (its inputs: " + input_names(g) + ")");
    if (!seen.insert(name).second) bad("input_shape", "input '" + name + "' is given twice");
    auto &declared = g.values[found].desc.dims;
    if (declared.size() != dims.size())
      bad("input_shape", "input '" + name + "' has " + std::to_string(declared.size()) +
                             " dims in the model; " + std::to_string(dims.size()) + " given");
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] < -1 || dims[i] == 0)
        bad("input_shape", "input '" + name + "' dim " + std::to_string(i) + " is " +
                               std::to_string(dims[i]) + " (a size > 0, or -1)");
    }
    declared = dims;  // as CANN's atc: a dim the export fixed may be set anew (planning checks it)
  }
}

// The inputs named take float16 data: each becomes a float16 input cast to its old type.
void apply_input_fp16_nodes(Graph &g, const std::string &text) {
  for (const auto &name : split(text, ';')) {
    size_t i = 0;
    while (i < g.inputs.size() && g.values[g.inputs[i]].name != name) ++i;
    if (i == g.inputs.size())
      bad("input_fp16_nodes",
          "the model has no input named '" + name + "' (its inputs: " + input_names(g) + ")");
    const int old = g.inputs[i];
    const auto to = g.values[old].desc.dtype;
    if (to != ops::DType::f32)
      bad("input_fp16_nodes", "input '" + name + "' is " + ops::dtype_name(to) + ", not float32");
    ops::TensorDesc desc = g.values[old].desc;
    desc.dtype = ops::DType::f16;
    g.values[old].name = name + ":atc_input_fp16";
    const int half = g.add_value(name, desc);
    g.inputs[i] = half;
    g.nodes.insert(g.nodes.begin(), Node{"Cast",
                                         "atc_input_fp16_" + name,
                                         {half},
                                         {old},
                                         {{"to", int64_t{onnx::TensorProto::FLOAT}}}});
  }
}

void apply_gears(Graph &g, GearKind kind, const std::string &option, const std::string &text) {
  Gears &gears = g.conversion.gears;
  gears.kind = kind;
  for (int v : g.inputs) gears.shapes.push_back(g.values[v].desc.dims);
  size_t total = 0;
  for (size_t i = 0; i < gears.shapes.size(); ++i) {
    size_t n = 0;
    for (auto d : gears.shapes[i]) n += d < 0;
    const size_t want = kind == GearKind::batch ? 1 : 2;
    if (n != 0 && kind != GearKind::dims && n != want)
      bad(option, "input '" + g.values[g.inputs[i]].name + "' has " + std::to_string(n) +
                      " dims of -1 in --input_shape; " +
                      (kind == GearKind::batch ? "a batch gear sets one (N)"
                                               : "an image size gear sets two (H and W)"));
    total += n;
  }
  if (total == 0) bad(option, "gears need dims of -1 in --input_shape for them to set");
  const size_t per_gear = kind == GearKind::batch ? 1 : kind == GearKind::image_size ? 2 : total;
  for (const auto &item : split(text, kind == GearKind::batch ? ',' : ';')) {
    auto values = to_ints(option, item);
    if (values.size() != per_gear)
      bad(option, "gear '" + item + "' has " + std::to_string(values.size()) +
                      " values; each gear needs " + std::to_string(per_gear));
    for (auto x : values)
      if (x <= 0) bad(option, "gear '" + item + "' has a value <= 0");
    if (gears.find_values(values) != Gears::npos) bad(option, "gear '" + item + "' is given twice");
    gears.values.push_back(std::move(values));
  }
  if (gears.values.size() < 2 || gears.values.size() > kMaxGears)
    bad(option, std::to_string(gears.values.size()) + " gears given; CANN takes 2 to " +
                    std::to_string(kMaxGears));
}

// "node:index" -> the value that node's output index produces.
int node_output(const Graph &g, const std::string &option, const std::string &item) {
  const size_t colon = item.rfind(':');
  if (colon == std::string::npos) bad(option, "'" + item + "' is not node_name:output_index");
  const std::string name = item.substr(0, colon);
  const int64_t index = to_int(option, item.substr(colon + 1));
  for (const Node &n : g.nodes) {
    if (n.name != name) continue;
    if (index < 0 || index >= static_cast<int64_t>(n.outputs.size()) || n.outputs[index] < 0)
      bad(option, "node '" + name + "' (" + n.op + ") has no output " + std::to_string(index));
    return n.outputs[index];
  }
  bad(option, "the model has no node named '" + name + "'");
}

void apply_out_nodes(Graph &g, const std::string &text) {
  std::vector<int> outputs;
  for (const auto &item : split(text, ';')) outputs.push_back(node_output(g, "out_nodes", item));
  g.outputs = std::move(outputs);
}

std::pair<int64_t, ops::DType> output_type(const std::string &text) {
  if (text == "FP32") return {onnx::TensorProto::FLOAT, ops::DType::f32};
  if (text == "FP16") return {onnx::TensorProto::FLOAT16, ops::DType::f16};
  if (text == "UINT8") return {onnx::TensorProto::UINT8, ops::DType::u8};
  bad("output_type", "'" + text + "' is not FP32, FP16 or UINT8");
}

// Converts graph output `index` with a Cast node at the end of the graph.
void cast_output(Graph &g, size_t index, const std::string &type) {
  const auto [onnx_type, dtype] = output_type(type);
  const int v = g.outputs[index];
  if (g.values[v].desc.dtype == dtype) return;
  ops::TensorDesc desc = g.values[v].desc;
  desc.dtype = dtype;
  const std::string name = g.values[v].name;
  g.values[v].name = name + ":atc_output_type";
  const int cast = g.add_value(name, desc);
  g.nodes.push_back({"Cast",
                     "atc_output_type_" + std::to_string(index),
                     {v},
                     {cast},
                     {{"to", int64_t{onnx_type}}}});
  g.outputs[index] = cast;
}

void apply_output_type(Graph &g, const std::string &text) {
  if (text.find(':') == std::string::npos) {
    for (size_t i = 0; i < g.outputs.size(); ++i) cast_output(g, i, text);
    return;
  }
  for (const auto &item : split(text, ';')) {
    const size_t colon = item.rfind(':');
    const int v = node_output(g, "output_type", item.substr(0, colon));
    size_t index = g.outputs.size();
    for (size_t i = 0; i < g.outputs.size(); ++i)
      if (g.outputs[i] == v) index = i;
    if (index == g.outputs.size())
      bad("output_type", "'" + item.substr(0, colon) + "' is not an output of the model");
    cast_output(g, index, item.substr(colon + 1));
  }
}

void check_one_of(const std::set<std::string> &allowed, const std::string &option,
                  const std::string &value) {
  if (allowed.count(value)) return;
  std::string list;
  for (const auto &a : allowed) {
    list += list.empty() ? "" : ", ";
    list += a;
  }
  bad(option, "'" + value + "' is not one of " + list);
}

// nhwc: the model's inputs are [N, H, W, C] (--input_format=NHWC), as a TensorFlow model's are
// and an ONNX export of one keeps them.
void apply_aipp(Graph &g, const std::string &text, bool nhwc) {
  auto ops = parse_aipp_config(text);
  for (auto &op : ops) {
    op.params.nhwc = op.configured.nhwc = nhwc;
    if (op.input >= g.inputs.size())
      bad("insert_op_conf", "related_input_rank " + std::to_string(op.input) +
                                " is out of range: the model has " +
                                std::to_string(g.inputs.size()) + " inputs");
    const Value &v = g.values[g.inputs[op.input]];
    if (op.dynamic && !g.conversion.gears.empty())
      bad("insert_op_conf",
          "dynamic AIPP together with gears is not supported by openacl (input '" + v.name + "')");
    if (v.desc.dtype != ops::DType::f32 && v.desc.dtype != ops::DType::f16)
      bad("insert_op_conf", "input '" + v.name + "' is " + ops::dtype_name(v.desc.dtype) +
                                "; AIPP feeds float32 or float16 inputs");
    auto dims = v.desc.dims;
    if (!dims.empty() && dims[0] < 0) {
      if (g.conversion.gears.empty())
        bad("insert_op_conf",
            "input '" + v.name + "' has a dynamic batch: fix it with --input_shape, or give gears");
      dims[0] = 1;  // the batch is a gear's: AIPP works per image
    }
    if (op.dynamic) {
      // The parameters come with each execution; the input must be an image batch.
      if (dims.size() != 4 || dims[1] <= 0 || dims[2] <= 0 || dims[3] <= 0)
        bad("insert_op_conf", std::string("the model input AIPP feeds must be static ") +
                                  (nhwc ? "NHWC" : "NCHW") + " (--input_shape); '" + v.name +
                                  "' is " + ops::dims_str(dims));
      continue;
    }
    op.configured = op.params;
    try {
      // With image size gears each gear is an image size of its own: every one must fit.
      const Gears &gears = g.conversion.gears;
      for (size_t k = 0; gears.kind == GearKind::image_size && k < gears.values.size(); ++k) {
        auto gear_dims = gears.dims_of(k)[op.input];
        gear_dims[0] = 1;
        AippParams p = op.configured;
        fit_aipp(p, gear_dims);
        if (p.image_bytes() >= op.params.image_bytes())
          op.params = p;  // what the largest gear takes
      }
      if (gears.kind != GearKind::image_size) fit_aipp(op.params, dims);
    } catch (const Error &e) {
      fail(e.code(), std::string(e.what()) + " (input '" + v.name + "')");
    }
  }
  g.conversion.aipp = std::move(ops);
}

}  // namespace

void apply_options(Graph &g, const ConvertOptions &options) {
  static const std::set<std::string> known = {
      "input_shape",        "input_format",   "dynamic_batch_size", "dynamic_image_size",
      "dynamic_dims",       "out_nodes",      "output_type",        "precision_mode",
      "soc_version",        "insert_op_conf", "input_fp16_nodes",   "op_select_implmode",
      "save_original_model"};
  for (const auto &[k, v] : options)
    if (!known.count(k)) bad(k, "is not an option openacl's model converter knows");
  auto get = [&](const char *k) {
    auto it = options.find(k);
    return it == options.end() ? std::string() : it->second;
  };
  if (auto s = get("input_shape"); !s.empty()) apply_input_shape(g, s);
  if (auto s = get("input_fp16_nodes"); !s.empty()) apply_input_fp16_nodes(g, s);
  if (auto f = get("input_format"); !f.empty())
    check_one_of({"NCHW", "NHWC", "ND", "NCDHW", "NDHWC"}, "input_format", f);
  const std::pair<GearKind, const char *> kinds[] = {{GearKind::batch, "dynamic_batch_size"},
                                                     {GearKind::image_size, "dynamic_image_size"},
                                                     {GearKind::dims, "dynamic_dims"}};
  for (const auto &[kind, name] : kinds) {
    const std::string text = get(name);
    if (text.empty()) continue;
    if (!g.conversion.gears.empty())
      bad(name, std::string("only one of --dynamic_batch_size, --dynamic_image_size, "
                            "--dynamic_dims may be given"));
    if (get("input_shape").empty())
      bad(name, "gears need --input_shape with -1 where they set the dims");
    apply_gears(g, kind, name, text);
  }
  if (auto s = get("out_nodes"); !s.empty()) apply_out_nodes(g, s);
  if (auto s = get("output_type"); !s.empty()) apply_output_type(g, s);
  if (auto p = get("precision_mode"); !p.empty()) {
    check_one_of({"force_fp32", "force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype",
                  "allow_mix_precision", "allow_mix_precision_fp16", "allow_mix_precision_bf16",
                  "allow_fp32_to_bf16", "cube_fp16in_fp32out"},
                 "precision_mode", p);
    g.conversion.precision_mode = p;
  }
  if (auto m = get("op_select_implmode"); !m.empty())
    check_one_of({"high_precision", "high_performance", "high_precision_for_all",
                  "high_performance_for_all"},
                 "op_select_implmode", m);
  if (auto s = get("save_original_model"); !s.empty())
    check_one_of({"true", "false"}, "save_original_model", s);
  if (auto conf = get("insert_op_conf"); !conf.empty())
    apply_aipp(g, conf, get("input_format") == "NHWC");
}

std::vector<uint8_t> convert(const void *onnx, size_t onnx_size, const ConvertOptions &options) {
  if (is_openacl_om(onnx, onnx_size) || is_huawei_om(onnx, onnx_size))
    fail(Errc::parse_model,
         "--model: the file is already a .om model; give the ONNX model it came from");
  Graph g = import_onnx(onnx, onnx_size);
  apply_options(g, options);
  // Planning checks every node against the shapes (static ones, or each gear's).
  (void)query_sizes(optimize(std::move(g)));
  return write_om(options, onnx, onnx_size);
}

}  // namespace openacl::model
