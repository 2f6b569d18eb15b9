#include "dvpp/api/video_calls.h"

#include <pthread.h>

#include <string>

#include "core/status.h"

namespace openacl::dvpp::api {

void runtime(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS)
    fail(Errc::invalid_argument, std::string(what) + " failed: " + aclGetRecentErrMsg());
}

void wait_for_callbacks(aclrtStream stream, uint64_t callback_thread) {
  if (static_cast<uint64_t>(pthread_self()) == callback_thread) return;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS)
    fail(Errc::task_failure, std::string("the channel's frames before the end of stream failed: ") +
                                 aclGetRecentErrMsg());
}

}  // namespace openacl::dvpp::api
