// Stream capture in the C API (aclmdlRICapture*): the capture-mode rules for unsafe calls, and
// submissions that bind to state at call time (event record / wait / reset), which a capture
// keeps as steps re-run at each launch instead of as task templates.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "core/model_ri.h"
#include "core/stream.h"

namespace openacl::api {

// aclrtMemcpy, aclrtMemset, aclrtMemcpy2d and async copies of pageable host memory are unsafe
// while a capture is active: throws Errc::capture_mode when the capture modes forbid `api`
// to the calling thread (as CUDA's stream-capture modes do).
void require_capture_safe(const char *api);

// Runs submit(stream) now, or, while the stream is being captured, keeps it as a step of the
// capture (run at each launch, on the stream of its lane). Returns the capture, if any.
template <class Submit>
std::shared_ptr<ModelRI> submit_or_capture(const std::shared_ptr<Stream> &stream, TaskKind kind,
                                           Submit submit) {
  auto capture = stream->capturing() ? stream->capture() : nullptr;
  if (capture) {
    capture->add(
        ModelRI::Step{kind, task_kind_name(kind), std::move(submit), stream->capture_lane()});
  } else {
    submit(stream);
  }
  return capture;
}

}  // namespace openacl::api
