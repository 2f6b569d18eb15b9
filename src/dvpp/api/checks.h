// Argument checks shared by the DVPP entry points: channels, pictures and regions against
// CANN's rules (docs/dvpp.md). Each throws openacl::Error naming the argument; nothing is
// enqueued when one fails.
#pragma once

#include <cstdint>

#include "dvpp/api/descs.h"
#include "dvpp/color.h"
#include "dvpp/image.h"
#include "dvpp/vpc.h"

namespace openacl::dvpp::api {

// A created channel (acldvppCreateChannel) whose mode includes `unit` (DVPP_CHNMODE_*).
void check_channel(const acldvppChannelDesc *channelDesc, uint32_t unit, const char *unit_name);
// A VPC input or output: YUV420SP (NV12/NV21), width and height in [10, 4096] x [6, 4096],
// width stride a multiple of 16, height stride a multiple of 2, both at least the size, and a
// buffer of acldvppMalloc memory holding width_stride * height_stride * 3 / 2 bytes.
Image vpc_picture(const acldvppPicDesc *desc, const char *what);
// The same, also taking packed RGB888 / BGR888 (width stride a multiple of 16 and at least
// width * 3 bytes; buffer width_stride * height_stride), for color conversion.
Image color_picture(const acldvppPicDesc *desc, const char *what);
// A picture for the LUT and histogram calls: YUV400 (width stride a multiple of 16, height
// stride at least the height, buffer width_stride * height_stride) or as color_picture.
Image lut_picture(const acldvppPicDesc *desc, const char *what);
// A YUV400 picture for acldvppVpcPyrDownAsync: input 20x12 to 2048x2048, output half that.
Image pyramid_picture(const acldvppPicDesc *desc, const char *what, bool output);
// A JPEGE input: as a VPC picture, or packed YUV422 (YUYV, UYVY, YVYU, VYUY; width stride a
// multiple of 16 and at least width * 2 bytes; buffer width_stride * height_stride), from
// 32x32 to 8192x8192, even width and height.
Image jpege_picture(const acldvppPicDesc *desc, const char *what);
// The same checks of a picture described otherwise (CANN's V2 calls, dvpp/mpi/).
Image vpc_image(const Image &img, const char *what);
Image color_image(const Image &img, const char *what);
Image jpege_image(const Image &img, const char *what);
Image lut_image(const Image &img, const char *what);
Image pyramid_image(const Image &img, const char *what, bool output);
// A crop or paste region inside `img`: left and top even, right and bottom odd, at least
// 10x6. A paste region's left must be a multiple of 16 as well.
Rect region(const acldvppRoiConfig *roi, const char *what, const Image &img, bool paste);
Rect region(const Rect &r, const char *what, const Image &img, bool paste);
// Scale factors from the source region to the destination region within [1/32, 16].
void check_scale(const Rect &from, const Rect &to);
// CANN's interpolation codes: 0..4 (0, 1, 3 bilinear; 2, 4 nearest); NULL means 0.
Interpolation interpolation(const acldvppResizeConfig *config);
// A border configuration for a YUV420SP picture: even borders (the chroma plane takes half).
Border border(const acldvppBorderConfig *config, const char *what);
// The whole picture as a region.
Rect whole(const Image &img);

}  // namespace openacl::dvpp::api
