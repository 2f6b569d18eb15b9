// JPEGD, JPEGE and PNGD entry points. The Info and Predict calls read the caller's bytes now
// (the JPEG ones refuse streams JPEGD cannot decode with ACL_ERROR_UNSUPPORTED_JPEG, as CANN);
// the Async calls check what they can at the call (channel, buffers, formats) and leave what
// depends on the stream's data to the task, which reads the input in stream order (after an
// earlier copy into it) and fails the stream with the reason when the data does not fit.
#include <string>

#include "api/guard.h"
#include "dvpp/api/checks.h"
#include "dvpp/api/descs.h"
#include "dvpp/api/submit.h"
#include "dvpp/jpeg.h"
#include "dvpp/memory.h"
#include "dvpp/png.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace dv = openacl::dvpp;

namespace {

void require_out(const void *p, const char *what) {
  if (p == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
}

void require_input(const void *data, uint32_t size) {
  require_out(data, "data");
  if (size == 0) fail(Errc::invalid_argument, "size is 0");
}

uint32_t jpegd_format(int64_t f) {
  if (!dv::is_yuv420sp(static_cast<uint32_t>(f)))
    fail(Errc::feature_not_supported,
         "JPEGD on openacl writes PIXEL_FORMAT_YUV_SEMIPLANAR_420 or "
         "PIXEL_FORMAT_YVU_SEMIPLANAR_420, not " +
             dv::format_name(static_cast<uint32_t>(f)));
  return static_cast<uint32_t>(f);
}

// The output picture of a decode: a buffer of acldvppMalloc memory of the declared size.
dv::Image decode_output(const acldvppPicDesc *outputDesc) {
  checked(outputDesc, "outputDesc");
  dv::Image out = outputDesc->pic->snapshot();
  if (out.size == 0) fail(Errc::invalid_argument, "outputDesc has size 0 (acldvppSetPicDescSize)");
  dv::check_range(out.data, out.size, "outputDesc data");
  return out;
}

// Runs a decode on the device: lays out, checks the buffer, decodes, writes the picture's
// geometry back. A failure sets the description's return code and fails the stream as a task
// failure naming the unit.
template <class Layout, class Decode>
void decode_task(std::shared_ptr<dv::Picture> pic, dv::Image out, const char *unit, Layout layout,
                 Decode decode) {
  try {
    dv::Image img = layout();
    img.data = out.data;
    img.size = out.size;
    uint32_t need = dv::image_bytes(img);
    if (out.size < need)
      fail(Errc::task_failure, "outputDesc holds " + std::to_string(out.size) + " bytes; the " +
                                   std::to_string(img.width) + "x" + std::to_string(img.height) +
                                   " picture needs " + std::to_string(need));
    decode(img);
    pic->write_back(img, need);
  } catch (const openacl::Error &e) {
    pic->ret_code.store(1, std::memory_order_relaxed);
    fail(Errc::task_failure, std::string(unit) + ": " + e.what());
  }
}

}  // namespace

extern "C" {

aclError acldvppJpegGetImageInfo(const void *data, uint32_t size, uint32_t *width, uint32_t *height,
                                 int32_t *components) {
  return guarded(__func__, [&] {
    require_input(data, size);
    dv::JpegInfo info = dv::jpeg_info(data, size);
    dv::require_jpegd_supported(data, size, info);
    if (width) *width = info.width;
    if (height) *height = info.height;
    if (components) *components = info.components;
  });
}

aclError acldvppJpegGetImageInfoV2(const void *data, uint32_t size, uint32_t *width,
                                   uint32_t *height, int32_t *components,
                                   acldvppJpegFormat *format) {
  return guarded(__func__, [&] {
    require_input(data, size);
    dv::JpegInfo info = dv::jpeg_info(data, size);
    dv::require_jpegd_supported(data, size, info);
    if (width) *width = info.width;
    if (height) *height = info.height;
    if (components) *components = info.components;
    if (format) *format = static_cast<acldvppJpegFormat>(info.css);
  });
}

aclError acldvppJpegPredictDecSize(const void *data, uint32_t dataSize,
                                   acldvppPixelFormat outputPixelFormat, uint32_t *decSize) {
  return guarded(__func__, [&] {
    require_input(data, dataSize);
    require_out(decSize, "decSize");
    uint32_t format = jpegd_format(openacl::api::enum_value(outputPixelFormat));
    dv::JpegInfo info = dv::jpeg_info(data, dataSize);
    dv::require_jpegd_supported(data, dataSize, info);
    *decSize = dv::image_bytes(dv::jpegd_layout(info, format));
  });
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                                acldvppPicDesc *outputDesc, aclrtStream stream) {
  return guarded(__func__, [&] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_JPEGD, "DVPP_CHNMODE_JPEGD");
    require_input(data, size);
    dv::check_range(data, size, "data");
    dv::Image out = decode_output(outputDesc);
    uint32_t format = jpegd_format(out.format);
    auto pic = outputDesc->pic;
    dv::api::submit(stream, "JPEGD", {{data, size, false}, {out.data, out.size, true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      const uint8_t *src = h.at(data);
                      decode_task(
                          pic, h.image(out), "JPEGD",
                          [&] {
                            dv::JpegInfo info = dv::jpeg_info(src, size);
                            dv::require_jpegd_supported(src, size, info);
                            return dv::jpegd_layout(info, format);
                          },
                          [&](const dv::Image &img) { dv::jpeg_decode(src, size, img); });
                    });
  });
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc *inputDesc,
                                   const acldvppJpegeConfig *config, uint32_t *size) {
  return guarded(__func__, [&] {
    checked(inputDesc, "inputDesc");
    checked(config, "config");
    require_out(size, "size");
    dv::Image in = inputDesc->pic->snapshot();
    if (in.width == 0 || in.height == 0)
      fail(Errc::invalid_argument, "inputDesc has no width or height");
    *size = dv::jpege_predict_size(in.width, in.height);
  });
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc *channelDesc, acldvppPicDesc *inputDesc,
                                const void *data, uint32_t *size, acldvppJpegeConfig *config,
                                aclrtStream stream) {
  return guarded(__func__, [&] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_JPEGE, "DVPP_CHNMODE_JPEGE");
    dv::Image in = dv::api::jpege_picture(inputDesc, "inputDesc");
    require_out(size, "size");
    require_out(data, "data");
    if (*size == 0) fail(Errc::invalid_argument, "*size (the output buffer's size) is 0");
    dv::check_range(data, *size, "data");
    uint32_t level = checked(config, "config")->level;
    auto *dst = static_cast<uint8_t *>(const_cast<void *>(data));
    uint32_t capacity = *size;
    dv::api::submit(stream, "JPEGE", {{in.data, dv::image_bytes(in), false}, {dst, capacity, true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      *size = dv::jpeg_encode(h.image(in), level, h.at(dst), capacity);
                    });
  });
}

aclError acldvppPngGetImageInfo(const void *data, uint32_t dataSize, uint32_t *width,
                                uint32_t *height, int32_t *components) {
  return guarded(__func__, [&] {
    require_input(data, dataSize);
    dv::PngInfo info = dv::png_info(data, dataSize);
    if (width) *width = info.width;
    if (height) *height = info.height;
    if (components) *components = info.components;
  });
}

aclError acldvppPngPredictDecSize(const void *data, uint32_t dataSize,
                                  acldvppPixelFormat outputPixelFormat, uint32_t *decSize) {
  return guarded(__func__, [&] {
    require_input(data, dataSize);
    require_out(decSize, "decSize");
    dv::PngInfo info = dv::png_info(data, dataSize);
    *decSize = dv::image_bytes(
        dv::pngd_layout(info, static_cast<uint32_t>(openacl::api::enum_value(outputPixelFormat))));
  });
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc *channelDesc, const void *data, uint32_t size,
                               acldvppPicDesc *outputDesc, aclrtStream stream) {
  return guarded(__func__, [&] {
    dv::api::check_channel(channelDesc, DVPP_CHNMODE_PNGD, "DVPP_CHNMODE_PNGD");
    require_input(data, size);
    dv::check_range(data, size, "data");
    dv::Image out = decode_output(outputDesc);
    uint32_t format = out.format;
    if (format != PIXEL_FORMAT_RGB_888 && format != PIXEL_FORMAT_RGBA_8888 &&
        format != PIXEL_FORMAT_UNKNOWN)
      fail(Errc::feature_not_supported,
           "PNGD writes PIXEL_FORMAT_RGB_888, PIXEL_FORMAT_RGBA_8888 or "
           "PIXEL_FORMAT_UNKNOWN (the source's), not " +
               dv::format_name(format));
    auto pic = outputDesc->pic;
    dv::api::submit(stream, "PNGD", {{data, size, false}, {out.data, out.size, true}},
                    [=](openacl::backend::AiCores &, const dv::api::HostRanges &h) {
                      const uint8_t *src = h.at(data);
                      decode_task(
                          pic, h.image(out), "PNGD",
                          [&] { return dv::pngd_layout(dv::png_info(src, size), format); },
                          [&](const dv::Image &img) { dv::png_decode(src, size, img); });
                    });
  });
}

}  // extern "C"
