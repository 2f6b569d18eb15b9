// A model run instance (aclmdlRI) built by stream capture: between aclmdlRICaptureBegin and
// aclmdlRICaptureEnd the tasks submitted to the captured stream are kept here instead of
// running; each launch (aclmdlRIExecuteAsync) submits them again, in capture order, to a
// stream, where they run (and are traced and checked) like any other tasks.
//
// A stream that waits on an event recorded in the capture joins it as another lane (fork);
// before the capture ends, the origin stream must wait on an event recorded at the end of
// every other lane (join). A launch runs lane 0 on the launch's stream and the other lanes on
// streams of the instance's own, and submits all steps in their capture order, so each
// captured event wait binds to the record the same launch made.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/handle.h"
#include "core/task.h"

namespace openacl {

class Context;
class Event;
class Stream;

class ModelRI : public Handled {
 public:
  // One captured submission: puts its task on the stream of its lane at each launch.
  struct Step {
    TaskKind kind;
    std::string label;
    std::function<void(const std::shared_ptr<Stream> &)> submit;
    uint32_t lane = 0;
  };

  // mode: the aclmdlRICaptureMode value; thread: the Linux id of the capturing thread.
  ModelRI(const std::shared_ptr<Stream> &origin, int32_t mode, uint32_t thread);
  ~ModelRI();

  std::shared_ptr<Stream> origin() const;
  int32_t mode() const { return mode_; }
  uint32_t thread() const { return thread_; }

  // A stream joining the capture (through an event wait); returns its lane.
  uint32_t join(const std::shared_ptr<Stream> &stream);
  // The captured streams, lane 0 first (those still alive).
  std::vector<std::shared_ptr<Stream>> lanes() const;

  void add(Step step);
  // Keeps a captured task as the template of its replicas; a task that cannot be replayed
  // invalidates the capture.
  void add(std::unique_ptr<Task> task, uint32_t lane);
  // A captured event record on `lane` / a captured wait for `event` on `lane`: how the lanes
  // fork and join.
  void recorded(const Event *event, uint32_t lane);
  void waited(const Event *event, uint32_t lane);
  // The lanes other than 0 that the origin has not joined back since their last step.
  std::vector<uint32_t> unjoined() const;

  // Why the capture cannot become a model run instance, if it cannot.
  std::optional<std::string> invalid() const;
  void end_capture();
  bool capturing() const;
  // Submits every captured step, in capture order: lane 0 to target, the others to streams of
  // the instance. target must belong to the context of the capture (Errc::stream_context).
  void launch(const std::shared_ptr<Stream> &target);
  // Kind, label and lane of each step, for aclmdlRIDebugPrint.
  std::vector<Step> steps() const;

  void set_name(std::string name);
  std::string name() const;

 private:
  struct Lane {
    std::weak_ptr<Stream> stream;  // the captured stream (it owns the capture while it lasts)
    size_t steps = 0;              // steps captured on it so far
    bool joined = true;            // lane 0 waited on a record made after its last step
  };
  struct Record {
    uint32_t lane;
    size_t lane_steps;  // the lane's step count right after the record
  };

  const std::weak_ptr<Context> context_;  // the origin's: every launch runs in it
  const int32_t mode_;
  const uint32_t thread_;
  mutable std::mutex mu_;
  bool capturing_ = true;
  std::optional<std::string> invalid_;
  std::vector<Lane> lanes_;
  // Shared with the launches under way, which submit from it without copying it (a Step's
  // std::function allocates when copied, and ggml launches thousands a graph); add() copies it
  // first when a launch holds it.
  std::shared_ptr<std::vector<Step>> steps_ = std::make_shared<std::vector<Step>>();
  std::map<const Event *, Record> records_;  // the latest captured record of each event
  std::string name_;
  std::mutex launch_mu_;  // one launch submits at a time: its waits bind to its own records
  std::vector<std::shared_ptr<Stream>> side_streams_;  // lanes 1.. at launch
};

}  // namespace openacl
