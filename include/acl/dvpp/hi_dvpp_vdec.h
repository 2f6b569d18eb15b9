/* VDEC of CANN's V2 media API: channels of type HI_PT_JPEG (CANN's JPEGD goes through these
 * calls), HI_PT_H264 and HI_PT_H265 (one frame of Annex B NAL units a send,
 * HI_VDEC_SEND_MODE_FRAME). hi_mpi_vdec_send_stream queues a decode on the channel,
 * hi_mpi_vdec_get_frame waits for the oldest one. */
#ifndef HI_VDEC_H_
#define HI_VDEC_H_

#include "hi_dvpp_common.h"
#include "hi_dvpp_vb.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VDEC_MAX_CHN_NUM 256

#define HI_ERR_VDEC_INVALID_CHN_ID 0xA0058002
#define HI_ERR_VDEC_ILLEGAL_PARAM  0xA0058003
#define HI_ERR_VDEC_EXIST          0xA0058004
#define HI_ERR_VDEC_UNEXIST        0xA0058005
#define HI_ERR_VDEC_NULL_PTR       0xA0058006
#define HI_ERR_VDEC_NOT_CFG        0xA0058007
#define HI_ERR_VDEC_NOT_SUPPORT    0xA0058008
#define HI_ERR_VDEC_NOT_PERM       0xA0058009
#define HI_ERR_VDEC_NO_MEM         0xA005800C
#define HI_ERR_VDEC_NO_BUF         0xA005800D
#define HI_ERR_VDEC_BUF_EMPTY      0xA005800E
#define HI_ERR_VDEC_BUF_FULL       0xA005800F
#define HI_ERR_VDEC_SYS_NOT_READY  0xA0058010
#define HI_ERR_VDEC_BAD_ADDR       0xA0058011
#define HI_ERR_VDEC_BUSY           0xA0058012
#define HI_ERR_VDEC_SYS_ERROR      0xA0058015

typedef hi_s32 hi_vdec_chn;

typedef enum {
    HI_VDEC_SEND_MODE_STREAM = 0,
    HI_VDEC_SEND_MODE_FRAME,
    HI_VDEC_SEND_MODE_COMPAT,
    HI_VDEC_SEND_MODE_BUTT
} hi_vdec_send_mode;

typedef enum {
    HI_VIDEO_DEC_MODE_IPB = 0,
    HI_VIDEO_DEC_MODE_IP,
    HI_VIDEO_DEC_MODE_I,
    HI_VIDEO_DEC_MODE_BUTT
} hi_video_dec_mode;

typedef enum {
    HI_VDEC_FRAME_TYPE_I = 0,
    HI_VDEC_FRAME_TYPE_P = 1,
    HI_VDEC_FRAME_TYPE_B = 2,
    HI_VDEC_FRAME_TYPE_BUTT
} hi_vdec_frame_type;

typedef enum {
    HI_QUICK_MARK_ADAPT = 0,
    HI_QUICK_MARK_FORCE,
    HI_QUICK_MARK_NONE,
    HI_QUICK_MARK_BUTT
} hi_quick_mark_mode;

typedef struct {
    hi_vdec_frame_type frame_type;
    hi_u32 err_rate;
    hi_u32 poc;
} hi_vdec_video_supplement_info;

typedef struct {
    hi_payload_type type;
    union {
        hi_vdec_video_supplement_info video_supplement_info;
    };
} hi_vdec_supplement_info;

typedef struct {
    hi_s32 set_pic_size_err;
    hi_s32 set_protocol_num_err;
    hi_s32 set_ref_num_err;
    hi_s32 set_pic_buf_size_err;
    hi_s32 format_err;
    hi_s32 stream_unsupport;
    hi_s32 pack_err;
    hi_s32 stream_size_over;
    hi_s32 stream_not_release;
} hi_vdec_dec_err;

typedef struct {
    hi_payload_type type;
    hi_u32 left_stream_bytes;
    hi_u32 left_stream_frames;
    hi_u32 left_decoded_frames;
    hi_bool is_started;
    hi_u32 recv_stream_frames;
    hi_u32 dec_stream_frames;
    hi_vdec_dec_err dec_err;
    hi_u32 width;
    hi_u32 height;
    hi_u64 latest_frame_pts;
} hi_vdec_chn_status;

typedef struct {
    hi_u32 ref_frame_num;
    hi_bool temporal_mvp_en;
    hi_u32 tmv_buf_size;
} hi_vdec_video_attr;

typedef struct {
    hi_payload_type type;
    hi_vdec_send_mode mode;
    hi_u32 pic_width;
    hi_u32 pic_height;
    hi_u32 stream_buf_size;
    hi_u32 frame_buf_size;
    hi_u32 frame_buf_cnt;
    union {
        hi_vdec_video_attr video_attr;
    };
} hi_vdec_chn_attr;

typedef struct {
    hi_bool end_of_frame;
    hi_bool end_of_stream;
    hi_bool need_display;
    hi_u64 pts;
    hi_u64 private_data;
    hi_u32 len;
    hi_u8 *ATTRIBUTE addr;
} hi_vdec_stream;

typedef struct {
    hi_bool composite_dec_en;
    hi_bool slice_input_en;
    hi_s32 err_threshold;
    hi_video_dec_mode dec_mode;
    hi_video_out_order out_order;
    hi_compress_mode compress_mode;
    hi_video_format video_format;
    hi_quick_mark_mode quick_mark_mode;
} hi_vdec_video_param;

typedef struct {
    hi_pixel_format pixel_format;
    hi_u32 alpha;
} hi_vdec_pic_param;

typedef struct {
    hi_payload_type type;
    hi_u32 display_frame_num;
    union {
        hi_vdec_video_param video_param;
        hi_vdec_pic_param pic_param;
    };
} hi_vdec_chn_param;

/* The output picture of one decode: a buffer of DVPP memory (vir_addr, buffer_size), its
 * format, size and strides. The offset_* fields (JPEGD region decoding) must be 0 on openacl. */
typedef struct {
    hi_u32 width;
    hi_u32 height;
    hi_u32 width_stride;
    hi_u32 height_stride;
    hi_pixel_format pixel_format;
    hi_u64 vir_addr;
    hi_u32 buffer_size;
    hi_s16 offset_top;
    hi_s16 offset_bottom;
    hi_s16 offset_left;
    hi_s16 offset_right;
} hi_vdec_pic_info;

typedef enum {
    YUVOUT_ALIGN_DOWN = 0,
    YUVOUT_ALIGN_UP = 1,
    YUVOUT_ALIGN_DOWN_COMPAT = 2,
} hi_jpegd_precision_mode;

/* The buffer a decoder writes for a picture of buf_attr's size and format (NV12 or NV21; JPEG:
 * width stride aligned to 128, height stride to 16; H.264 / H.265: 16 and 2); 0 for what openacl
 * does not decode. */
hi_u32 hi_vdec_get_pic_buf_size(hi_payload_type type, hi_pic_buf_attr *buf_attr);

/* 0 on openacl: its decoder keeps its motion vectors itself. */
hi_u32 hi_vdec_get_tmv_buf_size(hi_payload_type type, hi_u32 width, hi_u32 height);

/* Opens channel chn (0 .. VDEC_MAX_CHN_NUM - 1) in the calling thread's context. attr->type:
 * HI_PT_JPEG, HI_PT_H264 or HI_PT_H265; the other fields are not used (no buffers to size). */
hi_s32 hi_mpi_vdec_create_chn(hi_vdec_chn chn, const hi_vdec_chn_attr *attr);

/* Closes chn after its queued decodes have run; frames not taken are dropped. */
hi_s32 hi_mpi_vdec_destroy_chn(hi_vdec_chn chn);

hi_s32 hi_mpi_vdec_get_chn_attr(hi_vdec_chn chn, hi_vdec_chn_attr *attr);

/* Decoding starts after start_recv_stream; send_stream before it or after stop_recv_stream
 * is refused (HI_ERR_VDEC_NOT_PERM). */
hi_s32 hi_mpi_vdec_start_recv_stream(hi_vdec_chn chn);

hi_s32 hi_mpi_vdec_stop_recv_stream(hi_vdec_chn chn);

/* pic_param.pixel_format is the output format used when a send_stream's picture says
 * HI_PIXEL_FORMAT_UNKNOWN. */
hi_s32 hi_mpi_vdec_set_chn_param(hi_vdec_chn chn, const hi_vdec_chn_param *chn_param);

hi_s32 hi_mpi_vdec_get_chn_param(hi_vdec_chn chn, hi_vdec_chn_param *chn_param);

/* H.264 / H.265: queues the decode of one frame (stream->addr, len: DVPP memory) into
 * vdec_pic_info: NV12 or NV21 (UNKNOWN: NV12), the frame's own size (width and height 0, or
 * equal to it: openacl does not resize), strides left 0 aligned to 16 and 2; vir_addr 0 decodes
 * the frame and drops its picture. A frame that gives no picture, or whose picture does not fit,
 * gets frame_flag 1 at get_frame. end_of_stream flushes the decoder (what it still holds is
 * dropped) and gives no frame.
 * JPEG: queues the decode of one JPEG (stream->addr, stream->len: DVPP memory) into vdec_pic_info
 * (NV12 or NV21; HI_PIXEL_FORMAT_UNKNOWN: the channel's pixel_format, else NV12). The picture
 * is laid out as hi_mpi_dvpp_get_image_info says (strides left 0: those); a larger stride
 * or buffer is fine. */
hi_s32 hi_mpi_vdec_send_stream(hi_vdec_chn chn, const hi_vdec_stream *stream, hi_vdec_pic_info *vdec_pic_info,
    hi_s32 milli_sec);

/* The channel's queue: left_stream_frames / left_stream_bytes not yet decoded,
 * left_decoded_frames decoded and not yet taken by get_frame; recv_stream_frames sent in all. */
hi_s32 hi_mpi_vdec_query_status(hi_vdec_chn chn, hi_vdec_chn_status *status);

/* Waits for the oldest queued decode (milli_sec -1: as long as it takes, also for a stream to
 * be sent; 0: not at all; else at most that long) and gives
 * its picture (frame_info: format, size, strides, virt_addr[0] luma, virt_addr[1] chroma;
 * frame_flag 0 when decoded, 1 when the decode failed, the reason in aclGetRecentErrMsg) and
 * the stream it came from. HI_ERR_VDEC_BUF_EMPTY when no stream was sent in time. */
hi_s32 hi_mpi_vdec_get_frame(hi_vdec_chn chn, hi_video_frame_info *frame_info, hi_vdec_supplement_info *supplement,
    hi_vdec_stream *stream, hi_s32 milli_sec);

/* After stop_recv_stream: lets the queued decodes run, drops what get_frame has not taken and
 * starts a new decoder (HI_ERR_VDEC_NOT_PERM while receiving). */
hi_s32 hi_mpi_vdec_reset_chn(hi_vdec_chn chn);

/* Hands back a frame from get_frame (the picture's memory stays the program's). */
hi_s32 hi_mpi_vdec_release_frame(hi_vdec_chn chn, const hi_video_frame_info *frame_info);

/* Size, chroma subsampling and the output picture JPEGD writes (NV12: width stride aligned to
 * 128, height stride to 16, buffer width_stride * height_stride * 3 / 2) for a JPEG;
 * img_type must be HI_PT_JPEG (HI_PT_PNG: use hi_mpi_png_get_image_info). */
hi_s32 hi_mpi_dvpp_get_image_info(hi_payload_type img_type, const hi_vdec_stream *stream, hi_img_info *img_info);

/* The same for JPEGD's output in output_pixel_format: HI_PIXEL_FORMAT_UNKNOWN (what a send
 * with that format writes: NV12 on openacl, or the channel's NV21), NV12 or NV21; other formats
 * are HI_ERR_VDEC_NOT_SUPPORT. pixel_format is the JPEG's subsampling. */
hi_s32 hi_mpi_vdec_get_jpegd_output_info(const hi_vdec_stream *stream, hi_pixel_format output_pixel_format,
    hi_img_info *img_info);

#ifdef __cplusplus
}
#endif

#endif /* HI_VDEC_H_ */
