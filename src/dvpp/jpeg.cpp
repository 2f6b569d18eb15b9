#include "dvpp/jpeg.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <jpeglib.h>

#include "acl/ops/acl_dvpp.h"
#include "core/status.h"

namespace openacl::dvpp {
namespace {

// libjpeg reports errors through error_exit, which must not return: it jumps back to the
// setjmp of the call that met it. Nothing with a destructor lives between that setjmp and the
// jump (callers allocate before), so the jump skips no cleanup.
struct ErrorJump {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void error_exit(j_common_ptr cinfo) {
  auto *e = reinterpret_cast<ErrorJump *>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

void silent(j_common_ptr, int) {}

void init_errors(ErrorJump &e) {
  jpeg_std_error(&e.mgr);
  e.mgr.error_exit = error_exit;
  e.mgr.emit_message = silent;
  e.message[0] = '\0';
}

uint32_t css_of(const jpeg_decompress_struct &c) {
  if (c.num_components == 1) return ACL_JPEG_CSS_GRAY;
  if (c.num_components != 3) return ACL_JPEG_CSS_UNKNOWN;
  int h = c.comp_info[0].h_samp_factor, v = c.comp_info[0].v_samp_factor;
  for (int i = 1; i < 3; ++i)
    if (c.comp_info[i].h_samp_factor != 1 || c.comp_info[i].v_samp_factor != 1)
      return ACL_JPEG_CSS_UNKNOWN;
  if (h == 1 && v == 1) return ACL_JPEG_CSS_444;
  if (h == 2 && v == 1) return ACL_JPEG_CSS_422;
  if (h == 2 && v == 2) return ACL_JPEG_CSS_420;
  if (h == 1 && v == 2) return ACL_JPEG_CSS_440;
  if (h == 4 && v == 1) return ACL_JPEG_CSS_411;
  return ACL_JPEG_CSS_UNKNOWN;
}

struct Header {
  JpegInfo info;
  bool progressive = false, arithmetic = false;
};

// 0 on success, else the libjpeg message is in e.message.
int read_header(const void *data, size_t size, Header &h, ErrorJump &e) {
  jpeg_decompress_struct c;
  c.err = &e.mgr;
  jpeg_create_decompress(&c);
  if (setjmp(e.jump)) {
    jpeg_destroy_decompress(&c);
    return 1;
  }
  jpeg_mem_src(&c, static_cast<const unsigned char *>(data), static_cast<unsigned long>(size));
  jpeg_read_header(&c, TRUE);
  h.info = {c.image_width, c.image_height, c.num_components, css_of(c)};
  h.progressive = c.progressive_mode;
  h.arithmetic = c.arith_code;
  jpeg_destroy_decompress(&c);
  return 0;
}

Header header(const void *data, size_t size) {
  ErrorJump e;
  init_errors(e);
  Header h;
  if (size == 0 || read_header(data, size, h, e) != 0)
    fail(Errc::invalid_argument,
         std::string("data is not a JPEG picture (") + (size == 0 ? "size is 0" : e.message) + ")");
  return h;
}

bool is_420(const jpeg_decompress_struct &c) { return css_of(c) == ACL_JPEG_CSS_420; }

// 4:2:0 sources: libjpeg-turbo's raw planes (no upsampling), luma copied and the two chroma
// planes interleaved. The same bytes as the general path gives (the mean of four copies of a
// sample is the sample), at about half the work. Scratch rows come from libjpeg's own pool,
// freed with the decompressor, so that an error's jump leaks nothing.
void decode_raw_420(jpeg_decompress_struct &c, const Image &out) {
  c.raw_data_out = TRUE;
  c.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&c);
  const JDIMENSION yw = c.comp_info[0].width_in_blocks * DCTSIZE,
                   cw = c.comp_info[1].width_in_blocks * DCTSIZE;
  auto pool = reinterpret_cast<j_common_ptr>(&c);
  JSAMPARRAY y_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, yw, 16);
  JSAMPARRAY cb_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, cw, 8);
  JSAMPARRAY cr_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, cw, 8);
  JSAMPARRAY planes[3] = {y_rows, cb_rows, cr_rows};
  const bool vu = v_first(out.format);
  uint8_t *uv_plane = out.data + size_t{out.width_stride} * out.height_stride;
  for (uint32_t y = 0; y < out.height; y += 16) {
    jpeg_read_raw_data(&c, planes, 16);
    const uint32_t rows = std::min(16u, out.height - y);
    for (uint32_t i = 0; i < rows; ++i)
      std::memcpy(out.data + size_t{y + i} * out.width_stride, y_rows[i], out.width);
    for (uint32_t i = 0; i < rows / 2; ++i) {
      const uint8_t *u = vu ? cr_rows[i] : cb_rows[i], *v = vu ? cb_rows[i] : cr_rows[i];
      uint8_t *uv = uv_plane + size_t{y / 2 + i} * out.width_stride;
      for (uint32_t x = 0; x < out.width / 2; ++x) uv[2 * x] = u[x], uv[2 * x + 1] = v[x];
    }
  }
}

// Other sources: rows in pairs of Y/Cb/Cr (3 bytes a pixel) at `rows`, chroma replicated (no
// smoothing) and averaged over each 2x2 block.
void decode_pairs(jpeg_decompress_struct &c, const Image &out, uint8_t *rows) {
  const bool grey = c.num_components == 1;
  c.out_color_space = grey ? JCS_GRAYSCALE : JCS_YCbCr;
  c.do_fancy_upsampling = FALSE;
  c.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&c);
  const uint32_t w = out.width, pitch = c.image_width * c.output_components;
  const bool vu = v_first(out.format);
  uint8_t *uv_plane = out.data + size_t{out.width_stride} * out.height_stride;
  for (uint32_t y = 0; y < out.height; y += 2) {
    JSAMPROW r[2] = {rows, rows + pitch};
    while (c.output_scanline < y + 2) jpeg_read_scanlines(&c, r + (c.output_scanline - y), 1);
    uint8_t *y0 = out.data + size_t{y} * out.width_stride, *y1 = y0 + out.width_stride;
    uint8_t *uv = uv_plane + size_t{y / 2} * out.width_stride;
    if (grey) {
      std::memcpy(y0, r[0], w);
      std::memcpy(y1, r[1], w);
      std::memset(uv, 128, w);
      continue;
    }
    const uint8_t *a = r[0], *b = r[1];
    for (uint32_t x = 0; x < w; x += 2, a += 6, b += 6) {
      y0[x] = a[0], y0[x + 1] = a[3], y1[x] = b[0], y1[x + 1] = b[3];
      uint8_t cb = static_cast<uint8_t>((a[1] + a[4] + b[1] + b[4] + 2) >> 2);
      uint8_t cr = static_cast<uint8_t>((a[2] + a[5] + b[2] + b[5] + 2) >> 2);
      uv[x] = vu ? cr : cb;
      uv[x + 1] = vu ? cb : cr;
    }
  }
}

// The source's own format: raw planes (YUV400: the grey rows), each chroma row interleaved at
// its own size. Scratch rows from libjpeg's pool, as decode_raw_420's.
void decode_native(jpeg_decompress_struct &c, const Image &out) {
  c.dct_method = JDCT_ISLOW;
  auto pool = reinterpret_cast<j_common_ptr>(&c);
  if (c.num_components == 1) {
    jpeg_start_decompress(&c);
    JSAMPARRAY row = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, c.output_width, 1);
    for (uint32_t y = 0; y < out.height; ++y) {
      jpeg_read_scanlines(&c, row, 1);
      std::memcpy(out.data + size_t{y} * out.width_stride, row[0], out.width);
    }
    return;
  }
  c.raw_data_out = TRUE;
  jpeg_start_decompress(&c);
  const uint32_t h = static_cast<uint32_t>(c.max_h_samp_factor),
                 v = static_cast<uint32_t>(c.max_v_samp_factor), luma_rows = 8 * v;
  JSAMPARRAY y_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE,
                                             c.comp_info[0].width_in_blocks * DCTSIZE, luma_rows);
  const JDIMENSION cw = c.comp_info[1].width_in_blocks * DCTSIZE;
  JSAMPARRAY cb_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, cw, 8);
  JSAMPARRAY cr_rows = (*c.mem->alloc_sarray)(pool, JPOOL_IMAGE, cw, 8);
  JSAMPARRAY planes[3] = {y_rows, cb_rows, cr_rows};
  const bool vu = v_first(out.format);
  const size_t chroma_stride = size_t{out.width_stride} * 2 / h;
  uint8_t *uv_plane = out.data + size_t{out.width_stride} * out.height_stride;
  for (uint32_t y = 0; y < out.height; y += luma_rows) {
    jpeg_read_raw_data(&c, planes, luma_rows);
    const uint32_t rows = std::min(luma_rows, out.height - y);
    for (uint32_t i = 0; i < rows; ++i)
      std::memcpy(out.data + size_t{y + i} * out.width_stride, y_rows[i], out.width);
    for (uint32_t i = 0; i < rows / v; ++i) {
      const uint8_t *u = vu ? cr_rows[i] : cb_rows[i], *w = vu ? cb_rows[i] : cr_rows[i];
      uint8_t *uv = uv_plane + (y / v + i) * chroma_stride;
      for (uint32_t x = 0; x < out.width / h; ++x) uv[2 * x] = u[x], uv[2 * x + 1] = w[x];
    }
  }
}

int decode_into(const void *data, size_t size, const Image &out, uint8_t *rows, ErrorJump &e) {
  jpeg_decompress_struct c;
  c.err = &e.mgr;
  jpeg_create_decompress(&c);
  if (setjmp(e.jump)) {
    jpeg_destroy_decompress(&c);
    return 1;
  }
  jpeg_mem_src(&c, static_cast<const unsigned char *>(data), static_cast<unsigned long>(size));
  jpeg_read_header(&c, TRUE);
  if (!is_yuv420sp(out.format)) decode_native(c, out);
  else if (is_420(c)) decode_raw_420(c, out);
  else decode_pairs(c, out, rows);
  jpeg_abort_decompress(&c);  // rows past an odd height are not needed
  jpeg_destroy_decompress(&c);
  return 0;
}

// The planes raw_data_in reads: luma rows of at least align_up(width, 16) bytes and chroma
// rows of half that (libjpeg reads whole blocks), `rows` chroma rows, each covering `v_samp`
// luma rows (2: a 4:2:0 JPEG, 1: 4:2:2).
struct Planes {
  const uint8_t *y = nullptr;
  size_t y_stride = 0;
  std::vector<uint8_t> luma;  // a packed picture's luma; YUV420SP's is read in place
  std::vector<uint8_t> u, v;
  uint32_t cw = 0, rows = 0;
  int v_samp = 2;
};

// YUV420SP: the interleaved chroma split, columns past the width repeating the last one.
Planes planes_420(const Image &in) {
  Planes p;
  p.y = in.data;
  p.y_stride = in.width_stride;
  p.cw = align_up(in.width, 16) / 2;
  p.rows = in.height / 2;
  p.u.resize(size_t{p.cw} * p.rows);
  p.v.resize(p.u.size());
  const uint8_t *uv = in.data + size_t{in.width_stride} * in.height_stride;
  const uint32_t vu = v_first(in.format) ? 1 : 0, last = in.width / 2 - 1;
  for (uint32_t y = 0; y < p.rows; ++y) {
    const uint8_t *row = uv + size_t{y} * in.width_stride;
    for (uint32_t x = 0; x < p.cw; ++x) {
      uint32_t sx = std::min(x, last);
      p.u[size_t{y} * p.cw + x] = row[2 * sx + vu];
      p.v[size_t{y} * p.cw + x] = row[2 * sx + (1 - vu)];
    }
  }
  return p;
}

// Packed YUV422 (two pixels in four bytes, in the format's order): split into a 4:2:2 JPEG's
// planes, columns past the width repeating the last pixel pair.
Planes planes_422(const Image &in) {
  // Byte offsets of Y0, U, Y1, V in each group of four.
  struct Order {
    uint32_t y0, u, y1, v;
  };
  const Order o = in.format == PIXEL_FORMAT_YUYV_PACKED_422   ? Order{0, 1, 2, 3}
                  : in.format == PIXEL_FORMAT_UYVY_PACKED_422 ? Order{1, 0, 3, 2}
                  : in.format == PIXEL_FORMAT_YVYU_PACKED_422 ? Order{0, 3, 2, 1}
                                                              : Order{1, 2, 3, 0};
  Planes p;
  p.cw = align_up(in.width, 16) / 2;
  p.rows = in.height;
  p.v_samp = 1;
  p.y_stride = size_t{p.cw} * 2;
  p.luma.resize(p.y_stride * in.height);
  p.u.resize(size_t{p.cw} * p.rows);
  p.v.resize(p.u.size());
  p.y = p.luma.data();
  const uint32_t last = in.width / 2 - 1;
  for (uint32_t y = 0; y < in.height; ++y) {
    const uint8_t *row = in.data + size_t{y} * in.width_stride;
    for (uint32_t x = 0; x < p.cw; ++x) {
      const uint8_t *g = row + 4 * size_t{std::min(x, last)};
      p.luma[y * p.y_stride + 2 * x] = g[o.y0];
      p.luma[y * p.y_stride + 2 * x + 1] = g[o.y1];
      p.u[size_t{y} * p.cw + x] = g[o.u];
      p.v[size_t{y} * p.cw + x] = g[o.v];
    }
  }
  return p;
}

// Encodes from the planes, 8 * v_samp luma rows and 8 rows of each chroma plane per call,
// rows past the picture repeating its last one.
int encode_raw(const Image &in, int quality, Planes &p, unsigned char **buf, unsigned long *len,
               ErrorJump &e) {
  jpeg_compress_struct c;
  c.err = &e.mgr;
  jpeg_create_compress(&c);
  if (setjmp(e.jump)) {
    jpeg_destroy_compress(&c);
    return 1;
  }
  jpeg_mem_dest(&c, buf, len);
  c.image_width = in.width;
  c.image_height = in.height;
  c.input_components = 3;
  c.in_color_space = JCS_YCbCr;
  jpeg_set_defaults(&c);
  jpeg_set_colorspace(&c, JCS_YCbCr);
  jpeg_set_quality(&c, quality, TRUE);
  c.raw_data_in = TRUE;
  c.dct_method = JDCT_ISLOW;
  c.comp_info[0].h_samp_factor = 2;
  c.comp_info[0].v_samp_factor = p.v_samp;
  for (int i = 1; i < 3; ++i) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
  jpeg_start_compress(&c, TRUE);
  const uint32_t luma_rows = 8 * static_cast<uint32_t>(p.v_samp);
  JSAMPROW yrows[16], urows[8], vrows[8];
  JSAMPARRAY parts[3] = {yrows, urows, vrows};
  for (uint32_t y = 0; y < in.height; y += luma_rows) {
    for (uint32_t i = 0; i < luma_rows; ++i)
      yrows[i] = const_cast<uint8_t *>(p.y) + size_t{std::min(y + i, in.height - 1)} * p.y_stride;
    for (uint32_t i = 0; i < 8; ++i) {
      size_t row = std::min(y / p.v_samp + i, p.rows - 1);
      urows[i] = p.u.data() + row * p.cw;
      vrows[i] = p.v.data() + row * p.cw;
    }
    jpeg_write_raw_data(&c, parts, luma_rows);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  return 0;
}

}  // namespace

JpegInfo jpeg_info(const void *data, size_t size) { return header(data, size).info; }

void require_jpegd_supported(const void *data, size_t size, const JpegInfo &info) {
  Header h = header(data, size);
  auto unsupported = [](const std::string &why) {
    fail(Errc::unsupported_jpeg, "JPEGD does not decode " + why);
  };
  if (h.progressive) unsupported("progressive JPEG (baseline and extended sequential only)");
  if (h.arithmetic) unsupported("arithmetic-coded JPEG");
  if (info.width < 32 || info.height < 32 || info.width > 8192 || info.height > 8192)
    unsupported("a " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                " picture (32x32 to 8192x8192)");
  if (info.css == ACL_JPEG_CSS_411 || info.css == ACL_JPEG_CSS_UNKNOWN)
    unsupported("this chroma subsampling (4:4:4, 4:2:2, 4:2:0, 4:4:0 and grey only)");
}

Image jpegd_layout(const JpegInfo &info, uint32_t format) {
  Image img;
  img.format = format;
  img.width = info.width & ~1u;
  img.height = info.height & ~1u;
  img.width_stride = align_up(img.width, 128);
  img.height_stride = align_up(img.height, 16);
  return img;
}

uint32_t jpegd_native_format(uint32_t css) {
  switch (css) {
    case ACL_JPEG_CSS_GRAY:
      return PIXEL_FORMAT_YUV_400;
    case ACL_JPEG_CSS_422:
      return PIXEL_FORMAT_YUV_SEMIPLANAR_422;
    case ACL_JPEG_CSS_444:
      return PIXEL_FORMAT_YUV_SEMIPLANAR_444;
    case ACL_JPEG_CSS_440:
      return PIXEL_FORMAT_YUV_SEMIPLANAR_440;
    default:
      return PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  }
}

bool jpegd_writes(const JpegInfo &info, uint32_t format) {
  const uint32_t native = jpegd_native_format(info.css);
  // The YVU form of each native semi-planar format is the next value (1000 / 1001 for 440).
  return is_yuv420sp(format) || format == native ||
         (native != PIXEL_FORMAT_YUV_400 && format == native + 1);
}

void jpeg_decode(const void *data, size_t size, const Image &out) {
  JpegInfo info = jpeg_info(data, size);
  std::vector<uint8_t> rows(info.css == ACL_JPEG_CSS_420 ? 0 : size_t{info.width} * 3 * 2);
  ErrorJump e;
  init_errors(e);
  if (decode_into(data, size, out, rows.data(), e) != 0)
    fail(Errc::task_failure, std::string("corrupt JPEG stream (") + e.message + ")");
}

uint32_t jpege_predict_size(uint32_t width, uint32_t height) {
  // Quality 100 stays under the raw YUV420SP size for natural pictures; noise may not, hence
  // the margin; the header and tables take under 1 KiB.
  return static_cast<uint32_t>(uint64_t{align_up(width, 16)} * align_up(height, 16) * 2 + 4096);
}

uint32_t jpeg_encode(const Image &in, uint32_t level, uint8_t *dst, uint32_t capacity) {
  Planes planes = is_yuv422_packed(in.format) ? planes_422(in) : planes_420(in);
  unsigned char *buf = nullptr;
  unsigned long len = 0;
  ErrorJump e;
  init_errors(e);
  int quality = level == 0 ? 100 : static_cast<int>(level);
  int rc = encode_raw(in, quality, planes, &buf, &len, e);
  std::string error = rc != 0 ? std::string(e.message) : std::string();
  if (rc == 0 && len > capacity)
    error = "the encoded picture (" + std::to_string(len) + " bytes) exceeds the output buffer (" +
            std::to_string(capacity) + " bytes)";
  if (rc == 0 && error.empty()) std::memcpy(dst, buf, len);
  std::free(buf);
  if (!error.empty()) fail(Errc::task_failure, "JPEGE: " + error);
  return static_cast<uint32_t>(len);
}

}  // namespace openacl::dvpp
