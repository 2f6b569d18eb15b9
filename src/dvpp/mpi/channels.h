// The open channels of one V2 unit, by the number the program chose (0 .. max - 1).
//
// C has a `lane` (mpi::Lane). Thread safety: every member may be called from any thread; a
// channel found stays alive for its caller while another thread destroys it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "dvpp/mpi/guard.h"

namespace openacl::dvpp::mpi {

template <class C>
class Channels {
 public:
  explicit Channels(int max) : max_(max) {}

  // A channel that cannot open has its lane closed before the error, so that its stream goes.
  void open(int id, const std::shared_ptr<C> &channel) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (id >= 0 && id < max_ && open_.emplace(id, channel).second) return;
    }
    channel->lane.close();
    check_id(id);
    reject(HI_ERR_EXIST, "channel " + std::to_string(id) + " is already open");
  }
  // The lowest free number (HI_ERR_NO_BUF when all are open).
  int open_any(const std::shared_ptr<C> &channel) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int id = 0; id < max_; ++id)
        if (open_.emplace(id, channel).second) return id;
    }
    channel->lane.close();
    reject(HI_ERR_NO_BUF, "all " + std::to_string(max_) + " channels are open");
  }
  // HI_ERR_INVALID_CHN_ID out of range, HI_ERR_UNEXIST when not open.
  std::shared_ptr<C> find(int id) {
    check_id(id);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = open_.find(id);
    if (it == open_.end()) reject(HI_ERR_UNEXIST, "channel " + std::to_string(id) + " is not open");
    return it->second;
  }
  void erase(int id) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.erase(id);
  }

 private:
  void check_id(int id) const {
    if (id < 0 || id >= max_)
      reject(HI_ERR_INVALID_CHN_ID,
             "channel " + std::to_string(id) + " is outside 0.." + std::to_string(max_ - 1));
  }
  const int max_;
  std::mutex mutex_;
  std::map<int, std::shared_ptr<C>> open_;
};

// HI_ERR_SYS_NOT_READY (in the calling unit's module) unless hi_mpi_sys_init has run.
void require_sys();

}  // namespace openacl::dvpp::mpi
