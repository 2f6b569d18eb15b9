// The work queue of a V2 channel: a stream of the context that created the channel, so that
// its tasks run like any other device work (timeline trace, race checker), and the outcome of
// each task, which the program collects by task (hi_mpi_vpc_get_process_result) or in order
// (hi_mpi_vdec_get_frame). A task that fails records its error in its Ticket instead of
// failing the stream: each V2 call reports its own task's result.
//
// Thread safety: submit, wait and close may be called from any thread; close in the context
// that opened the lane (aclrtDestroyStream's rule). A Lane's destructor does nothing: a lane
// never closed goes with its context.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "acl/dvpp/hi_dvpp_type.h"
#include "backend/ai_cores.h"
#include "core/status.h"
#include "dvpp/api/submit.h"

namespace openacl {
class Stream;
}

namespace openacl::dvpp::mpi {

struct Ticket {
  struct Outcome {
    std::mutex mutex;
    Errc code = Errc::ok;
    std::string message;
    std::atomic<bool> done{false};  // set when the work has run, before `then`
  };
  uint64_t seq = 0;
  std::shared_ptr<Outcome> outcome;
};

// A ticket whose outcome is known already: a result that a later task produced (VDEC's reordered
// pictures), taken from a DecodeQueue without waiting.
Ticket finished_ticket(Errc code, std::string message);

class Lane {
 public:
  // A stream in the calling thread's context (HI_ERR_NOT_READY without one).
  Lane();
  // work reaches the ranges' bytes through the host views it is given (api::HostRanges), as
  // the V1 units do. `then`, if given, runs in the task after the outcome is recorded
  // (finished() is true by then): JPEGE tells its epoll descriptor there.
  Ticket submit(std::string label, const std::vector<api::Access> &ranges, api::Work work,
                std::function<void()> then = {});
  // Waits for the ticket's task: milli_sec -1 without limit, 0 not at all, else at most that
  // long (HI_ERR_TIMEOUT when it has not finished). Then throws the task's error, if any.
  void wait(const Ticket &ticket, hi_s32 milli_sec);
  // Whether the ticket's task has run (without waiting).
  bool finished(const Ticket &ticket) const;
  // Waits for every task and destroys the stream.
  void close();

 private:
  aclrtStream handle_ = nullptr;
  std::shared_ptr<Stream> stream_;
};

}  // namespace openacl::dvpp::mpi
