/* The media system: hi_mpi_sys_init before any channel or hi_mpi_dvpp_malloc, hi_mpi_sys_exit
 * at the end. openacl needs a current context (aclrtSetDevice / aclrtSetCurrentContext) at
 * hi_mpi_sys_init, as CANN does on a host. */
#ifndef HI_DVPP_SYS_H_
#define HI_DVPP_SYS_H_

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HI_ERR_SYS_ILLEGAL_PARAM 0xA0028003
#define HI_ERR_SYS_EXIST         0xA0028004
#define HI_ERR_SYS_UNEXIST       0xA0028005
#define HI_ERR_SYS_NULL_PTR      0xA0028006
#define HI_ERR_SYS_NOT_SUPPORT   0xA0028008
#define HI_ERR_SYS_NOT_PERM      0xA0028009
#define HI_ERR_SYS_NO_MEM        0xA002800C
#define HI_ERR_SYS_NOT_READY     0xA0028010
#define HI_ERR_SYS_BUSY          0xA0028012
#define HI_ERR_SYS_ERR           0xA0028015

typedef enum {
    HI_DVPP_EPOLL_CTL_ADD = 1,
    HI_DVPP_EPOLL_CTL_MOD = 2,
    HI_DVPP_EPOLL_CTL_DEL = 3,
    HI_DVPP_EPOLL_CTL_BUTT
} hi_dvpp_epoll_ctl_op;

typedef enum {
    HI_DVPP_EPOLL_IN = 1u,
    HI_DVPP_EPOLL_OUT = 1u << 1u,
    HI_DVPP_EPOLL_ET = (hi_u32)1u << 31u
} hi_dvpp_epoll_event_type;

typedef struct {
    hi_u32 events;
    hi_void *data;
} hi_dvpp_epoll_event;

/* Starts the media system in the calling thread's device. HI_ERR_SYS_NOT_READY without a
 * current context. Calling it again while started succeeds. */
hi_s32 hi_mpi_sys_init(hi_void);

/* Stops the media system. Channels still open stay usable until destroyed (openacl does not
 * tear them down). */
hi_s32 hi_mpi_sys_exit(hi_void);

/* An epoll instance over channel descriptors (hi_mpi_venc_get_fd on openacl: readable while
 * a stream is ready to take); size must be positive. Linux epoll underneath. */
hi_s32 hi_mpi_sys_create_epoll(hi_s32 size, hi_s32 *epoll_fd);

/* Adds, changes or removes (event may be NULL) a channel descriptor; event->data comes back
 * from hi_mpi_sys_wait_epoll. */
hi_s32 hi_mpi_sys_ctl_epoll(hi_s32 epoll_fd, hi_s32 operation, hi_s32 fd, hi_dvpp_epoll_event *event);

/* Waits up to timeout ms (-1: without limit) for ready descriptors; *event_num of them. */
hi_s32 hi_mpi_sys_wait_epoll(hi_s32 epoll_fd, hi_dvpp_epoll_event *events, hi_s32 max_events, hi_s32 timeout,
    hi_s32 *event_num);

hi_s32 hi_mpi_sys_close_epoll(hi_s32 epoll_fd);

/* The color matrix of convert_color on a VPC channel (mode HI_ID_VPC): BT.601, BT.709 or
 * BT.2020, wide or narrow; HI_CSC_MATRIX_USER is not implemented on openacl. */
hi_s32 hi_mpi_sys_set_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix csc_matrix,
    hi_csc_coefficient *csc_coefficient);

#ifdef __cplusplus
}
#endif

#endif /* HI_DVPP_SYS_H_ */
