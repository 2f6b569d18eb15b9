// AIPP, CANN's image pre-processing in front of a model input (atc --insert_op_conf): a uint8
// image (YUV420SP NV12, RGB888, XRGB8888 or YUV400) becomes the model's float NCHW input, in
// CANN's documented order and formulas:
//   1. crop       load_start_pos_w/h, crop_size_w/h (0: the model input's W/H)
//   2. swap       rbuv_swap_switch swaps R/B (RGB inputs) or U/V (YUV inputs);
//                 ax_swap_switch: XRGB8888 pixels are RGBX (X last) instead of XRGB
//   3. csc        YUV inputs: out = (M x (in - input_bias)) >> 8
//                 RGB inputs: out = ((M x in) >> 8) + output_bias; each clipped to [0, 255]
//   4. rotation   rotation_angle 90, 180 or 270: the window turned clockwise (openacl puts it
//                 here; CANN does not document where its rotation sits)
//   5. resize     resize_output_w/h (scf): bilinear, pixel centres at +0.5, source positions
//                 clamped to the window, each value rounded to an 8-bit pixel
//   6. dtc        out_c = (pixel_c - mean_chn_c - min_chn_c) * var_reci_chn_c
//   7. padding    left/right/top/bottom_padding_size, filled with padding_value
// YUV420SP's chroma (one U,V pair per 2x2 pixels) is upsampled by repetition.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "ops/op.h"

namespace openacl::model {

enum class AippFormat : int32_t { yuv420sp_u8 = 1, xrgb8888_u8 = 2, rgb888_u8 = 3, yuv400_u8 = 4 };

struct AippParams {
  AippFormat format = AippFormat::yuv420sp_u8;
  int32_t src_w = 0, src_h = 0;  // 0: the model input's W / H
  bool crop = false;
  int32_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  bool rbuv_swap = false, ax_swap = false;
  bool csc = false;
  int32_t matrix[3][3] = {};
  int32_t output_bias[3] = {}, input_bias[3] = {};
  int32_t mean[4] = {};
  float min[4] = {};
  float var_reci[4] = {1, 1, 1, 1};
  int32_t rotation = 0;  // clockwise degrees: 0, 90, 180, 270
  bool resize = false;
  int32_t resize_w = 0, resize_h = 0;  // 0: the model input's W / H less the padding
  int32_t scf_in_w = 0, scf_in_h = 0;  // aclmdlSetAIPPScfParams' input size; 0: not given
  bool padding = false;
  int32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  float padding_value = 0;
  // The model input is [N, H, W, C] (atc --input_format=NHWC), not [N, C, H, W].
  bool nhwc = false;

  int channels() const { return format == AippFormat::yuv400_u8 ? 1 : 3; }
  // Bytes of one source image.
  size_t image_bytes() const;
};

// One aipp_op block of a configuration: the static parameters and the model input it serves.
// Dynamic AIPP (aipp_mode: dynamic) takes its parameters per execution instead, from the extra
// input ACL_DYNAMIC_AIPP_NAME (aclmdlSetInputAIPP), for images of up to max_src_bytes.
struct AippOp {
  size_t input = 0;  // related_input_rank
  bool dynamic = false;
  size_t max_src_bytes = 0;  // max_src_image_size
  AippParams configured;     // as the file gives it (sizes of 0: the model input's)
  AippParams params;         // fitted to the model input (with image size gears: see fitted_aipp)
};

// Parses the text of an AIPP configuration file (aipp_op { key: value ... } blocks, # comments).
// Errc::parse_model naming the key: unknown keys, bad values, single_line_mode switched on.
std::vector<AippOp> parse_aipp_config(const std::string &text);

// Fills in the sizes left 0 from the model input ([N, C, H, W], or [N, H, W, C] when p.nhwc) and
// checks that the result fits it; fails with `code`, "<where>: " and what does not fit.
void fit_aipp(AippParams &p, const std::vector<int64_t> &model_input_dims,
              Errc code = Errc::parse_model, const std::string &where = "--insert_op_conf");

// The ACL_DYNAMIC_AIPP_NAME buffer: its size for a batch, writing the parameters of each image,
// and reading them back (Errc::invalid_argument when it holds none).
size_t dynamic_aipp_bytes(uint64_t images);
void write_dynamic_aipp(void *dst, const std::vector<AippParams> &images);
std::vector<AippParams> read_dynamic_aipp(const void *src, size_t size);

// The source tensor of an AIPP input as the model API describes it: uint8 NHWC
// [N, src_h, src_w, C], or [N, src_h * 3 / 2, src_w, 1] for YUV420SP.
ops::TensorDesc aipp_source_desc(const AippParams &p, int64_t batch);

// Runs AIPP on `batch` images at src into dst, [N, C, H, W] (or [N, H, W, C] when p.nhwc) of
// dtype f32 or f16.
void run_aipp(const AippParams &p, const uint8_t *src, int64_t batch, void *dst, ops::DType dtype);

}  // namespace openacl::model
