/* PNGD of CANN's V2 media API: hi_mpi_pngd_send_stream queues a decode on the channel,
 * hi_mpi_pngd_get_image_data waits for the oldest one and gives its picture. */
#ifndef HI_PNGD_H_
#define HI_PNGD_H_

#include "hi_dvpp_common.h"
#include "hi_dvpp_vb.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PNGD_MAX_CHN_NUM 128

#define HI_ERR_PNGD_INVALID_CHN_ID 0xA0408002
#define HI_ERR_PNGD_ILLEGAL_PARAM  0xA0408003
#define HI_ERR_PNGD_EXIST          0xA0408004
#define HI_ERR_PNGD_UNEXIST        0xA0408005
#define HI_ERR_PNGD_NULL_PTR       0xA0408006
#define HI_ERR_PNGD_NOT_CFG        0xA0408007
#define HI_ERR_PNGD_NOT_SUPPORT    0xA0408008
#define HI_ERR_PNGD_NOT_PERM       0xA0408009
#define HI_ERR_PNGD_NO_MEM         0xA040800C
#define HI_ERR_PNGD_NO_BUF         0xA040800D
#define HI_ERR_PNGD_BUF_EMPTY      0xA040800E
#define HI_ERR_PNGD_BUF_FULL       0xA040800F
#define HI_ERR_PNGD_SYS_NOT_READY  0xA0408010
#define HI_ERR_PNGD_BAD_ADDR       0xA0408011
#define HI_ERR_PNGD_BUSY           0xA0408012
#define HI_ERR_PNGD_TIMEOUT        0xA0408014
#define HI_ERR_PNGD_SYS_ERROR      0xA0408015

typedef hi_s32 hi_pngd_chn;

typedef struct {
    hi_u32 stream_que_cnt;
    hi_u64 reserved[4];
} hi_pngd_chn_attr;

hi_s32 hi_mpi_pngd_create_chn(hi_pngd_chn chn, const hi_pngd_chn_attr *attr);

hi_s32 hi_mpi_pngd_destroy_chn(hi_pngd_chn chn);

/* Queues the decode of stream (a PNG in DVPP memory) into png_pic_info (RGB888, RGBA8888, or
 * HI_PIXEL_FORMAT_UNKNOWN for the source's; strides and buffer as hi_mpi_png_get_image_info
 * gives them). */
hi_s32 hi_mpi_pngd_send_stream(hi_pngd_chn chn, const hi_img_stream *stream, hi_pic_info *png_pic_info,
    hi_s32 milli_sec);

/* Waits for the oldest queued decode (milli_sec -1: as long as it takes, also for a stream to
 * be sent; 0: not at all; else at most that long) and gives its picture and stream; the
 * decode's error when it failed (its message in aclGetRecentErrMsg). HI_ERR_PNGD_BUF_EMPTY
 * when no stream was sent in time. */
hi_s32 hi_mpi_pngd_get_image_data(hi_pngd_chn chn, hi_pic_info *png_pic_info, hi_img_stream *stream, hi_s32 milli_sec);

/* Size, color type and the output picture PNGD writes for png_stream. */
hi_s32 hi_mpi_png_get_image_info(const hi_img_stream *png_stream, hi_img_info *img_info);

#ifdef __cplusplus
}
#endif

#endif /* HI_PNGD_H_ */
