// Task failures as they happen (R20): the C API's exception callbacks
// (aclrtSetExceptionInfoCallback) learn of each failing task here, on the device worker that
// ran it, before the task completes, so that they have run by the time a synchronization
// reports the failure.
#pragma once

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

}  // namespace openacl
