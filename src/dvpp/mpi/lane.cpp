#include "dvpp/mpi/lane.h"

#include "acl/acl.h"
#include "api/handles.h"
#include "core/stream.h"
#include "core/task.h"
#include "dvpp/mpi/guard.h"

namespace openacl::dvpp::mpi {

Lane::Lane() {
  if (aclrtCreateStream(&handle_) != ACL_SUCCESS)
    reject(HI_ERR_NOT_READY, std::string("a channel needs a current context (aclrtSetDevice or "
                                         "aclrtSetCurrentContext before it): ") +
                                 aclGetRecentErrMsg());
  stream_ = openacl::api::stream_for_host(handle_);
}

Ticket finished_ticket(Errc code, std::string message) {
  Ticket t;  // seq 0: every stream has completed it
  t.outcome = std::make_shared<Ticket::Outcome>();
  t.outcome->code = code;
  t.outcome->message = std::move(message);
  t.outcome->done.store(true, std::memory_order_release);
  return t;
}

Ticket Lane::submit(std::string label, const std::vector<api::Access> &ranges, api::Work work,
                    std::function<void()> then) {
  Ticket t;
  t.outcome = std::make_shared<Ticket::Outcome>();
  auto on_host = api::on_host(ranges, std::move(work));
  auto task = std::make_unique<FunctionTask>(
      TaskKind::dvpp, std::move(label),
      [work = std::move(on_host), then = std::move(then), outcome = t.outcome](ExecContext &ctx) {
        try {
          work(ctx);
        } catch (const Error &e) {
          std::lock_guard<std::mutex> lock(outcome->mutex);
          outcome->code = e.code();
          outcome->message = e.what();
        }
        outcome->done.store(true, std::memory_order_release);
        if (then) then();
      });
  for (const auto &r : ranges) task->add_range(r.p, r.n, r.write);
  t.seq = stream_->enqueue(std::move(task));
  return t;
}

void Lane::wait(const Ticket &ticket, hi_s32 milli_sec) {
  if (milli_sec < -1)
    reject(HI_ERR_ILLEGAL_PARAM, "milli_sec " + std::to_string(milli_sec) + " is below -1");
  // The work may have run while its task is still finishing (`then` wakes a program that then
  // asks without waiting): the outcome is what counts.
  if (!ticket.outcome->done.load(std::memory_order_acquire) &&
      !stream_->wait_for(ticket.seq, milli_sec))
    reject(HI_ERR_TIMEOUT, "the task has not finished within " + std::to_string(milli_sec) + " ms");
  std::lock_guard<std::mutex> lock(ticket.outcome->mutex);
  if (ticket.outcome->code != Errc::ok) fail(ticket.outcome->code, ticket.outcome->message);
}

bool Lane::finished(const Ticket &ticket) const {
  return ticket.outcome->done.load(std::memory_order_acquire) || stream_->completed() >= ticket.seq;
}

void Lane::close() {
  if (aclrtDestroyStream(handle_) != ACL_SUCCESS)
    reject(HI_ERR_NOT_PERM, std::string("destroy the channel in the context that created it: ") +
                                aclGetRecentErrMsg());
}

}  // namespace openacl::dvpp::mpi
