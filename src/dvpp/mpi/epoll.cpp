// The media system's epoll (hi_mpi_sys_*_epoll) over the channels' file descriptors
// (hi_mpi_venc_get_fd): Linux epoll on the eventfd each VENC channel posts a stream to.
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "acl/dvpp/hi_dvpp_sys.h"
#include "dvpp/mpi/channels.h"

namespace mpi = openacl::dvpp::mpi;

namespace {

std::string os_error(const char *call) {
  return std::string(call) + " failed: " + std::strerror(errno);
}

}  // namespace

extern "C" {

hi_s32 hi_mpi_sys_create_epoll(hi_s32 size, hi_s32 *epoll_fd) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    mpi::required(epoll_fd, "epoll_fd");
    if (size <= 0)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, "size " + std::to_string(size) + " is not positive");
    const int fd = epoll_create1(EPOLL_CLOEXEC);
    if (fd < 0) mpi::reject(HI_ERR_NO_MEM, os_error("epoll_create1"));
    *epoll_fd = fd;
  });
}

hi_s32 hi_mpi_sys_ctl_epoll(hi_s32 epoll_fd, hi_s32 operation, hi_s32 fd,
                            hi_dvpp_epoll_event *event) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    int op = 0;
    switch (operation) {
      case HI_DVPP_EPOLL_CTL_ADD:
        op = EPOLL_CTL_ADD;
        break;
      case HI_DVPP_EPOLL_CTL_MOD:
        op = EPOLL_CTL_MOD;
        break;
      case HI_DVPP_EPOLL_CTL_DEL:
        op = EPOLL_CTL_DEL;
        break;
      default:
        mpi::reject(HI_ERR_ILLEGAL_PARAM,
                    "operation " + std::to_string(operation) + " is not a hi_dvpp_epoll_ctl_op");
    }
    epoll_event e{};
    if (op != EPOLL_CTL_DEL) {
      mpi::required(event, "event");
      if (event->events & HI_DVPP_EPOLL_IN) e.events |= EPOLLIN;
      if (event->events & HI_DVPP_EPOLL_OUT) e.events |= EPOLLOUT;
      if (event->events & HI_DVPP_EPOLL_ET) e.events |= EPOLLET;
      e.data.ptr = event->data;
    }
    if (epoll_ctl(epoll_fd, op, fd, &e) != 0)
      mpi::reject(HI_ERR_ILLEGAL_PARAM, os_error("epoll_ctl"));
  });
}

hi_s32 hi_mpi_sys_wait_epoll(hi_s32 epoll_fd, hi_dvpp_epoll_event *events, hi_s32 max_events,
                             hi_s32 timeout, hi_s32 *event_num) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    mpi::required(events, "events");
    mpi::required(event_num, "event_num");
    if (max_events <= 0)
      mpi::reject(HI_ERR_ILLEGAL_PARAM,
                  "max_events " + std::to_string(max_events) + " is not positive");
    std::vector<epoll_event> got(static_cast<size_t>(max_events));
    int n;
    do {
      n = epoll_wait(epoll_fd, got.data(), max_events, timeout);
    } while (n < 0 && errno == EINTR);
    if (n < 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, os_error("epoll_wait"));
    for (int i = 0; i < n; ++i) {
      events[i].events = ((got[i].events & EPOLLIN) ? HI_DVPP_EPOLL_IN : 0u) |
                         ((got[i].events & EPOLLOUT) ? HI_DVPP_EPOLL_OUT : 0u);
      events[i].data = got[i].data.ptr;
    }
    *event_num = n;
  });
}

hi_s32 hi_mpi_sys_close_epoll(hi_s32 epoll_fd) {
  return mpi::guarded<HI_ID_SYS>(__func__, [&] {
    if (close(epoll_fd) != 0) mpi::reject(HI_ERR_ILLEGAL_PARAM, os_error("close"));
  });
}

}  // extern "C"
