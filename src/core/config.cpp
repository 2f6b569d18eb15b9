#include "core/config.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/status.h"

namespace openacl {
namespace {

uint64_t parse_uint(const std::string &text, const char *what) {
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0' || text[0] == '-') {
    fail(Errc::parse_file, std::string(what) + ": '" + text + "' is not a non-negative integer");
  }
  return v;
}

uint64_t json_uint(const nlohmann::json &v, const char *what) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_string()) return parse_uint(v.get<std::string>(), what);
  fail(Errc::parse_file, std::string(what) + " must be a non-negative integer");
}

void apply_json(Config &c, const nlohmann::json &j) {
  if (!j.is_object()) fail(Errc::parse_file, "the top level of acl.json must be an object");
  if (auto it = j.find("defaultDevice"); it != j.end() && it->is_object()) {
    if (auto d = it->find("default_device"); d != it->end()) {
      c.default_device = static_cast<int32_t>(json_uint(*d, "defaultDevice.default_device"));
    }
  }
  if (auto d = j.find("dump"); d != j.end()) c.dump = parse_dump_config(*d);
  if (auto p = j.find("profiler"); p != j.end()) {
    if (!p->is_object()) fail(Errc::prof_config, "\"profiler\" must be an object");
    const std::string on = p->value("switch", std::string("off"));
    if (on != "on" && on != "off")
      fail(Errc::prof_config, "profiler.switch must be \"on\" or \"off\"");
    if (on == "on") {
      c.profiler_output = p->value("output", std::string("."));
      if (c.profiler_output.empty()) fail(Errc::prof_config, "profiler.output is empty");
    }
  }
  auto it = j.find("openacl");
  if (it == j.end()) return;
  const auto &o = *it;
  if (!o.is_object()) fail(Errc::parse_file, "acl.json: \"openacl\" must be an object");
  if (auto v = o.find("device_count"); v != o.end())
    c.device_count = static_cast<uint32_t>(json_uint(*v, "openacl.device_count"));
  if (auto v = o.find("device_memory_mb"); v != o.end())
    c.device_memory_bytes = json_uint(*v, "openacl.device_memory_mb") << 20;
  if (auto v = o.find("ai_cores"); v != o.end())
    c.ai_cores = static_cast<unsigned>(json_uint(*v, "openacl.ai_cores"));
  for (const char *key : {"device_name", "soc_name"}) {  // device_name: the earlier name of the key
    if (auto v = o.find(key); v != o.end()) {
      if (!v->is_string() || v->get<std::string>().empty())
        fail(Errc::parse_file, std::string("openacl.") + key + " must be a non-empty string");
      c.device_name = v->get<std::string>();
    }
  }
  if (auto v = o.find("backend"); v != o.end() && v->is_string()) c.backend = v->get<std::string>();
  if (auto v = o.find("trace"); v != o.end() && v->is_string())
    c.trace_path = v->get<std::string>();
  if (auto v = o.find("check"); v != o.end()) {
    c.check_mode =
        v->is_string() ? v->get<std::string>() : (v->is_boolean() && v->get<bool>() ? "1" : "");
  }
}

void apply_env(Config &c) {
  auto env = [](const char *name) -> const char * {
    const char *v = std::getenv(name);
    return (v != nullptr && *v != '\0') ? v : nullptr;
  };
  if (const char *v = env("OPENACL_DEVICE_COUNT"))
    c.device_count = static_cast<uint32_t>(parse_uint(v, "OPENACL_DEVICE_COUNT"));
  if (const char *v = env("OPENACL_DEVICE_MEMORY_MB"))
    c.device_memory_bytes = parse_uint(v, "OPENACL_DEVICE_MEMORY_MB") << 20;
  if (const char *v = env("OPENACL_AI_CORES"))
    c.ai_cores = static_cast<unsigned>(parse_uint(v, "OPENACL_AI_CORES"));
  if (const char *v = env("OPENACL_SOC_NAME")) c.device_name = v;
  if (const char *v = env("OPENACL_BACKEND")) c.backend = v;
  if (const char *v = env("OPENACL_TRACE")) c.trace_path = v;
  if (const char *v = env("OPENACL_CHECK")) c.check_mode = v;
}

}  // namespace

Config load_config(const char *path) {
  Config c;
  if (path != nullptr && *path != '\0') {
    std::ifstream in(path);
    if (!in) fail(Errc::invalid_file, std::string("cannot open config file '") + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error &e) {
      fail(Errc::parse_file,
           std::string("config file '") + path + "' is not valid JSON: " + e.what());
    }
    apply_json(c, j);
  }
  apply_env(c);
  if (c.device_count == 0 || c.device_count > 64)
    fail(Errc::parse_file,
         "device count must be in [1, 64], got " + std::to_string(c.device_count));
  if (c.ai_cores == 0) c.ai_cores = std::max(2u, std::thread::hardware_concurrency());
  if (c.ai_cores > 256) fail(Errc::parse_file, "ai_cores must be at most 256");
  if (!c.check_mode.empty() && c.check_mode != "0" && c.check_mode != "1" &&
      c.check_mode != "abort") {
    fail(Errc::parse_file, "check mode must be 0, 1 or abort, got '" + c.check_mode + "'");
  }
  if (c.check_mode == "0") c.check_mode.clear();
  return c;
}

}  // namespace openacl
