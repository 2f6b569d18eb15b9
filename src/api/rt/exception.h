// The runtime's failure handler (core/failure.h) that libascendcl plugs in at aclInit: it
// describes a failing task to the program's exception callbacks (aclrtSetExceptionInfoCallback).
#pragma once

namespace openacl {
class Error;
class Stream;
class Task;
}  // namespace openacl

namespace openacl::api {

// On the device worker that ran the task, before the failure reaches a synchronization.
void on_task_failure(const Stream &stream, const Task &task, const Error &error);

}  // namespace openacl::api
