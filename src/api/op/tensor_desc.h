// aclTensorDesc: what the user says about a tensor (dtype, shape, format) for ops and model
// datasets. A plain value type: the tensor-desc calls need no aclInit and touch no device.
// As in CANN, aclSetTensorShape/aclSetTensorFormat set the *storage* shape and format and
// leave the logical (origin) ones that the ops compute with; aclSetTensorOriginShape/Format
// change the logical ones.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;  // logical shape; empty = scalar; -1 = dynamic; {-2} = unknown rank
  aclFormat storage_format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> storage_dims;
  std::vector<std::array<int64_t, 2>> shape_range;
  std::vector<std::array<int64_t, 2>> value_range;
  std::string name;
  std::string dynamic_input_name;
  aclMemType placement = ACL_MEMTYPE_DEVICE;
  bool is_const = false;
  std::vector<uint8_t> const_data;  // copied by aclSetTensorConst
  void *address = nullptr;          // set by the model executor for dataset outputs
};
