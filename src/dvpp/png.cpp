#include "dvpp/png.h"

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>

#include <png.h>

#include "acl/ops/acl_dvpp.h"
#include "core/status.h"

namespace openacl::dvpp {
namespace {

struct Reader {
  const uint8_t *data;
  size_t size, pos;
};

// libpng reports errors by jumping to the setjmp of the call that met them (png_jmpbuf);
// nothing with a destructor lives between the two.
struct Failure {
  char message[256];
};

void on_error(png_structp png, png_const_charp msg) {
  auto *f = static_cast<Failure *>(png_get_error_ptr(png));
  std::snprintf(f->message, sizeof f->message, "%s", msg);
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

void read_bytes(png_structp png, png_bytep out, png_size_t n) {
  auto *r = static_cast<Reader *>(png_get_io_ptr(png));
  if (n > r->size - r->pos) png_error(png, "truncated PNG stream");
  std::memcpy(out, r->data + r->pos, n);
  r->pos += n;
}

// Reads the header and, when out is given, the picture. 0 on success.
int read_png(const void *data, size_t size, PngInfo &info, const Image *out, Failure &f) {
  Reader r{static_cast<const uint8_t *>(data), size, 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &f, on_error, on_warning);
  if (png == nullptr) return 1;
  png_infop pi = png_create_info_struct(png);
  if (pi == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, pi ? &pi : nullptr, nullptr);
    return 1;
  }
  png_set_read_fn(png, &r, read_bytes);
  png_read_info(png, pi);
  const int type = png_get_color_type(png, pi);
  const bool alpha = (type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, pi, PNG_INFO_tRNS);
  const bool grey = (type & PNG_COLOR_MASK_COLOR) == 0;
  info = {png_get_image_width(png, pi), png_get_image_height(png, pi),
          (grey ? 1 : 3) + (alpha ? 1 : 0)};
  if (out != nullptr) {
    png_set_strip_16(png);
    png_set_packing(png);
    png_set_palette_to_rgb(png);
    png_set_expand_gray_1_2_4_to_8(png);
    png_set_tRNS_to_alpha(png);
    png_set_gray_to_rgb(png);
    if (out->format == PIXEL_FORMAT_RGB_888) {
      png_set_strip_alpha(png);
    } else if (!alpha) {
      png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, pi);
    for (int p = 0; p < passes; ++p)
      for (uint32_t y = 0; y < info.height; ++y)
        png_read_row(png, out->data + size_t{y} * out->width_stride, nullptr);
  }
  png_destroy_read_struct(&png, &pi, nullptr);
  return 0;
}

}  // namespace

PngInfo png_info(const void *data, size_t size) {
  Failure f{};
  PngInfo info;
  if (size < 8 || png_sig_cmp(static_cast<png_const_bytep>(data), 0, 8) != 0)
    fail(Errc::invalid_argument, "data is not a PNG picture (no PNG signature)");
  if (read_png(data, size, info, nullptr, f) != 0)
    fail(Errc::invalid_argument,
         std::string("data is not a readable PNG picture (") + f.message + ")");
  return info;
}

Image pngd_layout(const PngInfo &info, uint32_t format) {
  if (info.width < 32 || info.height < 32 || info.width > 4096 || info.height > 4096)
    fail(Errc::feature_not_supported, "PNGD decodes pictures from 32x32 to 4096x4096, not " +
                                          std::to_string(info.width) + "x" +
                                          std::to_string(info.height));
  if (format == PIXEL_FORMAT_UNKNOWN)
    format = info.components == 2 || info.components == 4 ? PIXEL_FORMAT_RGBA_8888
                                                          : PIXEL_FORMAT_RGB_888;
  if (format != PIXEL_FORMAT_RGB_888 && format != PIXEL_FORMAT_RGBA_8888)
    fail(Errc::feature_not_supported,
         "PNGD writes PIXEL_FORMAT_RGB_888 or PIXEL_FORMAT_RGBA_8888 (or "
         "PIXEL_FORMAT_UNKNOWN for the source's), not " +
             format_name(format));
  Image img;
  img.format = format;
  img.width = info.width;
  img.height = info.height;
  img.width_stride = align_up(info.width, 128) * packed_bytes(format);
  img.height_stride = align_up(info.height, 16);
  return img;
}

void png_decode(const void *data, size_t size, const Image &out) {
  Failure f{};
  PngInfo info;
  if (read_png(data, size, info, &out, f) != 0)
    fail(Errc::task_failure, std::string("corrupt PNG stream (") + f.message + ")");
}

}  // namespace openacl::dvpp
