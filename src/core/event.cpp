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

}  // namespace openacl
