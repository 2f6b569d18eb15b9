// A model run instance (aclmdlRI) built by stream capture: between aclmdlRICaptureBegin and
// aclmdlRICaptureEnd the tasks submitted to the captured stream are kept here instead of
// running; each launch (aclmdlRIExecuteAsync) submits them again, in capture order, to a
// stream, where they run (and are traced and checked) like any other tasks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/handle.h"
#include "core/task.h"

namespace openacl {

class Stream;

class ModelRI : public Handled {
 public:
  // One captured submission: puts its task on the stream it is launched on.
  struct Step {
    TaskKind kind;
    std::string label;
    std::function<void(const std::shared_ptr<Stream> &)> submit;
  };

  // mode: the aclmdlRICaptureMode value; thread: the Linux id of the capturing thread.
  ModelRI(const std::shared_ptr<Stream> &origin, int32_t mode, uint32_t thread)
      : origin_(origin), mode_(mode), thread_(thread) {}

  std::shared_ptr<Stream> origin() const { return origin_.lock(); }
  int32_t mode() const { return mode_; }
  uint32_t thread() const { return thread_; }

  void add(Step step);
  // Keeps a captured task as the template of its replicas; a task that cannot be replayed
  // invalidates the capture.
  void add(std::unique_ptr<Task> task);
  // Why the capture cannot become a model run instance, if it cannot.
  std::optional<std::string> invalid() const;
  void end_capture();
  bool capturing() const;
  // Submits every captured step to target, in capture order.
  void launch(const std::shared_ptr<Stream> &target) const;
  // Kind and label of each step, for aclmdlRIDebugPrint.
  std::vector<std::pair<TaskKind, std::string>> describe() const;

  void set_name(std::string name);
  std::string name() const;

 private:
  const std::weak_ptr<Stream> origin_;  // the stream owns the capture while it lasts: no cycle
  const int32_t mode_;
  const uint32_t thread_;
  mutable std::mutex mu_;
  bool capturing_ = true;
  std::optional<std::string> invalid_;
  std::vector<Step> steps_;
  std::string name_;
};

}  // namespace openacl
