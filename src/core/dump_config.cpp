#include "core/dump_config.h"

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>

#include "core/status.h"

namespace openacl {
namespace {

std::string string_field(const nlohmann::json &j, const char *key, const char *where) {
  const auto &v = j.at(key);
  if (!v.is_string()) fail(Errc::dump_config, std::string(where) + "." + key + " must be a string");
  return v.get<std::string>();
}

// The dumps of one configuration share a <time> folder, as CANN's do.
std::shared_ptr<const DumpConfig> activated(DumpConfig c) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  c.started = buf;
  return std::make_shared<const DumpConfig>(std::move(c));
}

const DumpConfig::ModelEntry *entry_for(const DumpConfig &c,
                                        const std::vector<std::string> &names) {
  for (const auto &m : c.models)
    if (std::find(names.begin(), names.end(), m.model_name) != names.end()) return &m;
  return nullptr;
}

}  // namespace

bool DumpConfig::wants_model(const std::vector<std::string> &model_names) const {
  return entry_for(*this, model_names) != nullptr;
}

bool DumpConfig::wants(const std::vector<std::string> &model_names,
                       const std::string &layer) const {
  const ModelEntry *m = entry_for(*this, model_names);
  return m != nullptr && (m->layers.empty() ||
                          std::find(m->layers.begin(), m->layers.end(), layer) != m->layers.end());
}

DumpConfig parse_dump_config(const nlohmann::json &dump) {
  if (!dump.is_object()) fail(Errc::dump_config, "\"dump\" must be an object");
  DumpConfig c;
  if (!dump.contains("dump_path")) fail(Errc::dump_config, "dump.dump_path is missing");
  c.path = string_field(dump, "dump_path", "dump");
  if (c.path.empty()) fail(Errc::dump_config, "dump.dump_path is empty");
  if (dump.contains("dump_mode")) {
    const std::string mode = string_field(dump, "dump_mode", "dump");
    if (mode != "input" && mode != "output" && mode != "all")
      fail(Errc::dump_config, "dump.dump_mode is '" + mode + "'; expected input, output or all");
    c.inputs = mode != "output";
    c.outputs = mode != "input";
  }
  if (dump.contains("dump_op_switch")) {
    const std::string on = string_field(dump, "dump_op_switch", "dump");
    if (on != "on" && on != "off")
      fail(Errc::dump_config, "dump.dump_op_switch is '" + on + "'; expected on or off");
    c.single_ops = on == "on";
  }
  if (dump.contains("dump_list")) {
    const auto &list = dump.at("dump_list");
    if (!list.is_array()) fail(Errc::dump_config, "dump.dump_list must be an array");
    for (const auto &e : list) {
      if (!e.is_object() || !e.contains("model_name"))
        fail(Errc::dump_config, "each dump.dump_list entry needs a \"model_name\"");
      DumpConfig::ModelEntry m{string_field(e, "model_name", "dump.dump_list[]"), {}};
      if (e.contains("layer")) {
        if (!e.at("layer").is_array())
          fail(Errc::dump_config, "dump.dump_list[].layer must be an array of names");
        for (const auto &l : e.at("layer")) {
          if (!l.is_string())
            fail(Errc::dump_config, "dump.dump_list[].layer must be an array of names");
          m.layers.push_back(l.get<std::string>());
        }
      }
      c.models.push_back(std::move(m));
    }
  }
  return c;
}

void DumpSettings::reset(const DumpConfig *from_config) {
  std::lock_guard lock(mu_);
  initialized_ = false;
  set_active(from_config ? activated(*from_config) : nullptr);
}

void DumpSettings::init() {
  std::lock_guard lock(mu_);
  if (initialized_)
    fail(Errc::dump_already_run, "aclmdlInitDump was called already (aclmdlFinalizeDump first)");
  initialized_ = true;
}

void DumpSettings::set(DumpConfig config) {
  std::lock_guard lock(mu_);
  if (!initialized_) fail(Errc::dump_not_run, "call aclmdlInitDump before aclmdlSetDump");
  set_active(activated(std::move(config)));
}

void DumpSettings::finalize() {
  std::lock_guard lock(mu_);
  if (!initialized_) fail(Errc::dump_not_run, "aclmdlInitDump was not called");
  initialized_ = false;
  set_active(nullptr);
}

void DumpSettings::set_active(std::shared_ptr<const DumpConfig> config) {
  active_ = std::move(config);
  any_active_.store(active_ != nullptr, std::memory_order_release);
}

std::shared_ptr<const DumpConfig> DumpSettings::active() const {
  std::lock_guard lock(mu_);
  return active_;
}

}  // namespace openacl
