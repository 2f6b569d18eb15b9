#include "core/event.h"

#include "core/signal.h"
#include "core/stream.h"
#include "core/tasks.h"

namespace openacl {

void Event::record(Stream &stream) {
  auto record = std::make_shared<Signal>();
  stream.enqueue(std::make_unique<RecordTask>(record));
  std::lock_guard lock(mu_);
  latest_ = std::move(record);
}

std::shared_ptr<Signal> Event::latest() const {
  std::lock_guard lock(mu_);
  return latest_;
}

void Event::reset(const Signal *record) {
  std::lock_guard lock(mu_);
  if (latest_.get() == record) latest_.reset();
}

void Event::set_captured_by(const std::shared_ptr<ModelRI> &capture) {
  std::lock_guard lock(mu_);
  captured_by_ = capture;
}

std::shared_ptr<ModelRI> Event::captured_by() const {
  std::lock_guard lock(mu_);
  return captured_by_.lock();
}

}  // namespace openacl
