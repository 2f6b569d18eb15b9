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

typedef enum {
    HI_MOD_VPC = 0,
    HI_MOD_VENC = 1,
    HI_MOD_VDEC = 2,
    HI_MOD_JPEGE = 3,
    HI_MOD_JPEGD = 4,
    HI_MOD_PNGD = 5,
    HI_MOD_ALL = 100,
    HI_MOD_BUTT = 255
} hi_module_type;

typedef struct {
    hi_u32 width;
    hi_u32 height;
    hi_pixel_format pixel_format;
    hi_u64 reserved[2];
} hi_img_base_info;

typedef struct {
    hi_u32 width_stride;
    hi_u32 height_stride;
    hi_u64 img_buf_size;
    hi_u64 reserved[2];
} hi_img_align_info;

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

/* The strides and buffer size a picture of img_base_info needs to pass through every unit of
 * mod_type (HI_MOD_ALL: every unit that takes its format), by openacl's rules: VPC, VENC, JPEGE
 * and VDEC width stride aligned to 16 (bytes: RGB888 / BGR888 take width * 3), height stride
 * to 2; JPEGD 128 and 16; PNGD align(width, 128) * 3 (RGB888) or * 4 (RGBA8888) and 16. A
 * unit that does not take the format is HI_ERR_SYS_NOT_SUPPORT. */
hi_s32 hi_mpi_sys_get_image_align_info(const hi_module_type mod_type[], const hi_u32 mod_num,
    const hi_img_base_info *img_base_info, hi_img_align_info *img_align_info);

#ifdef __cplusplus
}
#endif

#endif /* HI_DVPP_SYS_H_ */
