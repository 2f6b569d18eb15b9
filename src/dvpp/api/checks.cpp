#include "dvpp/api/checks.h"

#include <algorithm>

#include <string>

#include "api/guard.h"
#include "dvpp/memory.h"

namespace openacl::dvpp::api {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }

}  // namespace

void check_channel(const acldvppChannelDesc *channelDesc, uint32_t unit, const char *unit_name) {
  openacl::api::require_initialized();
  checked(channelDesc, "channelDesc");
  if (channelDesc->id == 0)
    fail(Errc::invalid_argument, "channelDesc has no channel: call acldvppCreateChannel first");
  if ((channelDesc->mode & unit) == 0)
    fail(Errc::invalid_argument, "the channel's mode (acldvppSetChannelDescMode " +
                                     num(channelDesc->mode) + ") does not include " + unit_name);
}

namespace {

// The unit's picture sizes: VPC 10x6 to 4096x4096, JPEGE 32x32 to 8192x8192 and even. VPC
// takes odd sizes: programs describe a JPEGD output with the JPEG's own (odd) size, as
// acllite does, and CANN accepts it.
enum Formats : unsigned { kYuv420 = 1, kRgb = 2, kGrey = 4, kRgb32 = 8, kYuv422 = 16 };

struct Sizes {
  uint32_t min_w, min_h, max_w, max_h;
  bool even;
  const char *unit;
};
constexpr Sizes kVpc{10, 6, 4096, 4096, false, "VPC"}, kJpege{32, 32, 8192, 8192, true, "JPEGE"};

constexpr Sizes kPyrIn{20, 12, 2048, 2048, false, "PyrDown"},
    kPyrOut{10, 6, 1024, 1024, false, "PyrDown"};

std::string accepted(unsigned formats) {
  std::string s;
  auto add = [&](const char *f) { s += (s.empty() ? "" : ", ") + std::string(f); };
  if (formats & kGrey) add("PIXEL_FORMAT_YUV_400");
  if (formats & kYuv420) add("PIXEL_FORMAT_YUV_SEMIPLANAR_420, PIXEL_FORMAT_YVU_SEMIPLANAR_420");
  if (formats & kYuv422)
    add("PIXEL_FORMAT_YUYV_PACKED_422, PIXEL_FORMAT_UYVY_PACKED_422, "
        "PIXEL_FORMAT_YVYU_PACKED_422, PIXEL_FORMAT_VYUY_PACKED_422");
  if (formats & kRgb) add("PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_BGR_888");
  if (formats & kRgb32)
    add("PIXEL_FORMAT_ARGB_8888, PIXEL_FORMAT_ABGR_8888, PIXEL_FORMAT_RGBA_8888, "
        "PIXEL_FORMAT_BGRA_8888");
  return s;
}

Image image(const Image &img, const char *what, unsigned formats, const Sizes &sizes) {
  std::string w(what);
  const bool grey = img.format == PIXEL_FORMAT_YUV_400, rgb = packed_bytes(img.format) == 3;
  const bool rgb32 = packed_bytes(img.format) == 4, yuv422 = is_yuv422_packed(img.format);
  if (!((formats & kYuv420) && is_yuv420sp(img.format)) && !((formats & kRgb) && rgb) &&
      !((formats & kRgb32) && rgb32) && !((formats & kGrey) && grey) &&
      !((formats & kYuv422) && yuv422))
    fail(Errc::feature_not_supported, w + ": this call on openacl takes " + accepted(formats) +
                                          ", not " + format_name(img.format));
  if (img.width < sizes.min_w || img.height < sizes.min_h || img.width > sizes.max_w ||
      img.height > sizes.max_h)
    fail(Errc::invalid_argument, w + ": " + num(img.width) + "x" + num(img.height) +
                                     " is outside " + sizes.unit + "'s picture sizes (" +
                                     num(sizes.min_w) + "x" + num(sizes.min_h) + " to " +
                                     num(sizes.max_w) + "x" + num(sizes.max_h) + ")");
  if (sizes.even && (img.width % 2 != 0 || img.height % 2 != 0))
    fail(Errc::invalid_argument, w + ": " + sizes.unit + " takes an even width and height, not " +
                                     num(img.width) + "x" + num(img.height));
  const uint32_t row = img.width * (yuv422 ? 2 : std::max(packed_bytes(img.format), 1u));
  if (img.width_stride % 16 != 0 || img.width_stride < row)
    fail(Errc::invalid_argument, w + ": widthStride " + num(img.width_stride) +
                                     " must be a multiple of 16 and at least " + num(row) +
                                     (rgb      ? " (width * 3)"
                                      : rgb32  ? " (width * 4)"
                                      : yuv422 ? " (width * 2)"
                                               : " (the width)"));
  // CANN leaves YUV400's height stride free; the semi-planar chroma needs it even.
  if ((!grey && img.height_stride % 2 != 0) || img.height_stride < img.height)
    fail(Errc::invalid_argument, w + ": heightStride " + num(img.height_stride) + " must be " +
                                     (grey ? "" : "a multiple of 2 and ") + "at least the height " +
                                     num(img.height));
  uint64_t need = buffer_bytes(img.format, img.width_stride, img.height_stride);
  if (img.size < need)
    fail(Errc::invalid_argument,
         w + ": size " + num(img.size) + " is below widthStride * heightStride" +
             (is_yuv420sp(img.format) ? " * 3 / 2" : "") + " = " + num(need));
  check_range(img.data, need, (w + " data").c_str());
  return img;
}

Image picture(const acldvppPicDesc *desc, const char *what, unsigned formats, const Sizes &sizes) {
  checked(desc, what);
  return image(desc->pic->snapshot(), what, formats, sizes);
}

}  // namespace

Image vpc_image(const Image &img, const char *what) { return image(img, what, kYuv420, kVpc); }

Image color_image(const Image &img, const char *what) {
  return image(img, what, kYuv420 | kRgb | kRgb32, kVpc);
}

Image jpege_image(const Image &img, const char *what) {
  return image(img, what, kYuv420 | kYuv422, kJpege);
}

Image lut_image(const Image &img, const char *what) {
  return image(img, what, kGrey | kYuv420 | kRgb, kVpc);
}

Image pyramid_image(const Image &img, const char *what, bool output) {
  return image(img, what, kGrey, output ? kPyrOut : kPyrIn);
}

Image vpc_picture(const acldvppPicDesc *desc, const char *what) {
  return picture(desc, what, kYuv420, kVpc);
}

Image color_picture(const acldvppPicDesc *desc, const char *what) {
  return picture(desc, what, kYuv420 | kRgb | kRgb32, kVpc);
}

Image lut_picture(const acldvppPicDesc *desc, const char *what) {
  return picture(desc, what, kGrey | kYuv420 | kRgb, kVpc);
}

Image pyramid_picture(const acldvppPicDesc *desc, const char *what, bool output) {
  return picture(desc, what, kGrey, output ? kPyrOut : kPyrIn);
}

Image jpege_picture(const acldvppPicDesc *desc, const char *what) {
  return picture(desc, what, kYuv420 | kYuv422, kJpege);
}

Rect region(const acldvppRoiConfig *roi, const char *what, const Image &img, bool paste) {
  checked(roi, what);
  return region(roi->rect, what, img, paste);
}

Rect region(const Rect &r, const char *what, const Image &img, bool paste) {
  std::string w(what);
  if (r.left % 2 != 0 || r.top % 2 != 0 || r.right % 2 != 1 || r.bottom % 2 != 1)
    fail(Errc::invalid_argument, w + ": left and top must be even, right and bottom odd (" +
                                     num(r.left) + ", " + num(r.right) + ", " + num(r.top) + ", " +
                                     num(r.bottom) + ")");
  if (r.right <= r.left || r.bottom <= r.top || r.right >= img.width || r.bottom >= img.height)
    fail(Errc::invalid_argument, w + ": [" + num(r.left) + ", " + num(r.right) + "] x [" +
                                     num(r.top) + ", " + num(r.bottom) + "] is not inside the " +
                                     num(img.width) + "x" + num(img.height) + " picture");
  if (r.width() < 10 || r.height() < 6)
    fail(Errc::invalid_argument,
         w + ": a region is at least 10x6, not " + num(r.width()) + "x" + num(r.height()));
  if (paste && r.left % 16 != 0)
    fail(Errc::invalid_argument,
         w + ": the left of a paste area must be a multiple of 16, not " + num(r.left));
  return r;
}

void check_scale(const Rect &from, const Rect &to) {
  auto bad = [](uint32_t s, uint32_t d) { return uint64_t{d} * 32 < s || d > uint64_t{s} * 16; };
  if (bad(from.width(), to.width()) || bad(from.height(), to.height()))
    fail(Errc::invalid_argument, "resizing " + num(from.width()) + "x" + num(from.height()) +
                                     " to " + num(to.width()) + "x" + num(to.height()) +
                                     " is outside VPC's scale range [1/32, 16]");
}

Interpolation interpolation(const acldvppResizeConfig *config) {
  if (config == nullptr) return Interpolation::bilinear;
  uint32_t i = checked(config, "resizeConfig")->interpolation;
  return i == 2 || i == 4 ? Interpolation::nearest : Interpolation::bilinear;
}

Border border(const acldvppBorderConfig *config, const char *what) {
  const acldvppBorderConfig &c = *checked(config, what);
  if ((c.top | c.bottom | c.left | c.right) % 2 != 0)
    fail(Errc::invalid_argument,
         std::string(what) + ": the borders of a YUV420SP picture must be even");
  Border b;
  b.top = c.top, b.bottom = c.bottom, b.left = c.left, b.right = c.right, b.type = c.type;
  for (int i = 0; i < 3; ++i) b.value[i] = c.value[i];
  return b;
}

Rect whole(const Image &img) { return {0, img.width - 1, 0, img.height - 1}; }

}  // namespace openacl::dvpp::api
