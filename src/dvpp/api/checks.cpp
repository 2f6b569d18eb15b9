#include "dvpp/api/checks.h"

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
  if (channelDesc->id == 0) fail(Errc::invalid_argument, "channelDesc has no channel: call acldvppCreateChannel first");
  if ((channelDesc->mode & unit) == 0)
    fail(Errc::invalid_argument, "the channel's mode (acldvppSetChannelDescMode " + num(channelDesc->mode) +
                                     ") does not include " + unit_name);
}

namespace {

// The unit's picture sizes: VPC 10x6 to 4096x4096, JPEGE 32x32 to 8192x8192 and even. VPC
// takes odd sizes: programs describe a JPEGD output with the JPEG's own (odd) size, as
// acllite does, and CANN accepts it.
struct Sizes {
  uint32_t min_w, min_h, max_w, max_h;
  bool even;
  const char *unit;
};
constexpr Sizes kVpc{10, 6, 4096, 4096, false, "VPC"}, kJpege{32, 32, 8192, 8192, true, "JPEGE"};

Image picture(const acldvppPicDesc *desc, const char *what, bool rgb, const Sizes &sizes) {
  checked(desc, what);
  Image img = desc->pic->snapshot();
  std::string w(what);
  const uint32_t bpp = rgb ? packed_bytes(img.format) : 0;
  if (!is_yuv420sp(img.format) && bpp != 3)
    fail(Errc::feature_not_supported, w + ": this call on openacl takes PIXEL_FORMAT_YUV_SEMIPLANAR_420 or "
                                          "PIXEL_FORMAT_YVU_SEMIPLANAR_420" +
                                          (rgb ? ", PIXEL_FORMAT_RGB_888 or PIXEL_FORMAT_BGR_888" : "") + ", not " +
                                          format_name(img.format));
  if (img.width < sizes.min_w || img.height < sizes.min_h || img.width > sizes.max_w || img.height > sizes.max_h)
    fail(Errc::invalid_argument, w + ": " + num(img.width) + "x" + num(img.height) + " is outside " + sizes.unit +
                                     "'s picture sizes (" + num(sizes.min_w) + "x" + num(sizes.min_h) + " to " +
                                     num(sizes.max_w) + "x" + num(sizes.max_h) + ")");
  if (sizes.even && (img.width % 2 != 0 || img.height % 2 != 0))
    fail(Errc::invalid_argument, w + ": " + sizes.unit + " takes an even width and height, not " + num(img.width) + "x" +
                                     num(img.height));
  const uint32_t row = img.width * (bpp != 0 ? bpp : 1);
  if (img.width_stride % 16 != 0 || img.width_stride < row)
    fail(Errc::invalid_argument, w + ": widthStride " + num(img.width_stride) + " must be a multiple of 16 and at least " +
                                     num(row) + (bpp != 0 ? " (width * 3)" : " (the width)"));
  if (img.height_stride % 2 != 0 || img.height_stride < img.height)
    fail(Errc::invalid_argument, w + ": heightStride " + num(img.height_stride) +
                                     " must be a multiple of 2 and at least the height " + num(img.height));
  uint64_t need = buffer_bytes(img.format, img.width_stride, img.height_stride);
  if (img.size < need)
    fail(Errc::invalid_argument, w + ": size " + num(img.size) + " is below widthStride * heightStride" +
                                     (bpp != 0 ? "" : " * 3 / 2") + " = " + num(need));
  check_range(img.data, need, (w + " data").c_str());
  return img;
}

}  // namespace

Image vpc_picture(const acldvppPicDesc *desc, const char *what) { return picture(desc, what, false, kVpc); }

Image color_picture(const acldvppPicDesc *desc, const char *what) { return picture(desc, what, true, kVpc); }

Image jpege_picture(const acldvppPicDesc *desc, const char *what) { return picture(desc, what, false, kJpege); }

Rect region(const acldvppRoiConfig *roi, const char *what, const Image &img, bool paste) {
  checked(roi, what);
  const Rect r = roi->rect;
  std::string w(what);
  if (r.left % 2 != 0 || r.top % 2 != 0 || r.right % 2 != 1 || r.bottom % 2 != 1)
    fail(Errc::invalid_argument, w + ": left and top must be even, right and bottom odd (" + num(r.left) + ", " +
                                     num(r.right) + ", " + num(r.top) + ", " + num(r.bottom) + ")");
  if (r.right <= r.left || r.bottom <= r.top || r.right >= img.width || r.bottom >= img.height)
    fail(Errc::invalid_argument, w + ": [" + num(r.left) + ", " + num(r.right) + "] x [" + num(r.top) + ", " +
                                     num(r.bottom) + "] is not inside the " + num(img.width) + "x" + num(img.height) +
                                     " picture");
  if (r.width() < 10 || r.height() < 6)
    fail(Errc::invalid_argument, w + ": a region is at least 10x6, not " + num(r.width()) + "x" + num(r.height()));
  if (paste && r.left % 16 != 0)
    fail(Errc::invalid_argument, w + ": the left of a paste area must be a multiple of 16, not " + num(r.left));
  return r;
}

void check_scale(const Rect &from, const Rect &to) {
  auto bad = [](uint32_t s, uint32_t d) { return uint64_t{d} * 32 < s || d > uint64_t{s} * 16; };
  if (bad(from.width(), to.width()) || bad(from.height(), to.height()))
    fail(Errc::invalid_argument, "resizing " + num(from.width()) + "x" + num(from.height()) + " to " + num(to.width()) +
                                     "x" + num(to.height()) + " is outside VPC's scale range [1/32, 16]");
}

Interpolation interpolation(const acldvppResizeConfig *config) {
  if (config == nullptr) return Interpolation::bilinear;
  uint32_t i = checked(config, "resizeConfig")->interpolation;
  return i == 2 || i == 4 ? Interpolation::nearest : Interpolation::bilinear;
}

Rect whole(const Image &img) { return {0, img.width - 1, 0, img.height - 1}; }

}  // namespace openacl::dvpp::api
