#include "atc_singleop.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

namespace atc {
namespace {

using nlohmann::json;

// A bad entry: what is wrong, thrown up to the op's loop, which names the op.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

aclDataType dtype_of(const std::string &name) {
  static const std::map<std::string, aclDataType> types = {
      {"float", ACL_FLOAT},   {"float32", ACL_FLOAT}, {"float16", ACL_FLOAT16},
      {"bfloat16", ACL_BF16}, {"double", ACL_DOUBLE}, {"int8", ACL_INT8},
      {"int16", ACL_INT16},   {"int32", ACL_INT32},   {"int64", ACL_INT64},
      {"uint8", ACL_UINT8},   {"uint16", ACL_UINT16}, {"uint32", ACL_UINT32},
      {"uint64", ACL_UINT64}, {"bool", ACL_BOOL}};
  auto it = types.find(name);
  if (it == types.end())
    throw Bad("\"type\": \"" + name +
              "\" is not a data type atc knows (float16, float32, int32, ...)");
  return it->second;
}

aclFormat format_of(const std::string &name) {
  static const std::map<std::string, aclFormat> formats = {{"ND", ACL_FORMAT_ND},
                                                           {"NCHW", ACL_FORMAT_NCHW},
                                                           {"NHWC", ACL_FORMAT_NHWC},
                                                           {"HWCN", ACL_FORMAT_HWCN},
                                                           {"NC1HWC0", ACL_FORMAT_NC1HWC0},
                                                           {"FRACTAL_Z", ACL_FORMAT_FRACTAL_Z},
                                                           {"NDHWC", ACL_FORMAT_NDHWC},
                                                           {"NCDHW", ACL_FORMAT_NCDHW},
                                                           {"FRACTAL_NZ", ACL_FORMAT_FRACTAL_NZ},
                                                           {"NC", ACL_FORMAT_NC},
                                                           {"NCL", ACL_FORMAT_NCL}};
  auto it = formats.find(name);
  if (it == formats.end())
    throw Bad("\"format\": \"" + name + "\" is not a format atc knows (ND, NCHW, NHWC, ...)");
  return it->second;
}

// const_value's numbers as the bytes of a tensor of type t.
std::vector<uint8_t> const_bytes(const json &values, aclDataType t) {
  if (!values.is_array()) throw Bad("\"const_value\" must be a list of numbers");
  std::vector<uint8_t> out(values.size() * aclDataTypeSize(t));
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i].is_number() && !values[i].is_boolean())
      throw Bad("\"const_value\" must be a list of numbers");
    const double v = values[i].is_boolean() ? values[i].get<bool>() : values[i].get<double>();
    auto put = [&](auto x) { std::memcpy(out.data() + i * sizeof(x), &x, sizeof(x)); };
    switch (t) {
      case ACL_FLOAT:
        put(static_cast<float>(v));
        break;
      case ACL_FLOAT16:
        put(aclFloatToFloat16(static_cast<float>(v)));
        break;
      case ACL_DOUBLE:
        put(v);
        break;
      case ACL_INT8:
        put(static_cast<int8_t>(v));
        break;
      case ACL_INT16:
        put(static_cast<int16_t>(v));
        break;
      case ACL_INT32:
        put(static_cast<int32_t>(v));
        break;
      case ACL_INT64:
        put(static_cast<int64_t>(v));
        break;
      case ACL_UINT8:
      case ACL_BOOL:
        put(static_cast<uint8_t>(v));
        break;
      case ACL_UINT16:
        put(static_cast<uint16_t>(v));
        break;
      case ACL_UINT32:
        put(static_cast<uint32_t>(v));
        break;
      case ACL_UINT64:
        put(static_cast<uint64_t>(v));
        break;
      default:
        throw Bad("\"const_value\" of this \"type\" is not supported");
    }
  }
  return out;
}

struct DescDeleter {
  void operator()(aclTensorDesc *d) const { aclDestroyTensorDesc(d); }
};
using Desc = std::unique_ptr<aclTensorDesc, DescDeleter>;

// One input_desc / output_desc entry. `consts` keeps const_value bytes alive for the compile.
Desc make_desc(const json &e, std::vector<std::vector<uint8_t>> &consts, std::string &name_part) {
  for (const auto &[key, value] : e.items())
    if (key != "format" && key != "shape" && key != "type" && key != "name" &&
        key != "shape_range" && key != "is_const" && key != "const_value")
      throw Bad("\"" + key + "\" is not a key of a tensor description atc knows");
  if (!e.contains("type") || !e.contains("format") || !e.contains("shape"))
    throw Bad("a tensor description needs \"type\", \"format\" and \"shape\"");
  const aclDataType t = dtype_of(e["type"].get<std::string>());
  const aclFormat f = format_of(e["format"].get<std::string>());
  const auto dims = e["shape"].get<std::vector<int64_t>>();
  Desc d(aclCreateTensorDesc(t, static_cast<int>(dims.size()), dims.data(), f));
  if (!d) throw Bad("\"shape\" is not a valid shape");
  name_part += "_" + std::to_string(t) + "_" + std::to_string(f);
  for (int64_t v : dims) name_part += "_" + std::to_string(v);
  if (e.contains("name")) aclSetTensorDescName(d.get(), e["name"].get<std::string>().c_str());
  if (e.contains("shape_range")) {
    auto ranges = e["shape_range"].get<std::vector<std::vector<int64_t>>>();
    std::vector<std::array<int64_t, ACL_TENSOR_SHAPE_RANGE_NUM>> r;
    for (const auto &p : ranges) {
      if (p.size() != 2) throw Bad("\"shape_range\" entries must be [min, max]");
      r.push_back({p[0], p[1]});
    }
    if (aclSetTensorShapeRange(
            d.get(), r.size(),
            reinterpret_cast<int64_t(*)[ACL_TENSOR_SHAPE_RANGE_NUM]>(r.data())) != ACL_SUCCESS)
      throw Bad(std::string("\"shape_range\": ") + aclGetRecentErrMsg());
  }
  if (e.value("is_const", false)) {
    if (!e.contains("const_value")) throw Bad("\"is_const\" needs \"const_value\"");
    consts.push_back(const_bytes(e["const_value"], t));
    if (aclSetTensorConst(d.get(), consts.back().data(), consts.back().size()) != ACL_SUCCESS)
      throw Bad(std::string("\"const_value\": ") + aclGetRecentErrMsg());
  }
  return d;
}

// Sets one "attr" entry {name, type, value} with the aclopSetAttr* call of its type.
void set_attr(aclopAttr *attr, const json &a) {
  const std::string name = a.at("name").get<std::string>(), type = a.at("type").get<std::string>();
  const json &v = a.at("value");
  const char *n = name.c_str();
  aclError r = ACL_SUCCESS;
  if (type == "bool") {
    r = aclopSetAttrBool(attr, n, v.get<bool>() ? 1 : 0);
  } else if (type == "int") {
    r = aclopSetAttrInt(attr, n, v.get<int64_t>());
  } else if (type == "float") {
    r = aclopSetAttrFloat(attr, n, v.get<float>());
  } else if (type == "string") {
    r = aclopSetAttrString(attr, n, v.get<std::string>().c_str());
  } else if (type == "data_type") {
    r = aclopSetAttrDataType(attr, n, dtype_of(v.get<std::string>()));
  } else if (type == "list_bool") {
    std::vector<uint8_t> b;
    for (bool x : v.get<std::vector<bool>>()) b.push_back(x ? 1 : 0);
    r = aclopSetAttrListBool(attr, n, static_cast<int>(b.size()), b.data());
  } else if (type == "list_int") {
    const auto l = v.get<std::vector<int64_t>>();
    r = aclopSetAttrListInt(attr, n, static_cast<int>(l.size()), l.data());
  } else if (type == "list_float") {
    const auto l = v.get<std::vector<float>>();
    r = aclopSetAttrListFloat(attr, n, static_cast<int>(l.size()), l.data());
  } else if (type == "list_string") {
    const auto l = v.get<std::vector<std::string>>();
    std::vector<const char *> p;
    for (const auto &s : l) p.push_back(s.c_str());
    r = aclopSetAttrListString(attr, n, static_cast<int>(p.size()), p.data());
  } else if (type == "list_list_int") {
    const auto l = v.get<std::vector<std::vector<int64_t>>>();
    std::vector<int> counts;
    std::vector<const int64_t *> p;
    for (const auto &x : l) counts.push_back(static_cast<int>(x.size())), p.push_back(x.data());
    r = aclopSetAttrListListInt(attr, n, static_cast<int>(l.size()), counts.data(), p.data());
  } else {
    throw Bad("attr \"" + name + "\": \"type\": \"" + type +
              "\" is not an attr type atc knows (bool, int, float, string, data_type, list_*)");
  }
  if (r != ACL_SUCCESS) throw Bad("attr \"" + name + "\": " + aclGetRecentErrMsg());
}

// Compiles entry `index`; returns the file name CANN gives its op model.
std::string compile_one(const json &op, size_t index) {
  if (!op.is_object() || !op.contains("op")) throw Bad("an op entry needs \"op\"");
  const std::string type = op["op"].get<std::string>();
  std::string name = std::to_string(index) + "_" + type;
  std::vector<std::vector<uint8_t>> consts;
  std::vector<Desc> in, out;
  for (const auto &e : op.value("input_desc", json::array()))
    in.push_back(make_desc(e, consts, name));
  for (const auto &e : op.value("output_desc", json::array()))
    out.push_back(make_desc(e, consts, name));
  std::unique_ptr<aclopAttr, void (*)(const aclopAttr *)> attr(aclopCreateAttr(), aclopDestroyAttr);
  for (const auto &a : op.value("attr", json::array())) set_attr(attr.get(), a);
  std::vector<const aclTensorDesc *> ip, op_;
  for (auto &d : in) ip.push_back(d.get());
  for (auto &d : out) op_.push_back(d.get());
  if (aclopCompile(type.c_str(), static_cast<int>(ip.size()), ip.data(),
                   static_cast<int>(op_.size()), op_.data(), attr.get(), ACL_ENGINE_SYS,
                   ACL_COMPILE_SYS, nullptr) != ACL_SUCCESS)
    throw Bad(aclGetRecentErrMsg());
  return name + ".om";
}

}  // namespace

std::string compile_single_ops(const std::string &json_path, const std::string &output_dir) {
  std::ifstream f(json_path);
  if (!f) return "--singleop: cannot read '" + json_path + "'";
  json list;
  try {
    list = json::parse(f);
  } catch (const json::exception &e) {
    return "--singleop: '" + json_path + "' is not JSON: " + e.what();
  }
  if (list.is_object()) list = json::array({list});
  if (!list.is_array() || list.empty()) return "--singleop: '" + json_path + "' holds no op list";
  std::error_code ec;
  std::filesystem::create_directories(output_dir, ec);
  if (ec) return "--output: cannot create '" + output_dir + "': " + ec.message();
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string what = "op " + std::to_string(i) +
                             (list[i].contains("op") ? " (" + list[i]["op"].dump() + ")" : "");
    try {
      const std::string file = output_dir + "/" + compile_one(list[i], i);
      std::ofstream o(file);
      o << list[i].dump(2) << "\n";
      if (!o) return "--output: cannot write '" + file + "'";
    } catch (const Bad &e) {
      return "--singleop: " + what + ": " + e.what();
    } catch (const json::exception &e) {
      return "--singleop: " + what + ": " + e.what();
    }
  }
  return "";
}

}  // namespace atc
