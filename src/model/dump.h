// Model dump (aclmdlSetDump, acl.json "dump"): the tensors of the dumped layers of one
// execution as .npy files, in
//   <dump_path>/<YYYYmmddHHMMSS>/<device>/<model name>/<model id>/<iteration>/
//     <op type>.<layer>.<step>.<timestamp us>.{input,output}.<k>.npy
// (CANN writes its own binary format along the same directory layout). Channels-last tensors
// are written in their logical NCHW order; bfloat16 as raw uint16 (ops/dump.h writes them).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/dump_config.h"
#include "model/plan.h"

namespace openacl::model {

class StepDumper {
 public:
  // Null when the settings dump no layer of the model known by these names.
  static std::unique_ptr<StepDumper> create(std::shared_ptr<const DumpConfig> config,
                                            std::vector<std::string> model_names, uint32_t model_id,
                                            int32_t device, uint64_t iteration);
  // Plan::StepHook: writes the step's tensors when its layer is dumped, reading them through
  // host views of `device` (a backend may stage them). Throws Errc::task_failure when a file
  // cannot be written.
  void operator()(backend::DeviceBackend &device, size_t index, const PlanStep &step,
                  const std::vector<ops::Tensor> &in, const std::vector<ops::Tensor> &out) const;

 private:
  std::shared_ptr<const DumpConfig> config_;
  std::vector<std::string> model_names_;
  std::string dir_;
};

}  // namespace openacl::model
