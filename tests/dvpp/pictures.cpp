#include "dvpp/pictures.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include <jpeglib.h>  // needs size_t and FILE declared first

namespace dvt {

std::vector<uint8_t> rgb_picture(uint32_t width, uint32_t height) {
  std::vector<uint8_t> rgb(size_t{width} * height * 3);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t *p = &rgb[(size_t{y} * width + x) * 3];
      bool block = ((x / 13) + (y / 9)) % 2 == 0;
      p[0] = static_cast<uint8_t>(x * 255 / width);
      p[1] = static_cast<uint8_t>(block ? 200 : 40);
      p[2] = static_cast<uint8_t>((x * y) % 251);
    }
  return rgb;
}

std::vector<uint8_t> make_jpeg(uint32_t width, uint32_t height, int h_samp, int v_samp,
                               int components, bool progressive) {
  std::vector<uint8_t> rgb = rgb_picture(width, height);
  jpeg_compress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char *buf = nullptr;
  unsigned long len = 0;
  jpeg_mem_dest(&c, &buf, &len);
  c.image_width = width;
  c.image_height = height;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  if (components == 1) jpeg_set_colorspace(&c, JCS_GRAYSCALE);
  jpeg_set_quality(&c, 90, TRUE);
  c.comp_info[0].h_samp_factor = h_samp;
  c.comp_info[0].v_samp_factor = v_samp;
  if (progressive) jpeg_simple_progression(&c);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < height) {
    JSAMPROW row = &rgb[size_t{c.next_scanline} * width * 3];
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::vector<uint8_t> out(buf, buf + len);
  std::free(buf);
  return out;
}

}  // namespace dvt
