/* VPC (crop, resize, paste, color conversion, borders) of CANN's V2 media API. Each call
 * checks its arguments, queues the work on the channel and returns a task id at once;
 * hi_mpi_vpc_get_process_result waits for that task and returns its result. Pictures follow
 * the same rules as the V1 VPC calls (docs/dvpp.md). */
#ifndef HI_VPC_H_
#define HI_VPC_H_

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VPC_MAX_CHN_NUM 512

#define HI_ERR_VPC_INVALID_CHN_ID 0xA0078002
#define HI_ERR_VPC_ILLEGAL_PARAM  0xA0078003
#define HI_ERR_VPC_EXIST          0xA0078004
#define HI_ERR_VPC_UNEXIST        0xA0078005
#define HI_ERR_VPC_NULL_PTR       0xA0078006
#define HI_ERR_VPC_NOT_CFG        0xA0078007
#define HI_ERR_VPC_NOT_SUPPORT    0xA0078008
#define HI_ERR_VPC_NOT_PERM       0xA0078009
#define HI_ERR_VPC_NO_MEM         0xA007800C
#define HI_ERR_VPC_NO_BUF         0xA007800D
#define HI_ERR_VPC_BUF_EMPTY      0xA007800E
#define HI_ERR_VPC_BUF_FULL       0xA007800F
#define HI_ERR_VPC_SYS_NOT_READY  0xA0078010
#define HI_ERR_VPC_BAD_ADDR       0xA0078011
#define HI_ERR_VPC_BUSY           0xA0078012
#define HI_ERR_VPC_SYS_ERROR      0xA0078015

typedef hi_s32 hi_vpc_chn;

/* The same values as acldvppBorderType. */
typedef enum {
    HI_BORDER_CONSTANT = 0,
    HI_BORDER_REPLICATE,
    HI_BORDER_REFLECT,
    HI_BORDER_REFLECT_101,
    HI_BORDER_WRAP
} hi_vpc_bord_type;

typedef struct {
    hi_double val[4];
} hi_vpc_scalar;

typedef struct {
    hi_u32 top;
    hi_u32 bottom;
    hi_u32 left;
    hi_u32 right;
    hi_vpc_bord_type border_type;
    hi_vpc_scalar scalar_value;
} hi_vpc_make_border_info;

typedef struct {
    hi_void* picture_address;
    hi_u32 picture_buffer_size;
    hi_u32 picture_width;
    hi_u32 picture_height;
    hi_u32 picture_width_stride;
    hi_u32 picture_height_stride;
    hi_pixel_format picture_format;
} hi_vpc_pic_info;

typedef struct {
    hi_u32 top_offset;
    hi_u32 left_offset;
    hi_u32 crop_width;
    hi_u32 crop_height;
} hi_vpc_crop_region;

typedef struct {
    hi_vpc_pic_info dest_pic_info;
    hi_vpc_crop_region crop_region;
} hi_vpc_crop_region_info;

typedef struct {
    hi_u32 resize_width;
    hi_u32 resize_height;
    hi_u32 interpolation;
} hi_vpc_resize_info;

typedef struct {
    hi_vpc_pic_info dest_pic_info;
    hi_vpc_crop_region crop_region;
    hi_vpc_resize_info resize_info;
} hi_vpc_crop_resize_region;

typedef struct {
    hi_vpc_pic_info dest_pic_info;
    hi_vpc_crop_region crop_region;
    hi_vpc_resize_info resize_info;
    hi_u32 dest_top_offset;
    hi_u32 dest_left_offset;
} hi_vpc_crop_resize_paste_region;

typedef struct {
    hi_vpc_pic_info dest_pic_info;
    hi_vpc_crop_region crop_region;
    hi_vpc_resize_info resize_info;
    hi_u32 dest_top_offset;
    hi_u32 dest_left_offset;
    hi_vpc_bord_type border_type;
    hi_vpc_scalar scalar_value;
} hi_vpc_crop_resize_border_region;

typedef struct {
    hi_s32 attr;
    hi_u32 pic_width;
    hi_u32 pic_height;
} hi_vpc_chn_attr;

/* 256-level histograms of the three components (Y, U, V or R, G, B by name). */
typedef struct {
    hi_u32 histogram_y_or_r[256];
    hi_u32 histogram_u_or_g[256];
    hi_u32 histogram_v_or_b[256];
} hi_vpc_histogram_config;

/* A value map for each component (Y, U, V or R, G, B by name). */
typedef struct {
    hi_u8 map_value_y_or_r[256];
    hi_u8 map_value_u_or_g[256];
    hi_u8 map_value_v_or_b[256];
} hi_vpc_lut_remap;

typedef enum {
    HI_ROTATION_90 = 0,
    HI_ROTATION_180 = 1,
    HI_ROTATION_270 = 2,
} hi_rotation;

typedef struct {
    hi_vpc_pic_info src;
    hi_vpc_pic_info dst;
    hi_rotation angle;
} hi_rotate_param;

typedef struct {
    hi_u32 kernel_size;
} hi_median_blur_config;

typedef struct {
    hi_vpc_pic_info src;
    hi_vpc_pic_info dst;
    hi_median_blur_config median_blur_cfg;
} hi_median_blur_param;

typedef struct {
    hi_s32 x;
    hi_s32 y;
} hi_point;

typedef enum {
    MORPH_RECT = 0,
    MORPH_CROSS = 1,
    MORPH_ELLIPSE = 2,
    MORPH_MAX = 100
} hi_morph_shapes;

typedef struct {
    hi_u32 width;
    hi_u32 height;
} hi_size;

typedef struct {
    hi_size kernel_size;
    hi_morph_shapes morph_shapes;
    hi_point anchor;
    hi_u32 iterations;
    hi_vpc_bord_type border_type;
    hi_vpc_scalar scalar_value;
} hi_blur_config;

typedef struct {
    hi_vpc_pic_info src;
    hi_vpc_pic_info dst;
    hi_blur_config blur_cfg;
} hi_blur_param;

typedef struct {
    hi_size kernel_size;
    hi_double sigma_x;
    hi_double sigma_y;
    hi_vpc_bord_type border_type;
    hi_vpc_scalar scalar_value;
    hi_u32 reserved[2];
} hi_gaussian_blur_config;

typedef struct {
    hi_vpc_pic_info src;
    hi_vpc_pic_info dst;
    hi_gaussian_blur_config gaussian_blur_cfg;
} hi_gaussian_blur_param;

typedef struct {
    hi_double filter[5][5];
    hi_size kernel_size;
    hi_point anchor;
    hi_double delta;
    hi_vpc_bord_type border_type;
    hi_vpc_scalar scalar_value;
    hi_u32 reserved[2];
} hi_filter_2d_config;

typedef struct {
    hi_vpc_pic_info src;
    hi_vpc_pic_info dst;
    hi_filter_2d_config filter_2d_cfg;
} hi_filter_2d_param;

/* Opens channel chn (0 .. VPC_MAX_CHN_NUM - 1) in the calling thread's context; attr's fields
 * are reserved on openacl (any value). HI_ERR_VPC_EXIST when chn is open. */
hi_s32 hi_mpi_vpc_create_chn(hi_vpc_chn chn, const hi_vpc_chn_attr *attr);

/* Opens the lowest free channel and gives its number (HI_ERR_VPC_NO_BUF when all are open). */
hi_s32 hi_mpi_vpc_sys_create_chn(hi_vpc_chn *chnl, const hi_vpc_chn_attr *attr);

/* Closes chn after its queued tasks have run. */
hi_s32 hi_mpi_vpc_destroy_chn(hi_vpc_chn chn);

/* Each crop region of source_pic into its dest_pic_info (resized to the whole destination
 * when the sizes differ). */
hi_s32 hi_mpi_vpc_crop(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic, hi_vpc_crop_region_info crop_info[],
    hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec);

/* source_pic resized to dest_pic's width and height (fx and fy are not used: openacl takes the
 * destination's size). interpolation: 0 bilinear, 1 nearest neighbour (OpenCV's rules). */
hi_s32 hi_mpi_vpc_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic, hi_vpc_pic_info *dest_pic,
    hi_double fx, hi_double fy, hi_u32 interpolation, hi_u32 *task_id, hi_s32 milli_sec);

/* Each crop region resized to resize_width x resize_height at the top left of its destination. */
hi_s32 hi_mpi_vpc_crop_resize(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_crop_resize_region crop_resize_info[], hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec);

/* Each crop region resized and pasted at (dest_left_offset, dest_top_offset) of its
 * destination; the rest of the destination is left as it was. */
hi_s32 hi_mpi_vpc_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_crop_resize_paste_region crop_resize_paste_info[], hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec);

/* The same for pic_num source pictures; count[i] regions of source_pic[i], in order. */
hi_s32 hi_mpi_vpc_batch_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic[], hi_u32 pic_num,
    hi_vpc_crop_resize_paste_region crop_resize_paste_info[], hi_u32 count[], hi_u32 *task_id, hi_s32 milli_sec);

/* Each crop region resized and placed at (dest_left_offset, dest_top_offset); the rest of the
 * destination is the border (HI_BORDER_CONSTANT with scalar_value, or HI_BORDER_REPLICATE). */
hi_s32 hi_mpi_vpc_crop_resize_make_border(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count, hi_u32 *task_id, hi_s32 milli_sec);

/* The same for pic_num source pictures; count[i] regions of source_pic[i], in order. */
hi_s32 hi_mpi_vpc_batch_crop_resize_make_border(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic[], hi_u32 pic_num,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count[], hi_u32 *task_id, hi_s32 milli_sec);

/* Between YUV420SP (NV12, NV21) and packed RGB (RGB888 / BGR888, ARGB / ABGR / RGBA / BGRA 8888;
 * alpha written from YUV is 255) of the same size, with the channel's matrix
 * (hi_mpi_sys_set_chn_csc_matrix; BT.601 full range by default). */
hi_s32 hi_mpi_vpc_convert_color(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic, hi_vpc_pic_info *dest_pic,
    hi_u32 *task_id, hi_s32 milli_sec);

/* source_pic with a border around it (OpenCV's copyMakeBorder); dest_pic is the source's size
 * plus the border. */
hi_s32 hi_mpi_vpc_copy_make_border(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic, hi_vpc_pic_info *dest_pic,
    hi_vpc_make_border_info make_border_info, hi_u32 *task_id, hi_s32 milli_sec);

/* filter_level (1..4) pyramid levels of a YUV400 picture: dest_pic[i] is half of the level
 * above, rounded up. openacl takes OpenCV's pyrDown kernel only (gaussian_filter the outer
 * product of [1 4 6 4 1], divisor 256) with border_type HI_BORDER_REFLECT_101, REFLECT,
 * REPLICATE or CONSTANT (scalar_value.val[0] around the picture); other kernels and borders get
 * HI_ERR_VPC_NOT_SUPPORT. */
hi_s32 hi_mpi_vpc_pyrdown(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic,
    hi_vpc_pic_info dest_pic[], hi_u32 filter_level, hi_s8 gaussian_filter[][5],
    hi_u16 divisor, hi_vpc_make_border_info make_border_info, hi_u32 *task_id, hi_s32 milli_sec);

/* The histogram of a YUV400, YUV420SP or RGB888 / BGR888 picture into hist_config (host
 * memory, written when the task runs; read it after hi_mpi_vpc_get_process_result). */
hi_s32 hi_mpi_vpc_calc_hist(hi_vpc_chn chn, const hi_vpc_pic_info *source_pic, hi_vpc_histogram_config *hist_config,
    hi_u32 *task_id, hi_s32 milli_sec);

/* dest_pic = lut_remap applied to every visible sample of source_pic (same format and size);
 * lut_remap is copied at the call. */
hi_s32 hi_mpi_vpc_equalize_hist(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic, hi_vpc_pic_info *dest_pic,
    const hi_vpc_lut_remap *lut_remap, hi_u32 *task_id, hi_s32 milli_sec);

/* rotate_param->src turned clockwise by 90, 180 or 270 degrees into rotate_param->dst (openacl's
 * reading of CANN's angles; the same format: YUV400, RGB888 or BGR888, VPC's picture sizes and
 * strides; dst is src's height x width for 90 and 270). YUV420SP and packed YUV444 are
 * HI_ERR_VPC_NOT_SUPPORT (CANN takes neither YUV420SP). */
hi_s32 hi_mpi_vpc_rotate(hi_vpc_chn chn, const hi_rotate_param* rotate_param, hi_u32* task_id, hi_s32 milli_sec);

/* Each sample of median_blur_param->dst is the median of its kernel_size x kernel_size
 * neighbourhood in median_blur_param->src (kernel_size 1, 3 or 5, as CANN; 1 copies), channel
 * by channel and plane by plane (YUV420SP chroma on its half-size grid), edges replicated as
 * OpenCV's medianBlur (CANN's documentation does not say). src and dst have the same format and
 * size: YUV400, NV12 / NV21, RGB888 or BGR888 with VPC's picture sizes and strides; CANN's other
 * formats (YUV422SP, packed YUV422 / YUV444, planar RGB) are HI_ERR_VPC_NOT_SUPPORT. */
hi_s32 hi_mpi_vpc_median_blur(hi_vpc_chn chn, const hi_median_blur_param* median_blur_param, hi_u32* task_id,
    hi_s32 milli_sec);

/* The minimum (erode), maximum (dilate) or mean rounded to nearest (blur) of each sample's
 * kernel_size window in src, channel by channel and plane by plane as median_blur, with the
 * same formats and sizes. blur_cfg as CANN documents it: kernel_size width and height 1, 3 or 5;
 * morph_shapes MORPH_RECT (CANN's MORPH_CROSS and MORPH_ELLIPSE, "not supported yet" in its
 * header, are HI_ERR_VPC_NOT_SUPPORT); anchor (-1, -1); iterations 1 to 100 for erode and
 * dilate (each pass filters the previous one's result, as OpenCV's iterations), 1 for blur;
 * border_type HI_BORDER_CONSTANT (outside samples are scalar_value.val[0..2] for the picture's
 * components Y, U, V or R, G, B, rounded) or HI_BORDER_REPLICATE (the other borders are
 * HI_ERR_VPC_NOT_SUPPORT, as CANN). */
hi_s32 hi_mpi_vpc_erode(hi_vpc_chn chn, const hi_blur_param* erode_param, hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_dilate(hi_vpc_chn chn, const hi_blur_param* dilate_param, hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_blur(hi_vpc_chn chn, const hi_blur_param* blur_param, hi_u32* task_id, hi_s32 milli_sec);

/* Each sample of dst is sum(weight * window sample) + delta, rounded to nearest (ties to even)
 * and saturated to 0..255, as OpenCV's filter2D (a correlation: the kernel is not flipped), over
 * the same planes, formats and sizes as median_blur. The weights are the centre kernel_size
 * rows and columns of filter[5][5] (filter[row][column], as CANN documents it); kernel_size,
 * anchor, border_type and scalar_value as for erode, dilate and blur. The sum is in doubles:
 * CANN's hardware precision is not documented. */
hi_s32 hi_mpi_vpc_filter2d(hi_vpc_chn chn, const hi_filter_2d_param* filter_2d_param, hi_u32* task_id,
    hi_s32 milli_sec);

/* filter2d with the Gaussian kernel OpenCV's GaussianBlur builds: the outer product of
 * getGaussianKernel(kernel_size.height, sigma_y) and getGaussianKernel(kernel_size.width,
 * sigma_x), sigma_y 0 meaning sigma_x (CANN's rule), a sigma of 0 or less its ksize's
 * (0.3 * ((ksize - 1) * 0.5 - 1) + 0.8; ksize 3 and 5 then OpenCV's fixed [1 2 1] / 4 and
 * [1 4 6 4 1] / 16); kernel_size, border_type and scalar_value as for erode, dilate and blur.
 * Summed in doubles and rounded: within 1 of OpenCV's 8-bit GaussianBlur, which rounds through
 * fixed point (CANN does not document its rounding). */
hi_s32 hi_mpi_vpc_gaussian_blur(hi_vpc_chn chn, const hi_gaussian_blur_param* gaussian_blur_param,
    hi_u32* task_id, hi_s32 milli_sec);

/* Waits for task_id of chn (milli_sec -1: as long as it takes; 0: not at all; else at most that
 * long; HI_DEFINE_ERR(HI_ID_VPC, HI_ERR_LEVEL_ERROR, HI_ERR_TIMEOUT), 0xA0078014, when it has
 * not finished then) and returns its result: HI_SUCCESS, or the
 * error of the task (its message in aclGetRecentErrMsg). A task's result is returned once. */
hi_s32 hi_mpi_vpc_get_process_result(hi_vpc_chn chn, hi_u32 task_id, hi_s32 milli_sec);

#ifdef __cplusplus
}
#endif

#endif /* HI_VPC_H_ */
