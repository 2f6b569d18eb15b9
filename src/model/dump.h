// Model dump (aclmdlSetDump, acl.json "dump"): the tensors of the dumped layers of one
// execution as .npy files, in
//   <dump_path>/<YYYYmmddHHMMSS>/<device>/<model name>/<model id>/<iteration>/
//     <op type>.<layer>.<step>.<timestamp us>.{input,output}.<k>.npy
// (CANN writes its own binary format along the same directory layout). Channels-last tensors
// are written in their logical NCHW order; bfloat16 as raw uint16.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dump_config.h"
#include "model/plan.h"

namespace openacl::model {

// Writes one tensor as .npy (channels-last storage back in NCHW order); nothing for an omitted
// optional input. Throws Errc::task_failure when the file cannot be written.
void write_dump_tensor(const std::string &path, const ops::Tensor &t);

// Single-op dump (dump_op_switch "on"): each aclopExecuteV2 call's tensors, in
//   <dump_path>/<time>/<device>/op/<op type>.<call>.<timestamp us>.{input,output}.<k>.npy
// Null when the settings do not ask for it.
std::function<void(const std::string &op_type, const std::vector<ops::Tensor> &in,
                   const std::vector<ops::Tensor> &out)>
single_op_dumper(std::shared_ptr<const DumpConfig> config, int32_t device);

class StepDumper {
 public:
  // Null when the settings dump no layer of the model known by these names.
  static std::unique_ptr<StepDumper> create(std::shared_ptr<const DumpConfig> config,
                                            std::vector<std::string> model_names, uint32_t model_id,
                                            int32_t device, uint64_t iteration);
  // Plan::StepHook: writes the step's tensors when its layer is dumped. Throws
  // Errc::task_failure when a file cannot be written.
  void operator()(size_t index, const PlanStep &step, const std::vector<ops::Tensor> &in,
                  const std::vector<ops::Tensor> &out) const;

 private:
  std::shared_ptr<const DumpConfig> config_;
  std::vector<std::string> model_names_;
  std::string dir_;
};

}  // namespace openacl::model
