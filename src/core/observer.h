// Hooks for diagnostics (trace recorder, race checker). Off by default: the stream pays one
// relaxed atomic load per task when no observer is installed.
#pragma once

namespace openacl {

class Stream;
class Task;

class TaskObserver {
 public:
  virtual ~TaskObserver() = default;
  virtual void on_enqueue(const Stream &stream, const Task &task) {}
  virtual void on_complete(const Stream &stream, const Task &task) {}
};

// The installed observer or nullptr. Installing is not synchronized with running tasks:
// install before the first task and remove after the last (aclInit / aclFinalize do).
TaskObserver *task_observer();
void set_task_observer(TaskObserver *observer);

}  // namespace openacl
