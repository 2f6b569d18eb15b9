#include "dvpp/mpi/guard.h"

namespace openacl::dvpp::mpi {

hi_errno errno_of(Errc code) {
  switch (code) {
    case Errc::null_pointer:
      return HI_ERR_NULL_PTR;
    case Errc::feature_not_supported:
    case Errc::api_not_supported:
    case Errc::unsupported_jpeg:
      return HI_ERR_NOT_SUPPORT;
    case Errc::out_of_memory:
      return HI_ERR_NO_MEM;
    case Errc::not_initialized:
    case Errc::context_null:
    case Errc::invalid_device:
      return HI_ERR_NOT_READY;
    case Errc::invalid_handle:
      return HI_ERR_UNEXIST;
    case Errc::stream_sync_timeout:
    case Errc::wait_timeout:
      return HI_ERR_TIMEOUT;
    case Errc::task_failure:
    case Errc::internal:
      return HI_ERR_SYS_ERROR;
    default:
      return HI_ERR_ILLEGAL_PARAM;
  }
}

}  // namespace openacl::dvpp::mpi
