// Task failures as they happen (R20): the C API's exception callbacks
// (aclrtSetExceptionInfoCallback) learn of each failing task here, on the device worker that
// ran it, before the task completes, so that they have run by the time a synchronization
// reports the failure. Also the execution time limit of kernels, ops and models
// (aclrtSetOpExecuteTimeOut): a task that ran longer fails.
#pragma once

#include <cstdint>

namespace openacl {

class Error;
class Stream;
class Task;

using FailureHandler = void (*)(const Stream &stream, const Task &task, const Error &error);

// One handler for the process; nullptr removes it.
void set_failure_handler(FailureHandler handler);
// Called by a stream when one of its tasks throws (not for failures carried by events or
// for the tasks skipped after a failure).
void report_failure(const Stream &stream, const Task &task, const Error &error);

// Inside a catch (...) around user code (a kernel block, a host function, a callback): the
// error its stream fails with, Errc::task_failure, naming `what` and the exception (also one
// that is not a std::exception).
Error user_code_error(const char *what);

// The longest a kernel, op or model task may run, in ns; 0: no limit. A simulated AI core
// cannot be stopped mid-task, so an overrun is found when the task ends: its outputs are
// written, and its stream fails with Errc::task_timeout.
void set_task_time_limit(int64_t ns);
int64_t task_time_limit();

}  // namespace openacl
