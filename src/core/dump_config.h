// Model dump settings (CANN's "dump" section of acl.json, or an aclmdlSetDump file): where to
// write, which tensors (inputs, outputs or both) and of which models and layers. The model
// executor (src/model/dump.h) writes the tensors; the core only keeps the settings.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace openacl {

struct DumpConfig {
  struct ModelEntry {
    std::string model_name;
    std::vector<std::string> layers;  // empty: every layer
  };
  std::string path;
  bool inputs = false, outputs = true;  // dump_mode "output" (default), "input", "all"
  std::vector<ModelEntry> models;       // dump_list
  bool single_ops = false;              // dump_op_switch "on": aclopExecuteV2 calls too
  std::string started;                  // local time the settings took effect, YYYYmmddHHMMSS

  // Whether the layer (an ONNX node name) of a model known by one of these names is dumped.
  bool wants(const std::vector<std::string> &model_names, const std::string &layer) const;
  bool wants_model(const std::vector<std::string> &model_names) const;
};

// The settings in force: from acl.json at aclInit, else between aclmdlInitDump + aclmdlSetDump
// and aclmdlFinalizeDump.
class DumpSettings {
 public:
  void reset(const DumpConfig *from_config);  // aclInit
  void init();                                // Errc::dump_already_run when initialized
  void set(DumpConfig config);                // Errc::dump_not_run before init()
  void finalize();                            // Errc::dump_not_run before init()
  std::shared_ptr<const DumpConfig> active() const;
  // Whether any settings are in force, without the lock: every op call asks.
  bool any_active() const { return any_active_.load(std::memory_order_acquire); }

 private:
  void set_active(std::shared_ptr<const DumpConfig> config);  // holding mu_

  mutable std::mutex mu_;
  bool initialized_ = false;
  std::shared_ptr<const DumpConfig> active_;
  std::atomic<bool> any_active_{false};
};

// Reads a "dump" object; throws Errc::dump_config naming the field that is wrong.
DumpConfig parse_dump_config(const nlohmann::json &dump);

}  // namespace openacl
