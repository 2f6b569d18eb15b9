// Tensors dumped as .npy files: the single-op dump of aclopExecuteV2 here, the model dump's
// layers in model/dump.h. Channels-last tensors are written in their logical NCHW order;
// bfloat16 as raw uint16.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/dump_config.h"
#include "ops/op.h"

namespace openacl::ops {

// Writes one tensor as .npy, read through a host view of `device` (a backend may stage it);
// nothing for an omitted optional input. Throws Errc::task_failure when the file cannot be
// written.
void write_dump_tensor(backend::DeviceBackend &device, const std::string &path, const Tensor &t);

using OpDumper = std::function<void(backend::DeviceBackend &device, const std::string &op_type,
                                    const std::vector<Tensor> &in, const std::vector<Tensor> &out)>;

// Single-op dump (dump_op_switch "on"): each aclopExecuteV2 call's tensors, in
//   <dump_path>/<time>/<device>/op/<op type>.<call>.<timestamp us>.{input,output}.<k>.npy
// Null when the settings do not ask for it.
OpDumper single_op_dumper(std::shared_ptr<const DumpConfig> config, int32_t device);

}  // namespace openacl::ops
