// aclnn's status codes for the core's errors (aclnn_base.h), shared by libnnopbase and libopapi.
#include "api/aclnn/aclnn_call.h"

namespace openacl::api {

aclnnStatus to_aclnn_status(Errc code) {
  switch (code) {
    case Errc::ok:
      return ACLNN_SUCCESS;
    case Errc::null_pointer:
      return ACLNN_ERR_PARAM_NULLPTR;
    case Errc::invalid_argument:
    case Errc::invalid_value:
    case Errc::invalid_handle:
    case Errc::invalid_file:
    case Errc::parse_file:
    case Errc::feature_not_supported:
    case Errc::op_type_not_match:
    case Errc::op_input_not_match:
    case Errc::op_output_not_match:
    case Errc::op_attr_not_match:
    case Errc::unsupported_data_type:
      return ACLNN_ERR_PARAM_INVALID;
    case Errc::internal:
      return ACLNN_ERR_INNER;
    default:
      return ACLNN_ERR_RUNTIME_ERROR;
  }
}

aclnnStatus to_aclnn_inner_status(Errc code) {
  return code == Errc::null_pointer ? ACLNN_ERR_INNER_NULLPTR : to_aclnn_status(code);
}

}  // namespace openacl::api
