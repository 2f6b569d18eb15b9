#include "core/event.h"

#include "core/signal.h"

namespace openacl {

std::shared_ptr<Signal> Event::new_record() {
  auto record = std::make_shared<Signal>();
  std::lock_guard lock(mu_);
  latest_ = record;
  return record;
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
